// The store's search restricted to candidate slots (an approximate index's probed lists): the same
// int8 pass (the SIMD kernel reading the rows through the slot list, CHUNK slots per call), the same certified short list and
// f32 rescoring as DenseStore.search, so the answer is exactly the f32 top k of the candidates.

import { topKIndices } from '../topk';
import { dotF32, dotI8, KthLargest } from './kernels';
import { dotErrorBound } from './quantize';
import { CHUNK } from './simd';
import type { DenseHit, DenseScanOptions, DenseStore, PreparedQuery } from './store';

let approxScratch = new Float64Array(0);
let orderScratch = new Int32Array(0);
let errScratch = new Float32Array(0);

/**
 * The best `k` of `slots[0 .. count)` (sorted here, in place) after `accept` / `minScore`: score
 * desc, id asc; exact f32 scores when the store keeps floats, the int8 estimate otherwise.
 */
export function searchAmong(store: DenseStore, p: PreparedQuery, k: number, slots: Int32Array, count: number, opts: DenseScanOptions = {}): DenseHit[] {
  if (k <= 0 || count === 0) return [];
  const cand = slots.subarray(0, count).sort();
  if (approxScratch.length < count) {
    approxScratch = new Float64Array(count);
    orderScratch = new Int32Array(count);
    errScratch = new Float32Array(count);
  }
  const errs = errScratch;
  const approx = approxScratch;
  const order = orderScratch;
  const { codes, scales, errors, arena } = store.parts();
  const { dim, stride } = store;
  const accept = opts.accept;
  const floor = opts.minScore ?? -Infinity;
  const eq = p.error;
  let m = 0;
  if (arena) arena.setQuery(p.codes);
  for (let from = 0; from < count; from += CHUNK) {
    const c = Math.min(CHUNK, count - from);
    const out = arena ? arena.gather(cand, from, c) : null; // one kernel call per chunk of slots
    for (let i = 0; i < c; i++) {
      const t = cand[from + i];
      if (accept && !accept(t)) continue;
      const a = p.scale * scales[t] * (out ? out[i] : dotI8(p.codes, codes, t * stride, dim));
      if (a + dotErrorBound(eq, errors[t]) < floor) continue;
      approx[m] = a;
      errs[m] = errors[t];
      order[m++] = t;
    }
  }
  return rescore(store, p, k, approx, order, errs, m, floor);
}

/**
 * From the int8 estimates `approx[i]` of the slots `order[i]` (rounding errors `errs[i]`, i < m): the best `k`, exactly (the
 * certified short list rescored in f32) when the store keeps floats, else by the estimate.
 */
export function rescore(store: DenseStore, p: PreparedQuery, k: number, approx: Float64Array, order: Int32Array, errs: Float32Array, m: number, floor: number): DenseHit[] {
  const { floats, ids } = store.parts();
  const dim = store.dim;
  const eq = p.error;
  const idOf = (slot: number) => ids[slot];
  if (!floats) {
    const sl = order.slice(0, m);
    const sc = approx.slice(0, m);
    return topKIndices(sc, m, k, (i) => idOf(sl[i])).map((i) => ({ slot: sl[i], id: ids[sl[i]], score: sc[i] }));
  }
  const kth = new KthLargest(k);
  for (let i = 0; i < m; i++) kth.offer(approx[i] - dotErrorBound(eq, errs[i]));
  const cut = kth.value;
  const short = new Int32Array(m);
  const scores = new Float64Array(m);
  let n = 0;
  for (let i = 0; i < m; i++) {
    const s = order[i];
    if (approx[i] + dotErrorBound(eq, errs[i]) < cut) continue;
    const sc = dotF32(p.unit, floats, s * dim, dim);
    if (sc < floor) continue;
    short[n] = s;
    scores[n++] = sc;
  }
  return topKIndices(scores, n, k, (i) => idOf(short[i])).map((i) => ({ slot: short[i], id: ids[short[i]], score: scores[i] }));
}
