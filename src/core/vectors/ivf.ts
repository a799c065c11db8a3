// IVF (inverted file) over a DenseStore: `lists` spherical k-means centroids; every covered slot sits
// in the list of its (approximately) nearest centroid. A query ranks the centroids (f32), gathers the
// slots of the `nprobe` best lists and hands them to `searchAmong` (the store's int8 SIMD pass +
// certified f32 rescoring over those candidates only). `nprobe` is calibrated at build time: the
// smallest number of lists whose recall@10 against the exact search reaches the target on sampled
// stored vectors (each one's own slot excluded).
//
// Assignment is two-level so a build stays ~O(N·√L) instead of O(N·L): the centroids are grouped
// (k-means over the centroids, √L groups, stored group by group); a vector is compared with the
// group centroids, then with the members of its `groupProbe` best groups only.
//
// The model follows the store (DenseWatcher via ann.ts): slots [0, covered) are in lists; a new
// vector goes to its nearest list at once, a replaced one moves, a removed one leaves its list (and
// the store's swap-remove is mirrored). Lists are growable Int32Arrays of slots (4 bytes per vector,
// plus 8 for slot -> list / position): the codes are not copied (memory; see README.md).

import { dotAt } from '../vector';
import { CodeBank, codesOf, groupVectors } from './kmeans';
import type { DenseStore } from './store';

export interface IvfShape {
  lists: number;
  /** How many of the best groups a vector's assignment looks into. */
  groupProbe: number;
}

export class IvfModel {
  readonly lists: number;
  readonly dim: number;
  /** Unit centroids, lists × dim, stored group by group. */
  readonly centroids: Float32Array;
  private readonly fine: CodeBank;
  private readonly coarse: CodeBank;
  private readonly groupStart: Int32Array;
  private readonly groupProbe: number;
  private members: Int32Array[];
  readonly sizes: Int32Array;
  private listOf = new Int32Array(0);
  private posOf = new Int32Array(0);
  /** Slots [0, covered) are in lists. */
  covered = 0;
  /** Lists probed per query (calibrated; all lists until then). */
  nprobe: number;
  /** Lists probed for a wide k (calibrated at ann.ts's WIDE_K; all lists until then). */
  nprobeWide: number;
  /** The recall@10 the calibration measured at `nprobe` (null before). */
  calibratedRecall: number | null = null;
  /** The store size the centroids were trained for. */
  readonly trainedSize: number;
  private largest = 0;
  private scratch = new Int32Array(0);
  private readonly scores: Float64Array;
  private readonly order: Int32Array;

  constructor(
    private readonly store: DenseStore,
    centroids: Float32Array,
    shape: IvfShape,
  ) {
    const d = store.dim;
    const L = centroids.length / d;
    this.lists = L;
    this.dim = d;
    this.trainedSize = store.size;
    // group the centroids, then lay them out group by group
    const g = Math.max(1, Math.round(Math.sqrt(L)));
    const of = groupVectors(centroids, L, d, g, 4);
    const byGroup = Int32Array.from({ length: L }, (_, i) => i).sort((a, b) => of[a] - of[b] || a - b);
    this.centroids = new Float32Array(L * d);
    byGroup.forEach((c, i) => this.centroids.set(centroids.subarray(c * d, c * d + d), i * d));
    this.groupStart = new Int32Array(g + 1);
    for (const c of byGroup) this.groupStart[of[c] + 1]++;
    for (let i = 0; i < g; i++) this.groupStart[i + 1] += this.groupStart[i];
    const gc = new Float32Array(g * d);
    for (let i = 0; i < L; i++) for (let j = 0; j < d; j++) gc[of[byGroup[i]] * d + j] += this.centroids[i * d + j];
    const simd = store.kernel === 'wasm-simd';
    this.fine = new CodeBank(this.centroids, L, d, store.stride, simd);
    this.coarse = new CodeBank(gc, g, d, store.stride, simd);
    this.groupProbe = Math.min(g, Math.max(1, shape.groupProbe));
    this.members = Array.from({ length: L }, () => new Int32Array(8));
    this.sizes = new Int32Array(L);
    this.nprobe = L;
    this.nprobeWide = L;
    this.scores = new Float64Array(L);
    this.order = new Int32Array(L);
  }

  /** Bytes held beyond the store (centroids, their codes, lists, slot maps). */
  get bytes(): number {
    let b = this.centroids.byteLength * 1.25 + this.listOf.byteLength * 2;
    for (const m of this.members) b += m.byteLength;
    return b;
  }

  /** The largest list over the mean list: retrain when it grows (ann.ts). */
  get skew(): number {
    return this.covered === 0 ? 1 : this.largest / (this.covered / this.lists);
  }

