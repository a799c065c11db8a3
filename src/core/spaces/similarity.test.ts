// The five similarity functions against hand-computed values, and their edge cases.
import { describe, expect, it, vi } from 'vitest';
import {
  containmentSparse,
  cosine,
  cosineSparse,
  entitySimilarity,
  hamming,
  jaccard,
  maxsim,
  setContainment,
  similarity,
  transe,
} from './similarity';
import { sparseFromEntries, tokenMatrix, type EntityFeatures } from './vectors';

const f32 = (...v: number[]) => new Float32Array(v);

describe('cosine', () => {
  it('hand values', () => {
    expect(cosine(f32(1, 0, 0), f32(0, 1, 0))).toBe(0);
    // [1,2,2]·[2,0,1] = 4; |a| = 3, |b| = sqrt 5 -> 4 / (3 sqrt 5) = 0.596285
    expect(cosine(f32(1, 2, 2), f32(2, 0, 1))).toBeCloseTo(4 / (3 * Math.sqrt(5)), 6);
    expect(cosine(f32(1, 1), f32(-1, -1))).toBeCloseTo(-1, 6);
  });
  it('EC-P3-01: NaN / Infinity -> 0 with a warning naming the space', () => {
    const warn = vi.fn();
    expect(cosine(f32(NaN, 1), f32(1, 1), { space: 'E1', warn })).toBe(0);
    expect(cosine(f32(Infinity, 1), f32(1, 1), { space: 'E5', warn })).toBe(0);
    expect(warn.mock.calls.map((c) => c[0])).toEqual(['Invalid embedding value in E1 (Semantic)', 'Invalid embedding value in E5 (Causal)']);
  });
  it('ERR-P3-01: zero vector -> 0, logs division by zero', () => {
    const warn = vi.fn();
    expect(cosine(f32(0, 0), f32(1, 0), { space: 'E8', warn })).toBe(0);
    expect(warn.mock.calls[0][0]).toMatch(/^Similarity computation failed: division by zero in E8 \(Emotional\)/);
  });
  it('length mismatch -> 0', () => {
    expect(cosine(f32(1), f32(1, 0), { warn: () => {} })).toBe(0);
  });
});

describe('jaccard (weighted)', () => {
  it('weighted: sum min / sum max', () => {
    // a: x 2, y 1; b: x 1, z 3 -> min: x 1 = 1; max: x 2 + y 1 + z 3 = 6
    expect(jaccard({ x: 2, y: 1 }, { x: 1, z: 3 })).toBeCloseTo(1 / 6, 10);
    const a = sparseFromEntries([[5, 2], [1, 1]]);
    const b = sparseFromEntries([[5, 1], [9, 3]]);
    expect(Array.from(a.indices)).toEqual([1, 5]);
    expect(jaccard(a, b)).toBeCloseTo(1 / 6, 6);
    expect(jaccard(a, a)).toBe(1);
  });
  it('EC-P3-05: empty sparse vector -> 0, no warning', () => {
    const warn = vi.fn();
    const empty = sparseFromEntries([]);
    expect(jaccard(empty, sparseFromEntries([[1, 1]]), { warn })).toBe(0);
    expect(jaccard(empty, empty, { warn })).toBe(0);
    expect(jaccard({}, { a: 1 }, { warn })).toBe(0);
    expect(warn).not.toHaveBeenCalled();
  });
  it('NaN weights -> 0 with warning', () => {
    const warn = vi.fn();
    expect(jaccard(sparseFromEntries([[1, NaN]]), sparseFromEntries([[1, 1]]), { space: 'E6', warn })).toBe(0);
    expect(warn).toHaveBeenCalledWith('Invalid embedding value in E6 (Sparse)');
  });
});

describe('hamming', () => {
  it('1 - differing bits / total bits', () => {
    // 0b11110000 vs 0b11000000: 2 of 8 bits differ; second byte equal -> 1 - 2/16
    expect(hamming(new Uint8Array([0xf0, 0x0f]), new Uint8Array([0xc0, 0x0f]))).toBeCloseTo(0.875, 10);
    expect(hamming(new Uint8Array([0x00]), new Uint8Array([0xff]))).toBe(0);
    expect(hamming(new Uint8Array([0xaa]), new Uint8Array([0xaa]))).toBe(1);
  });
  it('different lengths -> 0 with warning', () => {
    const warn = vi.fn();
    expect(hamming(new Uint8Array(2), new Uint8Array(3), { warn })).toBe(0);
    expect(warn).toHaveBeenCalled();
  });
});

describe('maxsim', () => {
  it('mean over the shorter side of the best cosine in the longer (EC-P3-06)', () => {
    const q = [[1, 0], [0, 1]];
    const d = [[1, 0], [1, 1], [-1, 0]];
    // q0 best = 1 ([1,0]); q1 best = cos([0,1],[1,1]) = 1/sqrt2 -> (1 + 0.70711)/2
    const expected = (1 + Math.SQRT1_2) / 2;
    expect(maxsim(q, d)).toBeCloseTo(expected, 6);
    // symmetric: the 2-token side is always the outer loop
    expect(maxsim(d, q)).toBeCloseTo(expected, 6);
    expect(maxsim(tokenMatrix(q), tokenMatrix(d))).toBeCloseTo(expected, 6);
  });
  it('one token vs many: best match only', () => {
    expect(maxsim([[0, 2]], [[1, 0], [0, 5], [3, 3]])).toBeCloseTo(1, 6);
  });
  it('empty side -> 0; NaN -> 0 with warning', () => {
    expect(maxsim([], [[1, 0]])).toBe(0);
    const warn = vi.fn();
    expect(maxsim([[NaN, 0]], [[1, 0]], { space: 'E12', warn })).toBe(0);
    expect(warn).toHaveBeenCalledWith('Invalid embedding value in E12 (LateInteract)');
  });
});

