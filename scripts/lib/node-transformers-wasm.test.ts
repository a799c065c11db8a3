// MiniLM in Node on onnxruntime-web's WASM build (the path taken where onnxruntime-node has no
// binding, e.g. Intel Macs), against the same Python reference. Its own file: the runtime is
// chosen once per process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINILM } from '../../src/embed/encoders';
import type { TransformersEncoder } from '../../src/embed/transformers';
import { cosine, minilmReference } from './minilm-reference';
import { loadNodeTransformers } from './node-transformers';

describe('MiniLM in Node (WASM)', () => {
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