  /** The list of `slot`'s vector: the best of the members of its best `groupProbe` groups (int8). */
  nearestList(slot: number): number {
    const q = codesOf(this.store, slot);
    const gs = this.coarse.dots(q, 0, this.coarse.n);
    const g = this.coarse.n;
    const top: number[] = [];
    for (let p = 0; p < this.groupProbe; p++) {
      let best = -1;
      let bestS = -Infinity;
      for (let i = 0; i < g; i++) {
        const s = this.coarse.scales[i] * gs[i];
        if (s > bestS && !top.includes(i)) {
          bestS = s;
          best = i;
        }
      }
      top.push(best);
    }
    let list = 0;
    let listS = -Infinity;
    for (const gi of top) {
      const from = this.groupStart[gi];
      const count = this.groupStart[gi + 1] - from;
      if (count === 0) continue;
      const c = this.fine.best(q, from, count);
      const s = this.fine.scales[c] * this.fine.dots(q, c, 1)[0];
      if (s > listS) {
        listS = s;
        list = c;
      }
    }
    return list;
  }

  /** Puts `slot` into its nearest list. */
  insert(slot: number): void {
    this.ensure(slot + 1);
    const c = this.nearestList(slot);
    let m = this.members[c];
    const n = this.sizes[c];
    if (n === m.length) {
      const grown = new Int32Array(m.length * 2);
      grown.set(m);
      this.members[c] = m = grown;
    }
    m[n] = slot;
    this.sizes[c] = n + 1;
    if (n + 1 > this.largest) this.largest = n + 1;
    this.listOf[slot] = c;
    this.posOf[slot] = n;
  }

  /** Takes `slot` out of its list (the list's last entry fills the hole). */
  drop(slot: number): void {
    const c = this.listOf[slot];
    if (c < 0) return;
    const m = this.members[c];
    const last = --this.sizes[c];
    const p = this.posOf[slot];
    const moved = m[last];
    m[p] = moved;
    this.posOf[moved] = p;
    this.listOf[slot] = -1;
  }

  /** The store changed `slot` (DenseWatcher.written). */
  written(slot: number, added: boolean): void {
    if (added && slot === this.covered) {
      this.insert(slot);
      this.covered++;
    } else if (!added && slot < this.covered) {
      this.drop(slot);
      this.insert(slot);
    }
  }

  /** The store removed `slot` (DenseWatcher.removed), `moved` its swap, `size` the size after. */
  removed(slot: number, moved: { from: number; to: number } | null, size: number): void {
    if (slot < this.covered) this.drop(slot);
    if (moved) {
      const { from, to } = moved;
      if (from < this.covered) {
        const c = this.listOf[from];
        this.members[c][this.posOf[from]] = to;
        this.listOf[to] = c;
        this.posOf[to] = this.posOf[from];
        this.listOf[from] = -1;
      } else if (to < this.covered) this.insert(to);
    }
    this.covered = Math.min(this.covered, size);
  }

  /** Assigns slots from `covered` on, up to `until` (the bulk build). */
  cover(until: number): void {
    const end = Math.min(until, this.store.size);
    while (this.covered < end) this.insert(this.covered++);
  }

  /** The lists in order of their centroid's cosine with the unit `q` (best first). */
  rankLists(q: Float32Array): Int32Array {
    const { scores, order, centroids, dim } = this;
    for (let c = 0; c < this.lists; c++) {
      scores[c] = dotAt(q, centroids, c * dim, dim);
      order[c] = c;
    }
    return order.sort((a, b) => scores[b] - scores[a] || a - b);
  }

  /** Where `slot` sits: its list (-1 when not covered). */
  listOfSlot(slot: number): number {
    return slot < this.covered ? this.listOf[slot] : -1;
  }

  /** Lists to probe for a top `k`: nprobe up to 10, nprobeWide at `wide`, log-interpolated between. */
  nprobeFor(k: number, wide: number): number {
    if (k <= 10) return this.nprobe;
    if (k >= wide) return Math.max(this.nprobe, this.nprobeWide);
    const t = Math.log(k / 10) / Math.log(wide / 10);
    return Math.max(this.nprobe, Math.ceil(this.nprobe + t * (this.nprobeWide - this.nprobe)));
  }

  /** The candidate slots of the `lists` best lists for the unit `q`: a view into scratch, valid until the next call. */
  probe(q: Float32Array, lists: number): Int32Array {
    const order = this.rankLists(q);
    let count = 0;
    for (let i = 0; i < Math.min(lists, this.lists); i++) {
      const c = order[i];
      const n = this.sizes[c];
      if (count + n > this.scratch.length) {
        const grown = new Int32Array(Math.max(2 * this.scratch.length, count + n, 1024));
        grown.set(this.scratch.subarray(0, count));
        this.scratch = grown;
      }
      this.scratch.set(this.members[c].subarray(0, n), count);
      count += n;
    }
    return this.scratch.subarray(0, count);
  }

  private ensure(n: number): void {
    if (n <= this.listOf.length) return;
    const cap = Math.max(n, this.listOf.length * 2, 1024);
    const l = new Int32Array(cap).fill(-1);
    l.set(this.listOf);
    const p = new Int32Array(cap);
    p.set(this.posOf);
    this.listOf = l;
    this.posOf = p;
  }
}
