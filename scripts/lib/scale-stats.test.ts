import { describe, expect, it } from 'vitest';
import { maxOf, percentile, ratio, round } from './scale-stats';

describe('percentile (nearest rank)', () => {
  it('takes sorted[ceil(p/100 * n) - 1]', () => {
    // sorted: 1 2 3 4 5 6 7 8 9 10; p50: ceil(5) = 5th -> 5; p95: ceil(9.5) = 10th -> 10; p10: 1st -> 1
    const xs = [7, 3, 10, 1, 9, 2, 8, 4, 6, 5];
    expect(percentile(xs, 50)).toBe(5);
    expect(percentile(xs, 95)).toBe(10);
    expect(percentile(xs, 10)).toBe(1);
    expect(percentile(xs, 100)).toBe(10);
  });

  it('odd counts: the middle one; 20 values: p95 is the 19th', () => {
    expect(percentile([30, 10, 20], 50)).toBe(20); // ceil(1.5) = 2nd
    const twenty = Array.from({ length: 20 }, (_, i) => i + 1); // 1..20
    expect(percentile(twenty, 95)).toBe(19); // ceil(19) = 19th
    expect(percentile(twenty, 50)).toBe(10);
  });

  it('skips non-finite values, null when none are left, refuses p outside (0, 100]', () => {
    expect(percentile([NaN, 4, Infinity, 2], 50)).toBe(2); // finite: 2 4 -> 1st
    expect(percentile([], 50)).toBeNull();
    expect(percentile([NaN], 95)).toBeNull();
    expect(() => percentile([1], 0)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });
});

describe('ratio (baseline / ours)', () => {
  it('is how many times slower the baseline is, two decimals', () => {
    expect(ratio(47, 10)).toBe(4.7);
    expect(ratio(3.5, 7)).toBe(0.5);
    expect(ratio(2200, 69)).toBe(31.88); // 31.884...
  });

  it('null when a side is missing or ours is not positive', () => {
    expect(ratio(null, 5)).toBeNull();
    expect(ratio(5, undefined)).toBeNull();
    expect(ratio(5, 0)).toBeNull();
    expect(ratio(NaN, 5)).toBeNull();
  });
});

describe('round and maxOf', () => {
  it('rounds half away from zero at the digit; keeps null', () => {
    expect(round(1.005 * 1000, 0)).toBe(1005);
    expect(round(2.345, 1)).toBe(2.3);
    expect(round(null)).toBeNull();
  });

  it('max of finite values, null for none', () => {
    expect(maxOf([51, 120.5, 80])).toBe(120.5);
    expect(maxOf([])).toBeNull();
  });
});
