// Seeded synthetic data for the Node benchmarks: one PRNG, isotropic unit vectors, Zipf ranks.
// The same seed gives the same corpus on every run, so figures compare across runs.
import { mulberry32 } from '../../src/core/features/hash';

/** A small deterministic PRNG in [0, 1) (mulberry32, the core's own). */
export function rng(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
}

/** One standard normal draw (Box-Muller). */
export function gaussian(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
}

/** Scales `v` to unit length in place. */
export function unit(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const inv = 1 / Math.sqrt(s);
  for (let i = 0; i < v.length; i++) v[i] *= inv;
  return v;
}

/** A uniformly random direction in `dim` dimensions. */
export function unitVector(rand: () => number, dim: number): Float32Array {
  const v = new Float32Array(dim);
  for (let i = 0; i < dim; i++) v[i] = gaussian(rand);
  return unit(v);
}

/** Zipf(s = 1) sampler over `n` ranks via the inverse of the cumulative weights. */
export function zipf(n: number, rand: () => number): () => number {
  const cum = new Float64Array(n);
  let s = 0;
  for (let i = 0; i < n; i++) cum[i] = s += 1 / (i + 1);
  return () => {
    const x = rand() * s;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}
