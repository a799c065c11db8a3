// The Transformers.js wrapper's batching, ordering, prefixes, checks and retry with a fake
// pipeline, so the logic is checked without the real weights (scripts/lib/node-transformers.test.ts
// runs those against the Python reference).
import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import { MINILM, USE_LITE, encoderMeta, onEncoderScale, withPrefix, type EncoderMeta } from './encoders';
import { createTransformersEncoder, keepSepWhenTruncating, loadExtractor, planBatches, tokenCounts, type FeatureExtractor } from './transformers';
import { MAX_EMBED_CHARS } from './types';

const DIM = 4;
const META: EncoderMeta = { ...MINILM, id: 'fake', dim: DIM, queryPrefix: 'q: ', documentPrefix: 'd: ' };

// Row r is [length of text r, 3, 0, 0] before normalisation; calls records each batch's texts.
function fakeExtractor(calls: string[][], opts: { failFirst?: number; dims?: number[]; nan?: boolean } = {}): FeatureExtractor & { disposed: number } {
  let failures = opts.failFirst ?? 0;
  const fe = Object.assign(
    async (texts: string[], o: { pooling: string; normalize: boolean }) => {
      expect(o).toEqual({ pooling: 'mean', normalize: true });
      if (failures > 0) {
        failures--;
        throw new Error('device lost');
      }
      calls.push(texts);
      const data = new Float32Array(texts.length * DIM);
      texts.forEach((t, r) => {
        data[r * DIM] = opts.nan ? NaN : t.length;
        data[r * DIM + 1] = 3;
      });
      return { data, dims: opts.dims ?? [texts.length, DIM] };
    },
    { disposed: 0, dispose: () => void fe.disposed++ },
  );
  return fe;
}

describe('createTransformersEncoder', () => {
  it('puts the document prefix before stored texts and the query prefix before queries', async () => {
    const calls: string[][] = [];
    const enc = createTransformersEncoder({ extractor: fakeExtractor(calls), meta: META, backend: 'wasm' });
    await enc.embed(['note']);
    await enc.forQueries().embed(['search']);
    await enc.embedQueries!(['again']);
    expect(calls).toEqual([['d: note'], ['q: search'], ['q: again']]);
  });

  it('returns unit vectors in input order, batching texts sorted by length', async () => {
    const calls: string[][] = [];
    const enc = createTransformersEncoder({ extractor: fakeExtractor(calls), meta: { ...META, documentPrefix: '' }, backend: 'wasm', batchSize: 2 });
    const out = await enc.embed(['cccc', 'a', 'bbb']);
    // sorted by length: a (1), bbb (3), cccc (4), two per call
    expect(calls).toEqual([['a', 'bbb'], ['cccc']]);
    // [4, 3] / 5 = [0.8, 0.6]; [1, 3] / sqrt(10); [3, 3] / sqrt(18)
    expect(out[0][0]).toBeCloseTo(0.8, 6);
    expect(out[0][1]).toBeCloseTo(0.6, 6);
    expect(out[1][0]).toBeCloseTo(1 / Math.sqrt(10), 6);
    expect(out[2][0]).toBeCloseTo(Math.SQRT1_2, 6);
    // each vector owns its buffer (transferable alone)
    expect(out[0].buffer).not.toBe(out[1].buffer);
    expect(out[0].buffer.byteLength).toBe(DIM * 4);
  });

  it("sorts and batches by the tokenizer's counts, not by characters", async () => {
    const calls: string[][] = [];
    // a "tokenizer" counting words (+2 for [CLS] / [SEP]): 'aaaaaaaa' is one token, 'b b b' three
    const extractor = Object.assign(fakeExtractor(calls), { tokenizer: { encode: (t: string) => new Array(t.split(' ').length + 2).fill(0) } });
    const enc = createTransformersEncoder({ extractor, meta: { ...META, documentPrefix: '' }, backend: 'wasm', batchSize: 2 });
    const out = await enc.embed(['b b b', 'aaaaaaaa', 'c c']);
    // counts 5, 3, 4: aaaaaaaa (3), c c (4), then b b b (5)
    expect(calls).toEqual([['aaaaaaaa', 'c c'], ['b b b']]);
    // results back in the input order: row 0 is 'b b b' ([5, 3] before normalising)
    expect(out[0][0]).toBeCloseTo(5 / Math.sqrt(34), 6);
    expect(out[1][0]).toBeCloseTo(8 / Math.sqrt(73), 6);
  });

  it('cuts texts to the bounded prefix before the model sees them', async () => {
    const calls: string[][] = [];
    const enc = createTransformersEncoder({ extractor: fakeExtractor(calls), meta: { ...META, documentPrefix: '' }, backend: 'cpu' });
    await enc.embed(['x'.repeat(MAX_EMBED_CHARS + 500)]);
    expect(calls[0][0].length).toBe(MAX_EMBED_CHARS);
  });

  it('refuses an empty text, a non-string, a wrong shape and a non-finite vector', async () => {
    const enc = createTransformersEncoder({ extractor: fakeExtractor([]), meta: META, backend: 'wasm' });
    await expect(enc.embed(['ok', ''])).rejects.toMatchObject({ code: 'EMPTY_TEXT' });
    await expect(enc.embed([3 as unknown as string])).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    const wide = createTransformersEncoder({ extractor: fakeExtractor([], { dims: [1, 8] }), meta: META, backend: 'wasm' });
    await expect(wide.embed(['a'])).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED' });
    const nan = createTransformersEncoder({ extractor: fakeExtractor([], { nan: true }), meta: META, backend: 'wasm' });
    await expect(nan.embed(['a'])).rejects.toMatchObject({ code: 'INVALID_EMBEDDING' });
    expect(await enc.embed([])).toEqual([]);
  });

  it('stops between batches when aborted', async () => {
    const calls: string[][] = [];
    const ac = new AbortController();
    ac.abort();
    const enc = createTransformersEncoder({ extractor: fakeExtractor(calls), meta: META, backend: 'wasm' });
    await expect(enc.embed(['a'], ac.signal)).rejects.toMatchObject({ code: 'ABORTED' });
    expect(calls).toEqual([]);
  });

  it('re-runs a failed batch once on a replaced pipeline when onBatchError says so', async () => {
    const first = fakeExtractor([], { failFirst: 1 });
    const calls: string[][] = [];
    const second = fakeExtractor(calls);
    const enc = createTransformersEncoder({
      extractor: first,
      meta: META,
      backend: 'webgpu',
      onBatchError: async () => {
        enc.replaceExtractor(second, 'wasm');
        return true;
      },
    });
    const out = await enc.embed(['abc']);
    expect(out).toHaveLength(1);
    expect(calls).toEqual([['d: abc']]);
    expect(enc.info().backend).toBe('wasm');
    expect(first.disposed).toBe(1);
    // without a handler the failure is reported as it is
    const bare = createTransformersEncoder({ extractor: fakeExtractor([], { failFirst: 1 }), meta: META, backend: 'wasm' });
    await expect(bare.embed(['abc'])).rejects.toThrow('device lost');
  });

  it("reports the model's id and dimension", () => {
    const enc = createTransformersEncoder({ extractor: fakeExtractor([]), meta: MINILM, backend: 'wasm' });
    expect(enc.info()).toEqual({ id: 'all-MiniLM-L6-v2-int8', name: 'all-MiniLM-L6-v2 (int8)', dim: 384, backend: 'wasm', maxInputChars: MAX_EMBED_CHARS });
  });
});

