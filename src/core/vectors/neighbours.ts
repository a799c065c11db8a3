// Neighbour lists for the associative walk, from the dense store instead of a fresh full f32 pass
// per expanded memory. For a memory and a minimum cosine, the store's certified int8 short list
// is rescored in f32 and the best `cap` (+ a margin of cap / 4) neighbours with cosine >= minCos are
// kept, sorted (cosine desc, id asc). A hop then picks its `beam` best unvisited, eligible
// neighbours by cosine × scope factor from the list. That pick is exactly the full scan's whenever
// the list is complete (every qualifying memory is in it) or the beam-th key is above the list's
// bound (a memory outside the list has at most that cosine, hence at most that key); otherwise the
// list is recomputed longer, and at `maxCap` `pick` answers null and the caller scans in full.
//
// Kept in step with the store (a DenseWatcher), not dropped on every change (issue 13: one capture
// cost the next hops query ~70 cold int8 passes at 100k). Invariant of a list of memory o: it holds
// exactly the qualifying memories (cosine >= minCos, not o) that order at or before its `bound`
// (cosine desc, id asc), all of them when `complete`. A new or changed vector x enters a list iff
// it orders at or before the bound (one dot per cached list; a full list drops its last, which
// becomes the bound); a removed one leaves the lists holding it (the bound stays, so a re-added
// identical vector comes back in); a list shorter than the cap asked for is recomputed when next
// read. Hence a list always equals a fresh computation cut at its bound (tested against brute
// force with random writes). A memory removed and re-added with the same vector (the index's
// upsert of a tag or status change) keeps its own list.

import type { DenseStore, DenseWatcher } from './store';

/** Same summation as the walk's own scan (src/core/recall/assoc.ts), so cosines are identical. */
function cosRows(data: Float32Array, a: number, b: number, dim: number): number {
  const pa = a * dim;
  const base = b * dim;
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  let j = 0;
  const d4 = dim - (dim % 4);
  for (; j < d4; j += 4) {
    s0 += data[pa + j] * data[base + j];
    s1 += data[pa + j + 1] * data[base + j + 1];
    s2 += data[pa + j + 2] * data[base + j + 2];
    s3 += data[pa + j + 3] * data[base + j + 3];
  }
  for (; j < dim; j++) s0 += data[pa + j] * data[base + j];
  return s0 + s1 + (s2 + s3);
}

/** Lists kept at most (a list holds 32-40 neighbours, more after a regrowth: ~0.5-40 KB). */
const MAX_CACHED = 2048;
/** Writes with no read in between after which every list goes (an import: no dot per list per memory). */
const MAX_UNREAD_WRITES = 256;

/** (cos, id) orders before-or-at (bc, bid): cosine desc, id asc. */
const atOrBefore = (c: number, id: string, bc: number, bid: string): boolean => c > bc || (c === bc && id <= bid);

export interface NeighbourEntry {
  /** The list length asked for (the list is recomputed when it holds fewer and is not complete). */
  cap: number;
  /** Neighbour ids and cosines, cosine desc, id asc. */
  ids: string[];
  cos: number[];
  /** Every memory with cosine >= minCos is in the list. */
  complete: boolean;
  /** Not complete: every qualifying memory outside the list orders after (boundCos, boundId). */
  boundCos: number;
  boundId: string;
}

export interface NeighbourStats {
  /** Lists computed (one int8 pass over the store each). */
  computed: number;
  /** Picks answered from a cached list. */
  cached: number;
  /** Picks the list could not certify even at `maxCap` (the caller scanned in full). */
  fallbacks: number;
  /** Lists recomputed longer because a pick could not be certified from the shorter one. */
  regrown: number;
  /** Cached lists a write changed in place (a vector entered or left). */
  updated: number;
}

export class NeighbourLists implements DenseWatcher {
  readonly stats: NeighbourStats = { computed: 0, cached: 0, fallbacks: 0, regrown: 0, updated: 0 };
  private readonly cache = new Map<string, NeighbourEntry>();
  private minCos = NaN;
  private unread = 0;
  /** The list of the memory removed last, with its row: back if the same vector comes back next. */
  private limbo: { id: string; row: Float32Array; entry: NeighbourEntry } | null = null;
  private readonly unwatch: () => void;

