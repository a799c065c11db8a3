// MiniLM in Node on onnxruntime-web's WASM build (the path taken where onnxruntime-node has no
// binding, e.g. Intel Macs), against the same Python reference. Its own file: the runtime is
// chosen once per process.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINILM } from '../../src/embed/encoders';
import type { TransformersEncoder } from '../../src/embed/transformers';
import { cosine, minilmReference } from './minilm-reference';
import { MODELS_DIR, loadNodeTransformers } from './node-transformers';

// Without the model folder (no pip / PyPI when npm run prepare-assets ran) the app runs USE-lite
// and these are skipped, saying so; CI has pip, so they run there.
const built = existsSync(join(MODELS_DIR, MINILM.folder!, 'onnx', 'model_quantized.onnx'));
if (!built) console.warn('MiniLM tests skipped: public/models/all-MiniLM-L6-v2-int8/ is not built (npm run prepare-assets needs pip and PyPI)');

describe.skipIf(!built)('MiniLM in Node (WASM)', () => {
  let enc: TransformersEncoder;
  beforeAll(async () => {
    enc = await loadNodeTransformers(MINILM, { runtime: 'wasm' });
  });
  afterAll(() => enc?.dispose());

  it('runs on WASM and matches the Python reference (cosine > 0.9999)', async () => {
    expect(enc.info().backend).toBe('wasm');
    const ref = minilmReference();
    const vs = await enc.embed(ref.map((r) => r.text));
    vs.forEach((v, i) => expect(cosine(v, ref[i].vector), ref[i].text).toBeGreaterThan(0.9999));
  });
});
