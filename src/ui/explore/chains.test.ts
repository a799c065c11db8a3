import { describe, expect, it } from 'vitest';
import { chainBudget, keepChains, stepsClose } from './chains';

const direct = (id: string, score = 1) => ({ id, mode: 'standard', score });
const assoc = (id: string, score: number, cosines: number[]) => ({
  id,
  mode: 'associative',
  score,
  // hop 0 is the direct hit (its cosine is to the query), then one entry per step
  chain: cosines.map((cosine, hop) => ({ hop, cosine })),
});

describe('which chains are worth showing', () => {
  it('every step after the direct hit must be at least 0.73 (the first link is to the query and may be low)', () => {
    expect(stepsClose(assoc('a', 0.5, [0.3, 0.8, 0.73]))).toBe(true);
    expect(stepsClose(assoc('a', 0.5, [0.9, 0.8, 0.729]))).toBe(false);
    expect(stepsClose(assoc('a', 0.5, [0.9, Number.NaN]))).toBe(false);
    // steps out of order are sorted by hop first
    expect(stepsClose({ mode: 'associative', score: 1, chain: [{ hop: 1, cosine: 0.8 }, { hop: 0, cosine: 0.1 }] })).toBe(true);
  });

  it('at most half as many associative results as direct hits (rounded up), never more than 6', () => {
    expect([0, 1, 2, 5, 6, 20].map((n) => chainBudget(n))).toEqual([0, 1, 1, 3, 3, 6]);
  });

  it('keeps the best close chains within the budget and counts the rest as hidden', () => {
    // 4 direct hits -> budget 2; c (0.76 step) and e kept; d (best score) has a weak step; f is third best
    const results = [
      direct('s1'),
      direct('s2'),
      { id: 'l1', mode: 'lateral', score: 0.4 },
      direct('s3'),
      assoc('c', 0.6, [0.5, 0.76]),
      assoc('d', 0.9, [0.5, 0.72]),
      assoc('e', 0.55, [0.5, 0.8, 0.79]),
      assoc('f', 0.2, [0.5, 0.9]),
    ];
    const { kept, hidden } = keepChains(results);
    expect(kept.map((r) => r.id)).toEqual(['s1', 's2', 'l1', 's3', 'c', 'e']); // order of the recall kept
    expect(hidden).toBe(2);
  });

  it('without chains nothing changes', () => {
    const results = [direct('a'), direct('b')];
    expect(keepChains(results)).toEqual({ kept: results, hidden: 0 });
  });
});
