// Neighbour lists for the associative walk, from the dense store instead of a fresh full f32 pass
// per expanded memory. For a memory (slot) and a minimum cosine, the store's certified int8 short
// list is rescored in f32 and the best `cap` neighbours with cosine >= minCos are kept, sorted
// (cosine desc, id asc), and cached until the store changes. A hop then picks its `beam` best
// unvisited, eligible neighbours by cosine × scope factor from the list. That pick is exactly
// the full scan's whenever the list is complete (fewer than `cap` qualify) or the beam-th key
// is above the list's lowest cosine (a memory outside the list has at most that cosine, hence at
// most that key); otherwise `pick` answers null and the caller falls back to its full scan.

import type { DenseStore } from './store';

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

/** Lists kept at most (a list holds 32 neighbours, more after a regrowth: ~0.4-25 KB). */
const MAX_CACHED = 2048;

interface Entry {
  /** The list length asked for. */
  cap: number;
  slots: Int32Array;
  cos: Float64Array;
  /** Every memory with cosine >= minCos is in the list. */
  complete: boolean;
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
}

export class NeighbourLists {
  readonly stats: NeighbourStats = { computed: 0, cached: 0, fallbacks: 0, regrown: 0 };
  private readonly cache = new Map<number, Entry>();
  private version: number;
  private minCos = NaN;

  /**
   * `scope`: per slot the interned scope (session) or -1; `crossScope`: the factor of a neighbour in
   * another scope than its parent (both as in the walk); `cap`: list length first kept per memory,
   * regrown ×4 up to `maxCap` when a pick cannot be certified from it (the walk closes the
   * memories it visits, so inside a dense cluster the first list runs out).
   */
  constructor(
    private readonly store: DenseStore,
    private readonly scope: Int32Array,
    private readonly crossScope: number,
    private readonly cap = 32,
    private readonly maxCap = 2048,
    private readonly maxCached = MAX_CACHED,
  ) {
    this.version = store.version;
  }

  /** The best neighbours of `slot` with cosine >= minCos (cached). Needs the store's f32 rows. */
  list(slot: number, minCos: number, cap = this.cap): Entry {
    if (this.version !== this.store.version || this.minCos !== minCos) {
      this.cache.clear();
      this.version = this.store.version;
      this.minCos = minCos;
    }
    const hit = this.cache.get(slot);
    if (hit && (hit.complete || hit.cap >= cap)) {
      this.stats.cached++;
      // the most recently used last (a Map keeps insertion order): the least recently used goes first
      this.cache.delete(slot);
      this.cache.set(slot, hit);
      return hit;
    }
    const data = this.store.floatRows();
    if (!data) throw new RangeError('NeighbourLists needs a store that keeps its f32 rows');
    const dim = this.store.dim;
    const p = this.store.prepare(data.slice(slot * dim, slot * dim + dim));
    const short = this.store.shortlist(p, cap, { minScore: minCos, accept: (s) => s !== slot });
    const cand: { s: number; c: number; id: string }[] = [];
    for (const s of short) {
      const c = cosRows(data, slot, s, dim);
      if (c >= minCos) cand.push({ s, c, id: this.store.idAt(s) });
    }
    cand.sort((a, b) => b.c - a.c || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const keep = cand.slice(0, cap);
    const e: Entry = {
      cap,
      slots: Int32Array.from(keep, (x) => x.s),
      cos: Float64Array.from(keep, (x) => x.c),
      complete: cand.length < cap,
    };
    this.stats.computed++;
    // bounded: the engine keeps these across queries; past MAX_CACHED the least recently used goes
    // (it cleared them all: a query, or its refinement, just after the clear met every list cold)
    this.cache.delete(slot);
    if (this.cache.size >= this.maxCached) this.cache.delete(this.cache.keys().next().value as number);
    this.cache.set(slot, e);
    return e;
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

  private pickFrom(e: Entry, parent: number, k: number, closed: Uint8Array): [number, number, number][] | null {
    const pScope = this.scope[parent];
    const out: { s: number; c: number; f: number; key: number; id: string }[] = [];
    for (let i = 0; i < e.slots.length; i++) {
      const s = e.slots[i];
      if (closed[s]) continue;
      const c = e.cos[i];
      const f = pScope === -1 || this.scope[s] === -1 || this.scope[s] === pScope ? 1 : this.crossScope;
      out.push({ s, c, f, key: c * f, id: this.store.idAt(s) });
    }
    out.sort((a, b) => b.key - a.key || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const top = out.slice(0, k);
    if (!e.complete) {
      const lowest = e.cos.length > 0 ? e.cos[e.cos.length - 1] : Infinity;
      if (top.length < k || top[top.length - 1].key <= lowest) return null;
    }
    return top.map((x) => [x.s, x.c, x.f]);
  }
}
