// The judge stage: score' = (score + w·max(0, cos)) / (1 + w) over the top `depth`, score / (1 + w)
// below; values worked by hand.
import { describe, expect, it } from 'vitest';
import type { ScoredHit } from '../types';
import { cosine, judgeRerank } from './judge';

const hit = (id: string, score: number): ScoredHit => ({ id, score, mode: 'standard', why: { lexical: 0, semantic: 0, bm25: 0, cosine: 0, matchedTerms: [] } });
const vectors: Record<string, number[]> = { a: [0, 1], b: [1, 0], c: [1, 0], n: [-1, 0] };
const of = (id: string) => vectors[id];

describe('cosine', () => {
  it('is the dot product over the norms: [3,4]·[4,3] = 24 / 25', () => {
    expect(cosine([3, 4], [4, 3])).toBeCloseTo(0.96, 12);
  });
  it('is 0 for a zero vector or different lengths', () => {
    expect(cosine([0, 0], [1, 0])).toBe(0);
    expect(cosine([1, 0, 0], [1, 0])).toBe(0);
  });
});

describe('judgeRerank', () => {
  const hits = [hit('a', 0.6), hit('b', 0.5), hit('c', 0.4)];
  it('re-orders the top depth by (score + w·cos) / (1 + w); below the depth only scaled', () => {
    const out = judgeRerank(hits, [1, 0], of, { depth: 2, weight: 1 });
    // a: (0.6 + 0) / 2 = 0.30; b: (0.5 + 1) / 2 = 0.75; c (rank 3, not read): 0.4 / 2 = 0.20
    expect(out.map((h) => h.id)).toEqual(['b', 'a', 'c']);
    expect(out.map((h) => h.score)).toEqual([0.75, 0.3, 0.2]);
  });
  it('a candidate below the depth stays below even when the judge would prefer it', () => {
    // only a is read: (0.6 + 0) / 2 = 0.30 stays above b (0.5 / 2 = 0.25) although the judge prefers b
    const out = judgeRerank(hits, [1, 0], of, { depth: 1, weight: 1 });
    expect(out.map((h) => h.id)).toEqual(['a', 'b', 'c']);
    expect(out[0].score).toBeCloseTo(0.3, 12);
    expect(out[1].score).toBeCloseTo(0.25, 12);
  });
  it('clamps a negative cosine at 0 and leaves a hit without a judge vector unjudged', () => {
    const out = judgeRerank([hit('n', 0.6), hit('x', 0.5)], [1, 0], of, { depth: 2, weight: 3 });
    // n: (0.6 + 3·max(0, −1)) / 4 = 0.15; x (no vector): 0.5 / 4 = 0.125
    expect(out.map((h) => [h.id, h.score])).toEqual([
      ['n', 0.15],
      ['x', 0.125],
    ]);
  });
  it('ties go to the smaller id, as everywhere in the ranking', () => {
    const out = judgeRerank([hit('c', 0.5), hit('b', 0.5)], [1, 0], of, { depth: 2, weight: 1 });
    expect(out.map((h) => h.id)).toEqual(['b', 'c']);
  });
  it('weight 0, depth 0 or no query vector is a no-op (the same array)', () => {
    expect(judgeRerank(hits, [1, 0], of, { depth: 30, weight: 0 })).toBe(hits);
    expect(judgeRerank(hits, [1, 0], of, { depth: 0, weight: 1 })).toBe(hits);
    expect(judgeRerank(hits, undefined, of, { depth: 30, weight: 1 })).toBe(hits);
  });
});