describe('planBatches', () => {
  it('cuts the sorted texts at the batch size and at the padded-token budget', () => {
    // counts: 10, 30, 10, 12, 40, 11 -> sorted 0 (10), 2 (10), 5 (11), 3 (12), 1 (30), 4 (40)
    const counts = [10, 30, 10, 12, 40, 11];
    expect(planBatches(counts, 3, 1000)).toEqual([[0, 2, 5], [3, 1, 4]]);
    // budget 60: [0, 2, 5] pads to 3 x 11 = 33; adding 3 (12) would be 4 x 12 = 48, still in;
    // then 1 (30): 5 x 30 > 60 -> new batch; [1] + 4 (40): 2 x 40 = 80 > 60 -> alone
    expect(planBatches(counts, 8, 60)).toEqual([[0, 2, 5, 3], [1], [4]]);
    // one text longer than the budget still goes, alone
    expect(planBatches([500], 32, 100)).toEqual([[0]]);
    expect(planBatches([], 32, 100)).toEqual([]);
  });

  it('keeps equal counts in input order (a stable plan)', () => {
    expect(planBatches([7, 7, 7, 7], 2, 1000)).toEqual([[0, 1], [2, 3]]);
  });
});

describe('tokenCounts', () => {
  it("uses the pipeline's tokenizer, capped at the window; characters without one", () => {
    const withTok = Object.assign(fakeExtractor([]), { tokenizer: { encode: (t: string) => new Array(t.length * 2).fill(0) } });
    expect(tokenCounts(withTok, ['ab', 'x'.repeat(400)], 512)).toEqual([4, 512]);
    expect(tokenCounts(fakeExtractor([]), ['ab', 'xyz'])).toEqual([2, 3]);
  });
});

