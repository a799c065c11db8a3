// The matrix MaxSim reads from a model's raw token output (shared by the eval in Node and the embed
// worker): special tokens and a speaker label dropped; one model call per text, no padding.
import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import { tokenMatricesOf, tokenMatrixOf, type TokenExtractor } from './token-matrix';

describe('tokenMatrixOf', () => {
  it('drops [CLS] / [SEP] and, for a labelled turn, the label and its colon', () => {
    // [CLS] caroline : hi there [SEP], one value per token
    const m = tokenMatrixOf('Caroline: hi there', [101, 5, 1024, 7, 8, 102], new Float32Array([0, 1, 2, 3, 4, 5]), 1);
    expect(Array.from(m.ids)).toEqual([7, 8]);
    expect(Array.from(m.vectors)).toEqual([3, 4]);
    expect(m.dim).toBe(1);
  });
  it('keeps a colon that is not a label (lower case), rows of two values', () => {
    const m = tokenMatrixOf('note: hi', [101, 9, 1024, 7, 102], new Float32Array([0, 0, 1, 1, 2, 2, 3, 3, 4, 4]), 2);
    expect(Array.from(m.ids)).toEqual([9, 1024, 7]);
    expect(Array.from(m.vectors)).toEqual([1, 1, 2, 2, 3, 3]);
  });
});

/** A fake pipeline: token i of a text is its i-th character code; hidden state row = [code, 10 x code]. */
function fakeExtractor(calls: string[][]): TokenExtractor {
  const idsOf = (t: string) => [101, ...Array.from(t, (c) => c.charCodeAt(0)), 102];
  const fe = (async (texts: string[]) => {
    calls.push(texts);
    const ids = idsOf(texts[0]);
    return { data: Float32Array.from(ids.flatMap((v) => [v, 10 * v])), dims: [1, ids.length, 2] };
  }) as unknown as TokenExtractor;
  fe.tokenizer = (t) => ({ input_ids: { data: idsOf(t).map(BigInt) } });
  return fe;
}

describe('tokenMatricesOf', () => {
  it('runs each text alone and keeps its non-special rows (ids from the tokenizer)', async () => {
    const calls: string[][] = [];
    const [a, b] = await tokenMatricesOf(fakeExtractor(calls), ['ab', 'c'], 2);
    expect(calls).toEqual([['ab'], ['c']]); // never batched: no padding to a longer text
    expect(Array.from(a.ids)).toEqual([97, 98]);
    expect(Array.from(a.vectors)).toEqual([97, 970, 98, 980]);
    expect(Array.from(b.vectors)).toEqual([99, 990]);
  });
  it('idsOnly: the tokenizer alone (no model call), the same ids, no vectors', async () => {
    const calls: string[][] = [];
    const [a] = await tokenMatricesOf(fakeExtractor(calls), ['ab'], 2, undefined, true);
    expect(calls).toEqual([]);
    expect([Array.from(a.ids), a.vectors.length, a.dim]).toEqual([[97, 98], 0, 2]);
  });
  it('refuses a wrong width and an aborted signal (AppError codes)', async () => {
    await expect(tokenMatricesOf(fakeExtractor([]), ['ab'], 3)).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED' });
    const ac = new AbortController();
    ac.abort();
    await expect(tokenMatricesOf(fakeExtractor([]), ['ab'], 2, ac.signal)).rejects.toBeInstanceOf(AppError);
  });
});
