// The judge as the build makes it (scripts/build-judge.py, no torch), run by Transformers.js in Node
// with its own tokenizer, against the reference vectors of the torch export
// (scripts/fixtures/judge-reference.json: onnxruntime + tokenizers from PyPI, a one-off script).
// Needs the folder built by `npm run prepare-assets`; skipped, saying so, where it could not be.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MPNET_JUDGE } from '../../src/embed/encoders';
import type { TransformersEncoder } from '../../src/embed/transformers';
import { cosine } from './minilm-reference';
import { MODELS_DIR, loadNodeTransformers } from './node-transformers';

const built = existsSync(join(MODELS_DIR, MPNET_JUDGE.folder!, 'onnx', 'model_quantized.onnx'));
if (!built) console.warn('judge tests skipped: public/models/all-mpnet-base-v2-int8/ is not built (npm run prepare-assets needs Python and PyPI)');
const fixture = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'judge-reference.json'), 'utf8')) as {
  texts: { text: string; ids: number[]; vector: number[] }[];
};

describe.skipIf(!built)('the judge in Node', () => {
  let enc: TransformersEncoder;
  beforeAll(async () => {
    enc = await loadNodeTransformers(MPNET_JUDGE, { runtime: 'auto', batchSize: 8 });
  });
  afterAll(() => enc?.dispose());

  it('gives the torch export\'s vector for every reference text (cosine > 0.998), the 362-token one included', async () => {
    expect(fixture.texts.map((t) => t.ids.length)).toContain(362); // past the relative bias's 128-token horizon
    const vs = await enc.embed(fixture.texts.map((t) => t.text));
    vs.forEach((v, i) => {
      expect(v).toHaveLength(768);
      expect(cosine(v, fixture.texts[i].vector), fixture.texts[i].text).toBeGreaterThan(0.998);
    });
  });

  it('ranks the mechanic well above the bike chain for "fixing my automobile" (0.416 vs 0.234 with torch\'s fp32 in the Fourth pass)', async () => {
    const [q, mechanic, bike] = await enc.embed(['fixing my automobile', 'the mechanic replaced the timing belt', 'the neighbour fixed my bike chain']);
    expect(cosine(q, mechanic) - cosine(q, bike)).toBeGreaterThan(0.15);
  });
});
