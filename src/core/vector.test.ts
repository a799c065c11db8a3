import { describe, expect, it } from 'vitest';
import { cosine, dot, dotRow, isFiniteVector, norm, normalize, unitL2Distance } from './vector';

const v = (...xs: number[]) => Float32Array.from(xs);

describe('vector maths', () => {
  it('dot and norm', () => {
    expect(dot(v(1, 2, 3), v(4, 5, 6))).toBe(32);
    expect(norm(v(3, 4))).toBe(5);
    expect(dotRow(v(1, 1), v(1, 2, 3, 4), 1, 2)).toBe(7);
  });

  it('normalize gives unit length and maps zero / non-finite to the zero vector', () => {
    const u = normalize(v(3, 4));
    expect(u[0]).toBeCloseTo(0.6, 6);
    expect(u[1]).toBeCloseTo(0.8, 6);
    expect(Array.from(normalize(v(0, 0)))).toEqual([0, 0]);
    expect(Array.from(normalize(v(1, Number.NaN)))).toEqual([0, 0]);
    expect(Array.from(normalize(v(Infinity, 1)))).toEqual([0, 0]);
  });

  it('cosine', () => {
    expect(cosine(v(1, 0), v(0, 1))).toBe(0);
    expect(cosine(v(1, 1), v(2, 2))).toBeCloseTo(1, 6);
    expect(cosine(v(1, 0), v(-3, 0))).toBeCloseTo(-1, 6);
    expect(cosine(v(1, 2), v(2, 1))).toBeCloseTo(4 / 5, 6);
  });

  it('cosine of a zero or non-finite vector is 0, never NaN', () => {
    expect(cosine(v(0, 0), v(1, 2))).toBe(0);
    expect(cosine(v(0, 0), v(0, 0))).toBe(0);
    expect(cosine(v(Number.NaN, 1), v(1, 1))).toBe(0);
    expect(cosine(v(Infinity, 1), v(1, 1))).toBe(0);
    expect(dot(v(Infinity), v(0))).toBe(0);
  });

  it('L2 distance between unit vectors', () => {
    expect(unitL2Distance(v(1, 0), v(1, 0))).toBe(0);
    expect(unitL2Distance(v(1, 0), v(0, 1))).toBeCloseTo(Math.SQRT2, 6);
    expect(unitL2Distance(v(1, 0), v(-1, 0))).toBe(2);
  });

  it('isFiniteVector', () => {
    expect(isFiniteVector(v(1, 2))).toBe(true);
    expect(isFiniteVector(v(1, Number.NaN))).toBe(false);
  });
});

describe('dotRow', () => {
  it('matches dot on every row, including a dimension that is not a multiple of 4', () => {
    const dim = 7;
    const rows = 3;
    const m = Float32Array.from({ length: dim * rows }, (_, i) => (i % 5) - 2);
    const q = Float32Array.from({ length: dim }, (_, i) => i - 3);
    for (let r = 0; r < rows; r++) {
      expect(dotRow(q, m, r, dim)).toBeCloseTo(dot(q, m.subarray(r * dim, (r + 1) * dim)), 5);
    }
  });
});
