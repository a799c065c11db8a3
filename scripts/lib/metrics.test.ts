import { describe, expect, it } from 'vitest';
import { mean, median, mrrAt, ndcgAt, percentile, recallAt, top1At } from './metrics';

describe('ranking metrics @k', () => {
  const ranked = ['x', 'a', 'y', 'b', 'z'];

  it('recall counts relevant ids found in the top k', () => {
    expect(recallAt(ranked, ['a', 'b', 'c'], 10)).toBeCloseTo(2 / 3, 12);
    expect(recallAt(ranked, ['a', 'b', 'c'], 2)).toBeCloseTo(1 / 3, 12);
    expect(recallAt(['a', 'a'], ['a', 'b'], 10)).toBe(0.5); // duplicates credited once
    expect(recallAt(ranked, [], 10)).toBe(0);
  });

  it('nDCG with binary gains, by hand', () => {
    // hits at ranks 2 and 4: DCG = 1/log2(3) + 1/log2(5); ideal (2 relevant... of 3): ranks 1..3
    const dcg = 1 / Math.log2(3) + 1 / Math.log2(5);
    const idcg = 1 + 1 / Math.log2(3) + 1 / Math.log2(4);
    expect(ndcgAt(ranked, ['a', 'b', 'c'], 10)).toBeCloseTo(dcg / idcg, 12);
    // the ideal is cut at k: with k = 2 only ranks 1..2 count
    expect(ndcgAt(ranked, ['a', 'b', 'c'], 2)).toBeCloseTo(1 / Math.log2(3) / (1 + 1 / Math.log2(3)), 12);
    expect(ndcgAt(['a'], ['a'], 10)).toBe(1);
  });

  it('MRR is 1 / rank of the first hit within k', () => {
    expect(mrrAt(ranked, ['b', 'a'], 10)).toBe(0.5);
    expect(mrrAt(ranked, ['z'], 4)).toBe(0);
    expect(mrrAt(ranked, ['z'], 5)).toBe(0.2);
  });
});

describe('summary statistics', () => {
  it('mean, median, nearest-rank percentile', () => {
    expect(mean([])).toBe(0);
    expect(mean([1, 2, 6])).toBe(3);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(percentile([], 95)).toBe(0);
    const xs = Array.from({ length: 20 }, (_, i) => 20 - i); // 1..20
    expect(percentile(xs, 95)).toBe(19); // ceil(0.95 * 20) = 19th smallest
    expect(percentile(xs, 100)).toBe(20);
    expect(percentile([7], 95)).toBe(7);
  });
});

describe('top1At', () => {
  it('is 1 only when the first result is relevant', () => {
    expect(top1At(['a', 'b'], ['a'])).toBe(1);
    expect(top1At(['b', 'a'], ['a'])).toBe(0);
    expect(top1At([], ['a'])).toBe(0);
  });
});