  /**
   * `scope`: per slot the interned scope (session) or -1 (`setScope` when the slots change);
   * `crossScope`: the factor of a neighbour in another scope than its parent (both as in the walk);
   * `cap`: list length first kept per memory, regrown ×4 up to `maxCap` when a pick cannot be
   * certified from it (the walk closes the memories it visits, so inside a dense cluster the first
   * list runs out).
   */
  constructor(
    private readonly store: DenseStore,
    private scope: Int32Array | (() => Int32Array),
    private readonly crossScope: number,
    private readonly cap = 32,
    private readonly maxCap = 2048,
    private readonly maxCached = MAX_CACHED,
  ) {
    this.unwatch = store.watch(this);
  }

  /** The slots' scopes changed (a new matrix over the store; a function: read at each pick, a matrix kept in step). */
  setScope(scope: Int32Array | (() => Int32Array)): void {
    this.scope = scope;
  }

  /** Stops following the store (the lists go). */
  dispose(): void {
    this.unwatch();
    this.clear();
  }

  /** Cached lists, by memory id (tests and benches read them). */
  entries(): ReadonlyMap<string, NeighbourEntry> {
    return this.cache;
  }

  /** The best neighbours of `slot` with cosine >= minCos (cached). Needs the store's f32 rows. */
  list(slot: number, minCos: number, cap = this.cap): NeighbourEntry {
    this.unread = 0;
    if (this.minCos !== minCos) {
      this.clear();
      this.minCos = minCos;
    }
    const id = this.store.idAt(slot);
    const hit = this.cache.get(id);
    if (hit && (hit.complete || (hit.cap >= cap && hit.ids.length >= cap))) {
      this.stats.cached++;
      // the most recently used last (a Map keeps insertion order): the least recently used goes first
      this.cache.delete(id);
      this.cache.set(id, hit);
      return hit;
    }
    const e = this.compute(slot, minCos, Math.max(cap, hit?.cap ?? 0));
    this.stats.computed++;
    // bounded: the engine keeps these across queries; past maxCached the least recently used goes
    this.cache.delete(id);
    if (this.cache.size >= this.maxCached) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(id, e);
    return e;
  }

