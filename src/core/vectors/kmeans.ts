// Spherical k-means for the IVF index (ivf.ts): centroids of unit vectors, trained on a sample of the
// store's slots, every assignment scored on int8 codes with the store's SIMD kernel (CodeBank). The
// training is a generator: it yields every `YIELD_EVERY` points so a background job can pause it
// (ann.ts) and the store may change between two steps (slots past the end are skipped).

import { normalize } from '../vector';
import { dotI8 } from './kernels';
import { quantiseInto } from './quantize';
import { SimdArena } from './simd';
import type { DenseStore } from './store';

export const YIELD_EVERY = 512;

/** `n` unit vectors as int8 codes (one scale each), scored against a query's codes in one kernel call. */
export class CodeBank {
  private readonly arena: SimdArena | null;
  private readonly codes: Int8Array;
  readonly scales: Float32Array;
  private readonly out: Int32Array;

  constructor(
    vectors: Float32Array,
    readonly n: number,
    readonly dim: number,
    readonly stride: number,
    simd: boolean,
  ) {
    this.arena = simd ? SimdArena.create(stride, Math.max(1, n)) : null;
    this.codes = this.arena ? this.arena.codes : new Int8Array(n * stride);
    this.scales = new Float32Array(n);
    this.out = new Int32Array(n);
    for (let c = 0; c < n; c++) this.scales[c] = quantiseInto(vectors.subarray(c * dim, c * dim + dim), this.codes, c * stride).scale;
  }

  /** The int32 dots of rows [from, from + count) with `q` (codes, `dim` long): a view until the next call. */
  dots(q: Int8Array, from: number, count: number): Int32Array {
    if (this.arena) {
      this.arena.setQuery(q);
      // the arena's kernel scans at most its CHUNK rows per call; banks here are far smaller
      return this.arena.chunk(from, count);
    }
    for (let i = 0; i < count; i++) this.out[i] = dotI8(q, this.codes, (from + i) * this.stride, this.dim);
    return this.out;
  }

  /** The row in [from, from + count) with the largest scale · dot (the query's own scale is common). */
  best(q: Int8Array, from: number, count: number): number {
    const d = this.dots(q, from, count);
    let best = from;
    let bestS = -Infinity;
    for (let i = 0; i < count; i++) {
      const s = this.scales[from + i] * d[i];
      if (s > bestS) {
        bestS = s;
        best = from + i;
      }
    }
    return best;
  }
}

/** A seeded generator in [0, 1) (mulberry32): the same sample and seeds for the same store. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `m` distinct slots of [0, n) (all of them when m >= n), in random order. */
export function sampleSlots(n: number, m: number, rand: () => number): Int32Array {
  if (m >= n) return Int32Array.from({ length: n }, (_, i) => i);
  const picked = new Set<number>();
  while (picked.size < m) picked.add(Math.floor(rand() * n));
  return Int32Array.from(picked);
}

/** The codes of a store slot (a view, `dim` long; valid until the store changes). */
export function codesOf(store: DenseStore, slot: number): Int8Array {
  const o = slot * store.stride;
  return store.parts().codes.subarray(o, o + store.dim);
}

/**
 * `lists` unit centroids (lists × dim, row-major) trained on the store's `sample` slots by
 * `iterations` rounds of spherical k-means (assign on int8, mean of the f32 vectors, normalise);
 * an empty list is reseeded with a random sample point.
 */
export function* trainCentroids(store: DenseStore, sample: Int32Array, lists: number, iterations: number, rand: () => number): Generator<void, Float32Array> {
  const d = store.dim;
  const cents = new Float32Array(lists * d);
  for (let c = 0; c < lists; c++) cents.set(store.vectorAt(sample[c % sample.length] % Math.max(1, store.size)), c * d);
  const sums = new Float64Array(lists * d);
  const counts = new Int32Array(lists);
  for (let it = 0; it < iterations; it++) {
    const bank = new CodeBank(cents, lists, d, store.stride, store.kernel === 'wasm-simd');
    sums.fill(0);
    counts.fill(0);
    for (let i = 0; i < sample.length; i++) {
      if (i % 64 === 63) yield; // ~64 × lists × dim int8 products per step
      const s = sample[i];
      if (s >= store.size) continue;
      const c = bank.best(codesOf(store, s), 0, lists);
      const v = store.vectorAt(s);
      const o = c * d;
      for (let j = 0; j < d; j++) sums[o + j] += v[j];
      counts[c]++;
    }
    for (let c = 0; c < lists; c++) {
      if (counts[c] === 0) {
        const s = sample[Math.floor(rand() * sample.length)];
        if (s < store.size) cents.set(store.vectorAt(s), c * d);
        continue;
      }
      const row = new Float32Array(d);
      for (let j = 0; j < d; j++) row[j] = sums[c * d + j];
      cents.set(normalize(row), c * d);
    }
  }
  return cents;
}

/**
 * Groups `n` unit vectors (row-major) into `groups` by a few rounds of plain f32 spherical k-means
 * (small: the IVF's centroids themselves). Returns each vector's group.
 */
export function groupVectors(vecs: Float32Array, n: number, d: number, groups: number, iterations: number): Int32Array {
  const g = Math.max(1, Math.min(groups, n));
  const cents = new Float32Array(g * d);
  for (let c = 0; c < g; c++) cents.set(vecs.subarray(Math.floor((c * n) / g) * d, Math.floor((c * n) / g) * d + d), c * d);
  const of = new Int32Array(n);
  for (let it = 0; it <= iterations; it++) {
    for (let i = 0; i < n; i++) {
      let best = 0;
      let bestS = -Infinity;
      for (let c = 0; c < g; c++) {
        let s = 0;
        for (let j = 0; j < d; j++) s += vecs[i * d + j] * cents[c * d + j];
        if (s > bestS) {
          bestS = s;
          best = c;
        }
      }
      of[i] = best;
    }
    if (it === iterations) break;
    const sums = new Float32Array(g * d);
    for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) sums[of[i] * d + j] += vecs[i * d + j];
    for (let c = 0; c < g; c++) {
      const row = sums.subarray(c * d, c * d + d);
      if (row.some((x) => x !== 0)) cents.set(normalize(row), c * d);
    }
  }
  return of;
}
