// The matrix MaxSim reads from a model's raw token output: special tokens and a speaker label dropped.
import { describe, expect, it } from 'vitest';
import { tokenMatrixOf } from './token-cache';

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
