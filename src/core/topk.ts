// Bounded top-k selection with a binary min-heap: O(n log k), and a total order so equal
// scores always come out the same way (score descending, then id ascending).

export interface Ranked<T = undefined> {
  id: string;
  score: number;
  item: T;
}

/** True when `a` ranks strictly below `b` (lower score, or equal score and larger id). */
function worse(aScore: number, aId: string, bScore: number, bId: string): boolean {
  if (aScore !== bScore) return aScore < bScore;
  return aId > bId;
}

/** Orders two entries best-first: score descending, then id ascending. */
export function compareRanked(a: { id: string; score: number }, b: { id: string; score: number }): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export class TopK<T = undefined> {
  private readonly k: number;
  private readonly heap: Ranked<T>[] = []; // root = the worst entry kept so far

  constructor(k: number) {
    this.k = Number.isFinite(k) && k > 0 ? Math.floor(k) : 0;
  }

  get size(): number {
    return this.heap.length;
  }

  /** The score an entry must beat to enter a full heap (-Infinity while not full). */
  threshold(): number {
    return this.heap.length < this.k ? -Infinity : this.heap[0].score;
  }

  /** Offer an entry; NaN scores are ignored. Returns true when it was kept. */
  push(id: string, score: number, item: T): boolean {
    if (this.k === 0 || Number.isNaN(score)) return false;
    const h = this.heap;
    if (h.length < this.k) {
      h.push({ id, score, item });
      this.siftUp(h.length - 1);
      return true;
    }
    const root = h[0];
    if (!worse(root.score, root.id, score, id)) return false;
    h[0] = { id, score, item };
    this.siftDown(0);
    return true;
  }

  /** The kept entries, best first. Does not empty the heap. */
  sorted(): Ranked<T>[] {
    return [...this.heap].sort(compareRanked);
  }

  private siftUp(i: number): void {
    const h = this.heap;
    const e = h[i];
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!worse(e.score, e.id, h[p].score, h[p].id)) break;
      h[i] = h[p];
      i = p;
    }
    h[i] = e;
  }

  private siftDown(i: number): void {
    const h = this.heap;
    const n = h.length;
    const e = h[i];
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n && worse(h[r].score, h[r].id, h[l].score, h[l].id)) c = r;
      if (!worse(h[c].score, h[c].id, e.score, e.id)) break;
      h[i] = h[c];
      i = c;
    }
    h[i] = e;
  }
}

/** Convenience: the best `k` of `entries` (score desc, id asc). */
export function topK<T extends { id: string; score: number }>(entries: Iterable<T>, k: number): T[] {
  const heap = new TopK<T>(k);
  for (const e of entries) heap.push(e.id, e.score, e);
  return heap.sorted().map((r) => r.item);
}

/**
 * The best `k` of `count` scored slots (scores[0..count)), as slot indices ordered by score
 * descending, then id ascending. For a small k a bounded heap; for a deep k a selection
 * (kthAscending, linear on average) finds the k-th score, and only the slots at or above it are
 * ordered with the comparator (issue 13: a full sort of 100k scores was a tenth of a recall).
 */
export function topKIndices(scores: Float64Array, count: number, k: number, idOf: (slot: number) => string): number[] {
  if (!(k > 0) || count <= 0) return [];
  if (k <= 64 && k < count) {
    const heap = new TopK<number>(k);
    for (let i = 0; i < count; i++) {
      const s = scores[i];
      if (s < heap.threshold()) continue;
      heap.push(idOf(i), s, i);
    }
    return heap.sorted().map((r) => r.item);
  }
  let cut = -Infinity;
  if (count > k) cut = kthAscending(scores, count, count - k);
  const keep: { id: string; score: number; slot: number }[] = [];
  for (let i = 0; i < count; i++) {
    const s = scores[i];
    if (s >= cut && !Number.isNaN(s)) keep.push({ id: idOf(i), score: s, slot: i });
  }
  return keep.sort(compareRanked).slice(0, k).map((e) => e.slot);
}

let selectScratch = new Float64Array(0);

/**
 * The value at index `i` of scores[0..count) sorted ascending (as Float64Array.prototype.sort
 * orders it: NaN last), without sorting: Hoare's quickselect with a median-of-three pivot on a
 * copy of the non-NaN values. `i` in [0, count).
 */
export function kthAscending(scores: Float64Array, count: number, i: number): number {
  if (!(i >= 0 && i < count)) throw new RangeError(`kthAscending: index ${i} outside [0, ${count})`);
  if (selectScratch.length < count) selectScratch = new Float64Array(Math.max(count, selectScratch.length * 2));
  const a = selectScratch; // reused: a query at 100k would otherwise allocate 800 KB for this
  let n = 0;
  for (let j = 0; j < count; j++) if (!Number.isNaN(scores[j])) a[n++] = scores[j];
  if (i >= n) return NaN; // the NaNs sort last
  let lo = 0;
  let hi = n - 1;
  while (hi > lo) {
    const mid = (lo + hi) >> 1;
    // median of three as the pivot value
    const x = a[lo];
    const y = a[mid];
    const z = a[hi];
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let l = lo;
    let r = hi;
    while (l <= r) {
      while (a[l] < pivot) l++;
      while (a[r] > pivot) r--;
      if (l <= r) {
        const t = a[l];
        a[l] = a[r];
        a[r] = t;
        l++;
        r--;
      }
    }
    if (i <= r) hi = r;
    else if (i >= l) lo = l;
    else return a[i];
  }
  return a[i];
}
