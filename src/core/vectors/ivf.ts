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
// the store's swap-remove is mirrored).
//
// Each list keeps a contiguous block of rows (int8 codes in its own WebAssembly memory: one SIMD call
// per list; scale, error, slot): a copy, because reading the store's rows by slot is random access
// (README.md). A full block moves to the end with twice the room (the holes: `waste`).

import { dotAt } from '../vector';
import { rescore } from './among';
import { dotI8 } from './kernels';
import { CodeBank, codesOf, groupVectors } from './kmeans';
import { dotErrorBound } from './quantize';
import { CHUNK, SimdArena } from './simd';
import type { DenseHit, DenseScanOptions, DenseStore, PreparedQuery } from './store';

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
  // the blocks: list c's rows are [blockStart[c], blockStart[c] + sizes[c]) of rowCodes / rowScale / rowError
  private readonly blockStart: Int32Array;
  private readonly blockCap: Int32Array;
  private rows = 0;
  private rowCapacity = 0;
  /** Rows left behind by moved blocks. */
  waste = 0;
  private arena: SimdArena | null;
  private rowCodes: Int8Array;
  private rowScale = new Float32Array(0);
  private rowError = new Float32Array(0);
  private approx = new Float64Array(0);
  private cand = new Int32Array(0);
  private errs = new Float32Array(0);
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
    this.members = Array.from({ length: L }, () => new Int32Array(0));
    this.sizes = new Int32Array(L);
    this.blockStart = new Int32Array(L);
    this.blockCap = new Int32Array(L);
    this.arena = simd ? SimdArena.create(store.stride, 64) : null;
    this.rowCodes = this.arena ? this.arena.codes : new Int8Array(0);
    const per = Math.ceil((1.25 * store.size) / L) + 8; // room for each list at build: no move for most
    this.reserveRows(per * L);
    for (let c = 0; c < L; c++) {
      this.blockStart[c] = c * per;
      this.blockCap[c] = per;
      this.members[c] = new Int32Array(per);
    }
    this.rows = per * L;
    this.nprobe = L;
    this.nprobeWide = L;
    this.scores = new Float64Array(L);
    this.order = new Int32Array(L);
  }

  /** Bytes held beyond the store (centroids, the lists' rows: codes, scales, errors, slots; slot maps). */
  get bytes(): number {
    let b = this.centroids.byteLength * 1.25 + this.listOf.byteLength * 2 + this.rowCapacity * (this.store.stride + 8);
    for (const m of this.members) b += m.byteLength;
    return b;
  }

  /** The share of block rows left as holes by moved blocks (a rebuild compacts them). */
  get wasteShare(): number {
    return this.rows === 0 ? 0 : this.waste / this.rows;
  }

  private reserveRows(n: number): void {
    if (n <= this.rowCapacity) return;
    const cap = Math.max(n, Math.ceil(this.rowCapacity * 1.5));
    const st = this.store.stride;
    if (this.arena) {
      this.arena.grow(cap);
      this.rowCodes = this.arena.codes;
    } else {
      const c = new Int8Array(cap * st);
      c.set(this.rowCodes);
      this.rowCodes = c;
    }
    const sc = new Float32Array(cap);
    sc.set(this.rowScale);
    this.rowScale = sc;
    const er = new Float32Array(cap);
    er.set(this.rowError);
    this.rowError = er;
    this.rowCapacity = cap;
  }

  /**
   * Lays the blocks out again, each sized to its list + 10% (+ 4): done once the bulk assignment
   * is over (the build's even split left room where lists stayed small and moved the ones that
   * grew). Into a new memory (a WebAssembly memory cannot shrink); the old one is let go.
   */
  compact(): void {
    const st = this.store.stride;
    const L = this.lists;
    const cap = new Int32Array(L);
    let total = 0;
    for (let c = 0; c < L; c++) total += cap[c] = this.sizes[c] + Math.ceil(this.sizes[c] * 0.1) + 4;
    const arena = this.arena ? SimdArena.create(st, total) : null;
    const codes = arena ? arena.codes : new Int8Array(total * st);
    const scale = new Float32Array(total);
    const error = new Float32Array(total);
    let at = 0;
    for (let c = 0; c < L; c++) {
      const from = this.blockStart[c];
      const n = this.sizes[c];
      codes.set(this.rowCodes.subarray(from * st, (from + n) * st), at * st);
      scale.set(this.rowScale.subarray(from, from + n), at);
      error.set(this.rowError.subarray(from, from + n), at);
      const m = new Int32Array(cap[c]);
      m.set(this.members[c].subarray(0, n));
      this.members[c] = m;
      this.blockStart[c] = at;
      this.blockCap[c] = cap[c];
      at += cap[c];
    }
    this.arena = arena;
    this.rowCodes = codes;
    this.rowScale = scale;
    this.rowError = error;
    this.rows = this.rowCapacity = total;
    this.waste = 0;
  }

  /** Moves list c's block to the end with twice the room. */
  private moveBlock(c: number): void {
    const cap = this.blockCap[c] * 2 + 8;
    const at = this.rows;
    this.reserveRows(at + cap);
    const from = this.blockStart[c];
    const n = this.sizes[c];
    const st = this.store.stride;
    this.rowCodes.copyWithin(at * st, from * st, (from + n) * st);
    this.rowScale.copyWithin(at, from, from + n);
    this.rowError.copyWithin(at, from, from + n);
    const m = new Int32Array(cap);
    m.set(this.members[c].subarray(0, n));
    this.members[c] = m;
    this.waste += this.blockCap[c];
    this.blockStart[c] = at;
    this.blockCap[c] = cap;
    this.rows = at + cap;
  }

  /** Copies the store's row of `slot` into list c's block at position `pos`. */
  private writeRow(c: number, pos: number, slot: number): void {
    const st = this.store.stride;
    const row = this.blockStart[c] + pos;
    const { codes, scales, errors } = this.store.parts();
    this.rowCodes.set(codes.subarray(slot * st, slot * st + st), row * st);
    this.rowScale[row] = scales[slot];
    this.rowError[row] = errors[slot];
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
    const n = this.sizes[c];
    if (n === this.blockCap[c]) this.moveBlock(c);
    this.members[c][n] = slot;
    this.writeRow(c, n, slot);
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
    if (p !== last) {
      const st = this.store.stride;
      const b = this.blockStart[c];
      this.rowCodes.copyWithin((b + p) * st, (b + last) * st, (b + last + 1) * st);
      this.rowScale[b + p] = this.rowScale[b + last];
      this.rowError[b + p] = this.rowError[b + last];
    }
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
  listOfSlot = (slot: number): number => (slot < this.covered ? this.listOf[slot] : -1);

  /** Lists to probe for a top `k`: nprobe up to 10, nprobeWide at `wide`, log-interpolated between. */
  nprobeFor(k: number, wide: number): number {
    if (k <= 10) return this.nprobe;
    if (k >= wide) return Math.max(this.nprobe, this.nprobeWide);
    const t = Math.log(k / 10) / Math.log(wide / 10);
    return Math.max(this.nprobe, Math.ceil(this.nprobe + t * (this.nprobeWide - this.nprobe)));
  }

  /**
   * The best `k` among the members of the `lists` best lists for the prepared query: each list's
   * block scanned by one SIMD call (int8), then the store's certified f32 rescoring (among.ts).
   */
  search(p: PreparedQuery, k: number, lists: number, opts: DenseScanOptions): DenseHit[] {
    const order = this.rankLists(p.unit);
    const probe = Math.min(lists, this.lists);
    let total = 0;
    for (let i = 0; i < probe; i++) total += this.sizes[order[i]];
    if (this.approx.length < total) {
      this.approx = new Float64Array(total);
      this.cand = new Int32Array(total);
      this.errs = new Float32Array(total);
    }
    const { approx, cand, errs, rowScale, rowError, rowCodes, arena } = this;
    const { dim, stride } = this.store;
    const accept = opts.accept;
    const floor = opts.minScore ?? -Infinity;
    if (arena) arena.setQuery(p.codes);
    let m = 0;
    for (let i = 0; i < probe; i++) {
      const c = order[i];
      const members = this.members[c];
      const b = this.blockStart[c];
      for (let from = 0; from < this.sizes[c]; from += CHUNK) {
        const n = Math.min(CHUNK, this.sizes[c] - from);
        const out = arena ? arena.chunk(b + from, n) : null;
        for (let r = 0; r < n; r++) {
          const slot = members[from + r];
          if (accept && !accept(slot)) continue;
          const row = b + from + r;
          const a = p.scale * rowScale[row] * (out ? out[r] : dotI8(p.codes, rowCodes, row * stride, dim));
          if (a + dotErrorBound(p.error, rowError[row]) < floor) continue;
          approx[m] = a;
          errs[m] = rowError[row];
          cand[m++] = slot;
        }
      }
    }
    return rescore(this.store, p, k, approx, cand, errs, m, floor);
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