describe('loadExtractor', () => {
  it('asks Transformers.js for the folder, device and dtype of the model', async () => {
    const seen: unknown[] = [];
    const tjs = { pipeline: async (...args: unknown[]) => (seen.push(args), fakeExtractor([])) };
    await loadExtractor(tjs, MINILM, 'auto', ['wasm']);
    expect(seen).toEqual([['feature-extraction', 'all-MiniLM-L6-v2-int8', { device: 'auto', dtype: 'q8', session_options: { executionProviders: ['wasm'] } }]]);
  });

  it('wraps a load failure as MODEL_LOAD_FAILED and refuses a tfjs model', async () => {
    const tjs = { pipeline: async () => Promise.reject(new Error('404 config.json')) };
    const err = await loadExtractor(tjs, MINILM, 'wasm').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'MODEL_LOAD_FAILED' });
    expect((err as AppError).detail).toMatch(/404 config.json/);
    await expect(loadExtractor(tjs, encoderMeta('use-lite')!, 'wasm')).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED' });
  });
});

describe('keepSepWhenTruncating', () => {
  // [CLS]=101, [SEP]=102, window 4: a row cut by the tokenizer ends on a word, not on [SEP]
  function fakePipe() {
    const calls: unknown[] = [];
    const tokenizer = Object.assign(
      (texts: string[], options: Record<string, unknown>) => {
        calls.push(options);
        return {
          // row 0: cut ([CLS] 7 8 9); row 1: short, padded ([CLS] 7 [SEP] 0)
          input_ids: { data: BigInt64Array.from([101n, 7n, 8n, 9n, 101n, 7n, 102n, 0n]), dims: [texts.length, 4] },
          attention_mask: { data: BigInt64Array.from([1n, 1n, 1n, 1n, 1n, 1n, 1n, 0n]), dims: [texts.length, 4] },
        };
      },
      { sep_token_id: 102, model_max_length: 4 },
    );
    return { pipe: { tokenizer }, calls };
  }

  it('puts [SEP] back in the last place of a row the window cut, and leaves other rows alone', () => {
    const { pipe, calls } = fakePipe();
    keepSepWhenTruncating(pipe);
    const out = pipe.tokenizer(['long', 'short'], { padding: true, truncation: true });
    expect(Array.from(out.input_ids.data)).toEqual([101n, 7n, 8n, 102n, 101n, 7n, 102n, 0n]);
    expect(calls).toEqual([{ padding: true, truncation: true }]);
    // still reads as the tokenizer it wraps
    expect(pipe.tokenizer.sep_token_id).toBe(102);
  });

  it('changes nothing without truncation', () => {
    const { pipe } = fakePipe();
    keepSepWhenTruncating(pipe);
    expect(Array.from(pipe.tokenizer(['long', 'short'], { padding: true }).input_ids.data)).toEqual([101n, 7n, 8n, 9n, 101n, 7n, 102n, 0n]);
  });
});

describe('encoder metadata', () => {
  it('finds encoders by id and alias, and applies prefixes by role', () => {
    expect(encoderMeta('minilm')?.dim).toBe(384);
    expect(encoderMeta('use-lite-en/v1')?.dim).toBe(512);
    expect(encoderMeta('bge')).toBeUndefined();
    expect(withPrefix({ queryPrefix: 'query: ', documentPrefix: 'passage: ' }, 'x', 'query')).toBe('query: x');
    expect(withPrefix({ queryPrefix: 'query: ', documentPrefix: 'passage: ' }, 'x', 'document')).toBe('passage: x');
    expect(withPrefix(MINILM, 'x', 'query')).toBe('x');
  });
});

describe('onEncoderScale', () => {
  it("moves a USE-lite threshold to MiniLM's scale between the measured knots, and leaves USE-lite's alone", () => {
    expect(onEncoderScale(MINILM, 0.72)).toBeCloseTo(0.587, 6);
    expect(onEncoderScale(MINILM, 0.3)).toBeCloseTo(0.145, 6);
    // halfway between the knots 0.3 -> 0.145 and 0.4 -> 0.215
    expect(onEncoderScale(MINILM, 0.35)).toBeCloseTo(0.18, 6);
    expect(onEncoderScale(MINILM, 1)).toBe(1);
    expect(onEncoderScale(MINILM, 2)).toBe(1);
    expect(onEncoderScale(USE_LITE, 0.72)).toBe(0.72);
  });

  it('keeps the order of thresholds (the knots rise)', () => {
    const xs = Array.from({ length: 201 }, (_, i) => -1 + i / 100);
    const ys = xs.map((x) => onEncoderScale(MINILM, x));
    for (let i = 1; i < ys.length; i++) expect(ys[i]).toBeGreaterThanOrEqual(ys[i - 1]);
  });
});
