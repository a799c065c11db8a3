import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { fuseRRF, fuseWeighted, idfCoverage, minMaxNormalize } from './fusion';

const lex = [
  { id: 'a', score: 10 },
  { id: 'b', score: 5 },
  { id: 'c', score: 0 },
];
const dense = [
  { id: 'b', score: 0.9 },
  { id: 'd', score: 0.5 },
];

describe('minMaxNormalize', () => {
  it('maps to [0, 1]', () => {
    expect(minMaxNormalize([10, 5, 0])).toEqual([1, 0.5, 0]);
  });
  it('never divides by zero: all-equal -> 1 if positive, else 0', () => {
    expect(minMaxNormalize([])).toEqual([]);
    expect(minMaxNormalize([3])).toEqual([1]);
    expect(minMaxNormalize([2, 2])).toEqual([1, 1]);
    expect(minMaxNormalize([0, 0])).toEqual([0, 0]);
    expect(minMaxNormalize([-1, -1])).toEqual([0, 0]);
  });
});

describe('fuseWeighted', () => {
  it('fuses by hand: 0.6 * minmax(lex) + 0.4 * minmax(dense)', () => {
    // lex: a 1, b 0.5, c 0; dense: b 1, d 0 -> a 0.6, b 0.3 + 0.4 = 0.7, c 0, d 0
    const out = fuseWeighted([lex, dense], [0.6, 0.4]);
    expect(out.map((f) => f.id)).toEqual(['b', 'a', 'c', 'd']);
    expect(out[0].score).toBeCloseTo(0.7, 12);
    expect(out[0].contributions[0]).toBeCloseTo(0.3, 12);
    expect(out[0].contributions[1]).toBeCloseTo(0.4, 12);
    expect(out[1]).toEqual({ id: 'a', score: 0.6, contributions: [0.6, 0] });
  });

  it('contributions sum to the score', () => {
    for (const f of fuseWeighted([lex, dense], [0.3, 0.7])) {
      expect(f.contributions.reduce((a, b) => a + b, 0)).toBeCloseTo(f.score, 12);
    }
  });

  it('is safe on empty, single-item, all-equal and zero-score lists', () => {
    expect(fuseWeighted([])).toEqual([]);
    expect(fuseWeighted([[], []])).toEqual([]);
    expect(fuseWeighted([[{ id: 'x', score: 4 }], []], [0.5, 0.5])).toEqual([{ id: 'x', score: 0.5, contributions: [0.5, 0] }]);
    const zeros = fuseWeighted([[{ id: 'x', score: 0 }, { id: 'y', score: 0 }]]);
    expect(zeros.map((f) => [f.id, f.score])).toEqual([['x', 0], ['y', 0]]);
    for (const f of fuseWeighted([[{ id: 'x', score: 2 }, { id: 'y', score: 2 }], dense])) expect(Number.isNaN(f.score)).toBe(false);
  });

  it('drops non-finite scores and keeps the best duplicate', () => {
    const out = fuseWeighted([[{ id: 'x', score: Number.NaN }, { id: 'y', score: 1 }, { id: 'y', score: 3 }, { id: 'z', score: 1 }]]);
    expect(out.map((f) => [f.id, f.score])).toEqual([['y', 1], ['z', 0]]);
  });

  it('limit keeps the best items only', () => {
    expect(fuseWeighted([lex, dense], [0.6, 0.4], { limit: 2 }).map((f) => f.id)).toEqual(['b', 'a']);
  });

  it('rejects negative or non-finite weights', () => {
    expect(() => fuseWeighted([lex], [-1])).toThrow(AppError);
    expect(() => fuseWeighted([lex], [Number.NaN])).toThrow(/finite/);
  });
});

describe('idfCoverage', () => {
  it('is the share of the query idf mass, to a power, in [0, 1]', () => {
    expect(idfCoverage(1, 4)).toBe(0.25);
    expect(idfCoverage(1, 4, 2)).toBe(0.0625);
    expect(idfCoverage(4, 4, 1.5)).toBe(1);
    expect(idfCoverage(5, 4)).toBe(1); // rounding can not make a memory cover more than the query
  });
  it('is 0 with nothing matched or an empty query (never NaN)', () => {
    expect(idfCoverage(0, 4)).toBe(0);
    expect(idfCoverage(0, 0)).toBe(0);
    expect(idfCoverage(1, 0)).toBe(0);
  });
});

describe('fuseWeighted with an absolute list', () => {
  it("'none' keeps a list's scores as given: a weak best match stays weak", () => {
    // list 0 as is: a 0.2, b 0.1; dense min-max: b 1, d 0 -> b 0.5 * 0.1 + 0.5 = 0.55, a 0.1, d 0
    const out = fuseWeighted(
      [
        [{ id: 'a', score: 0.2 }, { id: 'b', score: 0.1 }],
        [{ id: 'b', score: 0.9 }, { id: 'd', score: 0.5 }],
      ],
      [0.5, 0.5],
      { normalise: ['none', 'minmax'] },
    );
    expect(out.map((f) => f.id)).toEqual(['b', 'a', 'd']);
    expect(out[0].score).toBeCloseTo(0.55, 12);
    expect(out[1].score).toBeCloseTo(0.1, 12);
    // min-max would have given a 0.5 and b 0.5 + 0 (b is list 0's minimum)
    expect(fuseWeighted([[{ id: 'a', score: 0.2 }, { id: 'b', score: 0.1 }], dense], [0.5, 0.5])[0].score).toBe(0.5);
  });
});

describe('fuseRRF', () => {
  it('fuses by hand with k = 60', () => {
    // ranks: lex a1 b2 c3; dense b1 d2
    const out = fuseRRF([lex, dense]);
    expect(out.map((f) => f.id)).toEqual(['b', 'a', 'd', 'c']);
    expect(out[0].score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(out[0].contributions).toEqual([1 / 62, 1 / 61]);
    expect(out[2].score).toBeCloseTo(1 / 62, 12);
    expect(out[3].score).toBeCloseTo(1 / 63, 12);
  });

  it('applies weights and a custom k', () => {
    const out = fuseRRF([lex, dense], { k: 0, weights: [2, 1] });
    // a: 2/1; b: 2/2 + 1/1 = 2 -> tie, id asc
    expect(out.slice(0, 2).map((f) => [f.id, f.score])).toEqual([['a', 2], ['b', 2]]);
  });

  it('ranks by score, not by input order, and is safe on empty lists', () => {
    const out = fuseRRF([[{ id: 'low', score: 1 }, { id: 'high', score: 9 }]]);
    expect(out.map((f) => f.id)).toEqual(['high', 'low']);
    expect(fuseRRF([])).toEqual([]);
    expect(fuseRRF([[]])).toEqual([]);
  });

  it('rejects a bad k', () => {
    expect(() => fuseRRF([lex], { k: -1 })).toThrow(AppError);
    expect(() => fuseRRF([lex], { k: Number.POSITIVE_INFINITY })).toThrow(AppError);
  });
});