describe('transe', () => {
  it('perfect translation -> 1', () => {
    expect(transe([1, 0], [0, 1], [1, 1])).toBeCloseTo(1, 10);
  });
  it('hand value: miss ||h + r - t|| / (||h|| + ||t||)', () => {
    // h=[1,0], r=[0,0], t=[0,1]: miss = sqrt 2; denom = 2 -> 1 - 0.70711
    expect(transe([1, 0], [0, 0], [0, 1])).toBeCloseTo(1 - Math.SQRT2 / 2, 6);
    // a miss larger than both entities -> clamped to 0
    expect(transe([1, 0], [-5, 0], [1, 0])).toBe(0);
  });
  it('zero entities -> 0 (division by zero logged)', () => {
    const warn = vi.fn();
    expect(transe([0, 0], [1, 1], [0, 0], { warn })).toBe(0);
    expect(warn).toHaveBeenCalled();
  });
});

describe('entity similarity and dispatcher', () => {
  const ent = (ids: number[], triples: [number[], number[]][] = []): EntityFeatures => ({
    entities: Uint32Array.from(ids),
    triples: {
      count: triples.length,
      dim: 2,
      heads: Float32Array.from(triples.flatMap((t) => t[0])),
      tails: Float32Array.from(triples.flatMap((t) => t[1])),
      relations: new Uint32Array(triples.length),
    },
  });
  it('Jaccard over entity ids without triples', () => {
    expect(entitySimilarity(ent([1, 2, 3]), ent([2, 3, 4]))).toBeCloseTo(2 / 4, 10);
  });
  it('relation evidence raises the score: same translation -> 1', () => {
    // memory relation r = [0,1]-[1,0] = [-1,1]; query h=[2,0] t=[1,1]: h + r - t = 0
    const q = ent([7], [[[2, 0], [1, 1]]]);
    const m = ent([8], [[[1, 0], [0, 1]]]);
    expect(entitySimilarity(q, m)).toBeCloseTo(1, 6);
  });
  it('dispatcher picks the kind from the registry; absent side -> undefined', () => {
    expect(similarity(f32(1, 0), f32(1, 0), 'E1')).toBe(1);
    expect(similarity(sparseFromEntries([[1, 1], [2, 1]]), sparseFromEntries([[1, 1], [3, 1]]), 'E6')).toBeCloseTo(1 / 3, 6);
    // E7 is sparse cosine: 1 / (sqrt 2 * sqrt 2)
    expect(similarity(sparseFromEntries([[1, 1], [2, 1]]), sparseFromEntries([[1, 1], [3, 1]]), 'E7')).toBeCloseTo(1 / 2, 6);
    expect(similarity(new Uint8Array([0xff]), new Uint8Array([0x0f]), 'E9')).toBe(0.5);
    expect(similarity(tokenMatrix([[1, 0]]), tokenMatrix([[1, 0], [0, 1]]), 'E12')).toBe(1);
    expect(similarity(undefined, f32(1), 'E1')).toBeUndefined();
  });
});

describe('sparse cosine and containment', () => {
  const sp = (...e: [number, number][]) => sparseFromEntries(e);
  it('cosineSparse hand values', () => {
    // {1: 1, 2: 2} . {2: 1, 3: 2} = 2; |a| = |b| = sqrt 5 -> 2 / 5
    expect(cosineSparse(sp([1, 1], [2, 2]), sp([2, 1], [3, 2]))).toBeCloseTo(0.4, 6);
    expect(cosineSparse(sp([1, 3]), sp([1, 0.5]))).toBeCloseTo(1, 6); // scale-free
    expect(cosineSparse(sp([1, 1]), sp([2, 1]))).toBe(0);
    expect(cosineSparse(sp(), sp([1, 1]))).toBe(0);
    const warn = vi.fn();
    expect(cosineSparse(sp([1, NaN]), sp([1, 1]), { space: 'E7', warn })).toBe(0);
    expect(warn).toHaveBeenCalledWith('Invalid embedding value in E7 (Code)');
  });
  it('containmentSparse: the lighter side found in the other, symmetric', () => {
    const query = sp([1, 1], [2, 1], [3, 2]); // total 4
    const memory = sp([1, 0.3], [3, 0.2], [4, 5], [5, 5]); // total 10.5: holds terms 1 and 3
    expect(containmentSparse(query, memory)).toBeCloseTo(3 / 4, 6);
    expect(containmentSparse(memory, query)).toBeCloseTo(3 / 4, 6);
    expect(jaccard(query, memory)).toBeLessThan(0.05); // what Jaccard makes of the same pair
    expect(containmentSparse(sp([9, 1]), memory)).toBe(0);
    expect(containmentSparse(sp(), memory)).toBe(0);
  });
  it('setContainment = |A ∩ B| / min(|A|, |B|)', () => {
    expect(setContainment(Uint32Array.from([1, 2]), Uint32Array.from([2, 3, 4]))).toBe(1 / 2);
    expect(setContainment(Uint32Array.from([2]), Uint32Array.from([2, 3, 4]))).toBe(1);
    expect(setContainment(Uint32Array.from([]), Uint32Array.from([2]))).toBe(0);
  });
});
