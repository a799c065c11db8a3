// The wrapper's batching, ordering, retry and disposal with a fake tfjs and a fake graph model,
// so the logic is checked without the real weights (scripts/lib/node-encoder.test.ts runs those).
import type { GraphModel } from '@tensorflow/tfjs-converter';
import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import type { Vocabulary } from '../core/tokenizer';
import { createUseLiteEncoder, type Tfjs } from './use-lite';
import { USE_LITE_MAX_TOKENS } from './types';

interface FakeTensor {
  shape: number[];
  values: Int32Array | Float32Array;
  disposed: boolean;
  data(): Promise<Int32Array | Float32Array>;
  dispose(): void;
}
const live = new Set<FakeTensor>();
function tensor(values: Int32Array | Float32Array, shape: number[]): FakeTensor {
  const t: FakeTensor = {
    shape,
    values,
    disposed: false,
    data: async () => values,
    dispose: () => {
      t.disposed = true;
      live.delete(t);
    },
  };
  live.add(t);
  return t;
}
const fakeTf = {
  tensor2d: (v: Int32Array, shape: number[]) => tensor(v, shape),
  tensor1d: (v: Int32Array) => tensor(v, [v.length]),
} as unknown as Tfjs;

// Row r of the output is [tokens in row r, 1, 0, ...] (before normalisation), so each vector
// says how many tokens its text had; calls records the batch sizes.
function fakeModel(calls: number[], failFirst = 0): GraphModel {
  let failures = failFirst;
  return {
    executeAsync: async ({ indices }: { indices: FakeTensor }) => {
      if (failures > 0) {
        failures--;
        throw new Error('device lost');
      }
      const idx = indices.values;
      const rows = idx.length ? Math.max(...Array.from(idx.filter((_, i) => i % 2 === 0))) + 1 : 0;
      calls.push(rows);
      const out = new Float32Array(rows * 512);
      for (let k = 0; k < idx.length; k += 2) out[idx[k] * 512] += 1;
      for (let r = 0; r < rows; r++) out[r * 512 + 1] = 1;
      return tensor(out, [rows, 512]);
    },
    dispose: () => undefined,
  } as unknown as GraphModel;
}

// "▁a" is one token, so "a a a" is three. "▁" and "a" exist (with worse scores) so that every
// position is reachable: the reference Viterbi lets an unreached position (best 0) win.
const vocabulary: Vocabulary = [
  ['\ufffd', 0], ['<s>', 0], ['</s>', 0], ['e1', 0], ['e2', 0], ['e3', 0],
  ['▁a', -1], ['▁', -5], ['a', -5],
];
const tokensOf = (v: Float32Array) => Math.round(v[0] / v[1]);

describe('createUseLiteEncoder', () => {
  it('batches by length, restores input order, normalises and disposes every tensor', async () => {
    const calls: number[] = [];
    const enc = createUseLiteEncoder({ tf: fakeTf, model: fakeModel(calls), vocabulary, backend: 'cpu', batchSize: 2 });
    const texts = ['a a a', 'a', 'a a a a a', 'a a'];
    const vs = await enc.embed(texts);
    expect(vs.map(tokensOf)).toEqual([3, 1, 5, 2]);
    expect(calls).toEqual([2, 2]); // sorted (1,2) then (3,5)
    // [n, 1] normalised: n/sqrt(n^2+1)
    expect(vs[0][0]).toBeCloseTo(3 / Math.sqrt(10), 6);
    expect(live.size).toBe(0);
  });

  it('caps a text at the model window of 128 tokens', async () => {
    const enc = createUseLiteEncoder({ tf: fakeTf, model: fakeModel([]), vocabulary, backend: 'cpu' });
    const [v] = await enc.embed([Array(300).fill('a').join(' ')]);
    expect(tokensOf(v)).toBe(USE_LITE_MAX_TOKENS);
  });

  it('re-runs the failed batch once after onBatchError swaps the model', async () => {
    const calls: number[] = [];
    const swaps: string[] = [];
    const enc = createUseLiteEncoder({
      tf: fakeTf,
      model: fakeModel([], 1),
      vocabulary,
      backend: 'webgpu',
      onBatchError: async (e) => {
        swaps.push((e as Error).message);
        enc.replaceModel(fakeModel(calls), 'wasm');
        return true;
      },
    });
    const vs = await enc.embed(['a', 'a a']);
    expect(vs.map(tokensOf)).toEqual([1, 2]);
    expect(swaps).toEqual(['device lost']);
    expect(enc.info().backend).toBe('wasm');
    expect(calls).toEqual([2]);
    expect(live.size).toBe(0);
  });

  it('rejects when no fallback is offered, and never retries bad input', async () => {
    let asked = 0;
    const enc = createUseLiteEncoder({
      tf: fakeTf,
      model: fakeModel([], 5),
      vocabulary,
      backend: 'webgpu',
      onBatchError: async () => (asked++, false),
    });
    await expect(enc.embed(['a'])).rejects.toThrow('device lost');
    await expect(enc.embed([''])).rejects.toMatchObject({ code: 'EMPTY_TEXT' });
    await expect(enc.embed([42 as unknown as string])).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    expect(asked).toBe(1);
    expect(live.size).toBe(0);
  });

  it('checks the signal between batches', async () => {
    const ac = new AbortController();
    const calls: number[] = [];
    const model = fakeModel(calls);
    const exec = model.executeAsync.bind(model);
    (model as { executeAsync: unknown }).executeAsync = async (x: never) => {
      const r = await exec(x);
      ac.abort(); // abort after the first batch has run
      return r;
    };
    const enc = createUseLiteEncoder({ tf: fakeTf, model, vocabulary, backend: 'cpu', batchSize: 1 });
    const err = await enc.embed(['a', 'a a', 'a a a'], ac.signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('ABORTED');
    expect(calls).toEqual([1]);
  });
});
