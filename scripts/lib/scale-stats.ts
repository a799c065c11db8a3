// Pure helpers of the scale benchmark's summary (scripts/bench/scale.ts): percentiles of raw
// timings and the baselines' ratios to ours.

/**
 * The nearest-rank percentile: the smallest value with at least p% of the values at or below it
 * (sorted[ceil(p/100 * n) - 1]); null for no finite values. p in (0, 100].
 */
export function percentile(values: readonly number[], p: number): number | null {
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile: p must be in (0, 100] (got ${p})`);
  const s = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return null;
  return s[Math.max(1, Math.ceil((p / 100) * s.length)) - 1]!;
}

/** Rounded to `digits` decimals (null stays null). */
export function round(x: number | null, digits = 2): number | null {
  if (x === null || !Number.isFinite(x)) return null;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/**
 * How many times slower the baseline is than ours (baseline / ours): 2 = ours takes half the
 * time, 0.5 = ours takes twice as long. Null when either is missing or ours is not positive.
 */
export function ratio(baseline: number | null | undefined, ours: number | null | undefined): number | null {
  if (baseline === null || baseline === undefined || ours === null || ours === undefined) return null;
  if (!Number.isFinite(baseline) || !Number.isFinite(ours) || ours <= 0) return null;
  return round(baseline / ours, 2);
}

/** The largest value, or null for none (the longest long task: none seen = null, not 0). */
export function maxOf(values: readonly number[]): number | null {
  const f = values.filter((x) => Number.isFinite(x));
  return f.length ? Math.max(...f) : null;
}
