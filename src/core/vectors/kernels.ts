// The scan kernels: tight loops over typed arrays, no allocation. Measured against each other in
// scripts/bench/vectors.ts (same process, interleaved).

/**
 * Σ q[j] · codes[off + j] over `dim` int8 components, in int32 (|sum| <= dim · 127² fits for any
 * dim < 133k). Four independent accumulators, unrolled by 8: short dependency chains for the JIT.
 */
export function dotI8(q: Int8Array, codes: Int8Array, off: number, dim: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let j = 0;
  const end = dim - (dim & 7);
  for (; j < end; j += 8) {
    const o = off + j;
    s0 = (s0 + q[j] * codes[o] + q[j + 4] * codes[o + 4]) | 0;
    s1 = (s1 + q[j + 1] * codes[o + 1] + q[j + 5] * codes[o + 5]) | 0;
    s2 = (s2 + q[j + 2] * codes[o + 2] + q[j + 6] * codes[o + 6]) | 0;
    s3 = (s3 + q[j + 3] * codes[o + 3] + q[j + 7] * codes[o + 7]) | 0;
  }
  for (; j < dim; j++) s0 = (s0 + q[j] * codes[off + j]) | 0;
  return (s0 + s1 + s2 + s3) | 0;
}

/** The f32 dot at an offset: the core's one loop (../vector), named here for the store. */
export { dotAt as dotF32 } from '../vector';

/** A min-heap of doubles of fixed capacity: the k-th largest value seen, in O(log k) per offer. */
export class KthLargest {
  private readonly heap: Float64Array;
  private n = 0;
  constructor(readonly k: number) {
    this.heap = new Float64Array(Math.max(1, k));
  }
  /** -Infinity until k values were offered; then the k-th largest of them. */
  get value(): number {
    return this.n < this.k ? -Infinity : this.heap[0];
  }
  offer(v: number): void {
    const h = this.heap;
    if (this.n < this.k) {
      let i = this.n++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (h[p] <= v) break;
        h[i] = h[p];
        i = p;
      }
      h[i] = v;
      return;
    }
    if (v <= h[0]) return;
    let i = 0;
    const n = this.n;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && h[r] < h[l] ? r : l;
      if (h[c] >= v) break;
      h[i] = h[c];
      i = c;
    }
    h[i] = v;
  }
}
