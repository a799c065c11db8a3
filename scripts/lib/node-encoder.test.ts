// The real USE-lite model in Node: loaded once for the whole file.
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/core/errors';
import { MAX_EMBED_CHARS, USE_LITE_DIM } from '../../src/embed/types';
import { loadNodeEncoder, type NodeEncoder } from './node-encoder';

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};
const maxAbsDiff = (a: Float32Array, b: Float32Array) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
};

const sentences = [
  'fixing my automobile',
  'took the car to the garage to repair the engine',
  'baked sourdough bread this morning',
  'the stock market fell sharply on Tuesday',
  'Caroline: I went to a LGBTQ support group yesterday and it was so powerful.',
];

describe('USE-lite in Node (wasm)', () => {
  let enc: NodeEncoder;
  beforeAll(async () => {
    enc = await loadNodeEncoder({ batchSize: 4 });
  }, 30_000);

  it('reports its identity', () => {
    expect(enc.info()).toMatchObject({ dim: 512, backend: 'wasm', maxInputChars: MAX_EMBED_CHARS });
  });

  it('returns one unit-length 512-d Float32Array per text, each with its own buffer', async () => {
    const vs = await enc.embed(sentences);
    expect(vs).toHaveLength(sentences.length);
    for (const v of vs) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(USE_LITE_DIM);
      expect(Math.abs(Math.sqrt(dot(v, v)) - 1)).toBeLessThan(1e-5);
      expect(v.byteOffset).toBe(0);
      expect(v.buffer.byteLength).toBe(USE_LITE_DIM * 4);
    }
    expect(new Set(vs.map((v) => v.buffer)).size).toBe(vs.length);
  });

  it('is deterministic, and a text in a batch (sorted, split at 4) equals the text alone', async () => {
    const batch = await enc.embed(sentences); // 5 texts with batchSize 4: two model calls
    const again = await enc.embed(sentences);
    for (let i = 0; i < sentences.length; i++) {
      expect(maxAbsDiff(batch[i], again[i])).toBe(0);
      const [single] = await enc.embed([sentences[i]]);
      expect(maxAbsDiff(batch[i], single)).toBeLessThan(1e-5);
    }
  });

  it('puts paraphrases closer than unrelated sentences', async () => {
    const [car, garage, bread, stocks] = await enc.embed(sentences.slice(0, 4));
    const related = dot(car, garage);
    expect(related).toBeGreaterThan(dot(car, bread));
    expect(related).toBeGreaterThan(dot(car, stocks));
    expect(related).toBeGreaterThan(0.4);
  });

  it('reads only the first 128 tokens (the graph\'s window)', async () => {
    // 'memory' is one piece ("▁memory"): 130 words are 130 tokens, well under 2,000 chars.
    const words = (n: number) => 'memory '.repeat(n).trimEnd();
    expect(enc.tokenizer.encode(words(130)).length).toBe(130);
    const tail = ' cats purr on the warm windowsill';
    const [w127, w127cats, w128, w128cats] = await enc.embed([words(127), words(127) + tail, words(128), words(128) + tail]);
    expect(maxAbsDiff(w127, w127cats)).toBeGreaterThan(1e-3); // token 128 is still read
    expect(maxAbsDiff(w128, w128cats)).toBeLessThan(1e-6); // token 129 onwards is not
  });

  it('cuts a long text to its bounded prefix of MAX_EMBED_CHARS', async () => {
    // "☃" is not in the vocabulary and a run of unknowns is one token, so only the character
    // limit can drop the trailing words; no whitespace near index 2000, so the cut is exact.
    const snow = (n: number) => '\u2603'.repeat(n);
    const tail = ' cats purr';
    const [long, cut, short, shortCats] = await enc.embed([
      snow(2500) + tail,
      snow(MAX_EMBED_CHARS),
      snow(1500),
      snow(1500) + tail,
    ]);
    expect(maxAbsDiff(long, cut)).toBeLessThan(1e-6);
    expect(maxAbsDiff(short, shortCats)).toBeGreaterThan(1e-3); // within the limit the words count
  });

  it('rejects an empty text with EMPTY_TEXT and an aborted signal with ABORTED', async () => {
    await expect(enc.embed(['ok', ''])).rejects.toMatchObject({ code: 'EMPTY_TEXT' });
    const ac = new AbortController();
    ac.abort();
    const err = await enc.embed(['ok'], ac.signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('ABORTED');
    expect(await enc.embed([])).toEqual([]);
  });

  it('leaks no tensors', async () => {
    await enc.embed(['warm']);
    const before = tf.memory().numTensors;
    await enc.embed(sentences);
    await enc.embed(['x']);
    // The failing path too: an empty text is refused after 'ok' was read.
    await expect(enc.embed(['ok', ''])).rejects.toMatchObject({ code: 'EMPTY_TEXT' });
    expect(tf.memory().numTensors).toBe(before);
  });
});