  private compute(slot: number, minCos: number, cap: number): NeighbourEntry {
    const data = this.store.floatRows();
    if (!data) throw new RangeError('NeighbourLists needs a store that keeps its f32 rows');
    const dim = this.store.dim;
    const room = cap + (cap >> 2);
    const p = this.store.prepare(data.slice(slot * dim, slot * dim + dim));
    const short = this.store.shortlist(p, room, { minScore: minCos, accept: (s) => s !== slot });
    const cand: { c: number; id: string }[] = [];
    for (const s of short) {
      const c = cosRows(data, slot, s, dim);
      if (c >= minCos) cand.push({ c, id: this.store.idAt(s) });
    }
    cand.sort((a, b) => b.c - a.c || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const keep = cand.slice(0, room);
    const last = keep[keep.length - 1];
    return { cap, ids: keep.map((x) => x.id), cos: keep.map((x) => x.c), complete: cand.length < room, boundCos: last?.c ?? Infinity, boundId: last?.id ?? '' };
  }

  private clear(): void {
    this.cache.clear();
    this.limbo = null;
  }

  /** True when the lists were all dropped (too many writes unread): nothing to keep in step. */
  private tooMany(): boolean {
    if (++this.unread <= MAX_UNREAD_WRITES) return this.cache.size === 0;
    this.clear();
    return true;
  }

  removing(slot: number, id: string): void {
    this.limbo = null;
    if (this.tooMany()) return;
    const own = this.cache.get(id);
    this.cache.delete(id);
    this.limbo = own ? { id, row: this.store.vectorAt(slot).slice(), entry: own } : null;
    this.leave(id);
  }

  removed(): void {
    // all done in `removing` (lists hold ids, not slots: the swap-remove's move changes nothing)
  }

  written(slot: number, added: boolean): void {
    const limbo = this.limbo;
    this.limbo = null;
    if (this.tooMany()) return;
    const id = this.store.idAt(slot);
    if (!added) {
      this.cache.delete(id); // replaced in place: its own list is stale
      this.leave(id);
    } else if (limbo?.id === id && sameRow(limbo.row, this.store.vectorAt(slot))) {
      this.cache.set(id, limbo.entry); // the same vector back (an upsert that kept it): its list holds
    }
    this.enter(slot, id);
  }

  /** `id` leaves every list holding it (its bound stays: nothing outside moved before it). */
  private leave(id: string): void {
    for (const e of this.cache.values()) {
      const i = e.ids.indexOf(id);
      if (i < 0) continue;
      e.ids.splice(i, 1);
      e.cos.splice(i, 1);
      this.stats.updated++;
    }
  }

  /** The vector at `slot` enters every list whose bound it reaches (one dot each). */
  private enter(slot: number, id: string): void {
    const data = this.store.floatRows();
    if (!data || Number.isNaN(this.minCos)) return;
    const dim = this.store.dim;
    for (const [owner, e] of this.cache) {
      if (owner === id) continue;
      const o = this.store.slotOf(owner);
      if (o === undefined) continue;
      const c = cosRows(data, o, slot, dim);
      if (c < this.minCos || !(e.complete || atOrBefore(c, id, e.boundCos, e.boundId))) continue;
      let i = e.ids.length;
      while (i > 0 && !atOrBefore(e.cos[i - 1], e.ids[i - 1], c, id)) i--;
      e.ids.splice(i, 0, id);
      e.cos.splice(i, 0, c);
      this.stats.updated++;
      const room = e.cap + (e.cap >> 2);
      if (e.ids.length >= room && e.complete) e.complete = false; // as a fresh computation says (room qualify)
      if (e.ids.length > room) {
        e.ids.pop();
        e.cos.pop();
      }
      if (!e.complete) {
        const n = e.ids.length - 1;
        if (e.ids.length >= room) [e.boundCos, e.boundId] = [e.cos[n], e.ids[n]];
      }
    }
  }

  /**
   * The walk's step: the best `k` neighbours of `parent` not `closed`, by cosine × scope factor
   * (ties id asc), as [slot, cosine, factor]; null when the cached list cannot certify the answer.
   */
  pick(parent: number, k: number, minCos: number, closed: Uint8Array): [number, number, number][] | null {
    for (let cap = this.cap; ; cap *= 4) {
      const got = this.pickFrom(this.list(parent, minCos, cap), parent, k, closed);
      if (got) return got;
      if (cap >= this.maxCap || cap >= this.store.size) {
        this.stats.fallbacks++;
        return null;
      }
      this.stats.regrown++;
    }
  }

  private pickFrom(e: NeighbourEntry, parent: number, k: number, closed: Uint8Array): [number, number, number][] | null {
    const scope = typeof this.scope === 'function' ? this.scope() : this.scope;
    const pScope = scope[parent];
    const out: { s: number; c: number; f: number; key: number; id: string }[] = [];
    for (let i = 0; i < e.ids.length; i++) {
      const id = e.ids[i];
      const s = this.store.slotOf(id)!;
      if (closed[s]) continue;
      const c = e.cos[i];
      const f = pScope === -1 || scope[s] === -1 || scope[s] === pScope ? 1 : this.crossScope;
      out.push({ s, c, f, key: c * f, id });
    }
    out.sort((a, b) => b.key - a.key || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const top = out.slice(0, k);
    if (!e.complete && (top.length < k || top[top.length - 1].key <= e.boundCos)) return null;
    return top.map((x) => [x.s, x.c, x.f]);
  }
}

function sameRow(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let j = 0; j < a.length; j++) if (a[j] !== b[j]) return false;
  return true;
}
