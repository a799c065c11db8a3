// Ragged: one value array per slot, all of them in ONE large typed array (issue 13, engine memory).
//
// At 100k memories the space index held each memory's features as their own typed arrays (E2, E3,
// E4, E8, E9, E6 / E13 indices and values, ...): ~180-250 bytes of object and backing-store
// overhead each, more than the values themselves for the small ones. Here a slot's values are a
// range [start, start + len) of one pool; per slot two Int32 (start, -1 = absent; len).
//   set     same length as held: overwritten in place; else the old range turns dead and the new
//           values are appended (the pool grows by x2 below 1M elements, x1.25 above: little slack)
//   delete  the range turns dead
//   compact when dead elements outnumber live ones (and exceed MIN_DEAD), the live ranges are
//           copied into a fresh pool in slot order: O(live), amortised over the deletes that made it
// `view(slot)` is a subarray over the pool: valid until the next set / delete / compact (callers
// read it at once or copy it).

import { invalid, type PackKind, type PackReader, type PackWriter } from '../snapshot-pack';

export type PoolArray = Float32Array | Uint32Array | Uint8Array | Int8Array | Int32Array;

/** Compaction waits for at least this many dead elements (so small indexes never copy). */
export const MIN_DEAD = 4096;

/** The capacity after growing `cap` to hold `need`: x2 while small, x1.25 above 1M elements. */
export function nextCapacity(cap: number, need: number): number {
  let c = Math.max(16, cap);
  while (c < need) c = c < 1 << 20 ? c * 2 : Math.ceil(c * 1.25);
  return c;
}

export class Ragged<T extends PoolArray> {
  private pool: T;
  private used = 0;
  private dead = 0;
  private start = new Int32Array(0);
  private len = new Int32Array(0);

  constructor(private readonly make: (n: number) => T) {
    this.pool = make(0);
  }

  /** Elements held for live slots. */
  get live(): number {
    return this.used - this.dead;
  }

  /** Bytes of the pool (capacity) and the per-slot index. */
  get bytes(): number {
    return this.pool.byteLength + this.start.byteLength + this.len.byteLength;
  }

  /** Slots the index has room for (held or not). */
  get slotCount(): number {
    return this.start.length;
  }

  has(slot: number): boolean {
    return slot < this.start.length && this.start[slot] >= 0;
  }

  length(slot: number): number {
    return this.has(slot) ? this.len[slot] : 0;
  }

  /** Where the slot's values begin in `data()` (-1: absent). */
  offset(slot: number): number {
    return slot < this.start.length ? this.start[slot] : -1;
  }

  /** The pool itself (read with offset / length; valid until the next change). */
  data(): T {
    return this.pool;
  }

  /** The slot's values (a view; valid until the next change), undefined when absent. */
  view(slot: number): T | undefined {
    if (!this.has(slot)) return undefined;
    const s = this.start[slot];
    return this.pool.subarray(s, s + this.len[slot]) as T;
  }

  set(slot: number, values: ArrayLike<number>): void {
    this.ensureSlots(slot + 1);
    const n = values.length;
    if (this.start[slot] >= 0 && this.len[slot] === n) {
      this.pool.set(values, this.start[slot]);
      return;
    }
    this.delete(slot);
    if (this.used + n > this.pool.length) this.regrow(n);
    this.pool.set(values, this.used);
    this.start[slot] = this.used;
    this.len[slot] = n;
    this.used += n;
  }

  delete(slot: number): void {
    if (!this.has(slot)) return;
    this.dead += this.len[slot];
    this.start[slot] = -1;
    this.len[slot] = 0;
    if (this.dead > MIN_DEAD && this.dead > this.live) this.compact();
  }

  /** The live ranges copied into a pool of exactly their size (no slack, no dead elements). */
  trim(): void {
    this.compact(0);
  }

  /** Into an engine snapshot (src/core/snapshot-pack.ts): the pool's used part and the per-slot index, as they are. */
  pack(w: PackWriter, name: string): void {
    w.put(`${name}.pool`, this.pool.subarray(0, this.used));
    w.put(`${name}.start`, this.start);
    w.put(`${name}.len`, this.len);
  }

  /** Views of a packed Ragged, checked: every range inside the pool, only slots `live` says are held. */
  static unpack<T extends PoolArray>(r: PackReader, name: string, kind: PackKind, make: (n: number) => T, live: (slot: number) => boolean): Ragged<T> {
    const pool = r.get(`${name}.pool`, kind) as unknown as T;
    const start = r.get(`${name}.start`, 'i32');
    const len = r.get(`${name}.len`, 'i32', start.length);
    let held = 0;
    for (let s = 0; s < start.length; s++) {
      if (start[s] < 0) {
        if (start[s] !== -1 || len[s] !== 0) throw invalid(`${name}: a bad empty slot ${s}`);
        continue;
      }
      if (len[s] < 0 || start[s] + len[s] > pool.length || !live(s)) throw invalid(`${name}: a bad range at slot ${s}`);
      held += len[s];
    }
    if (held > pool.length) throw invalid(`${name}: overlapping ranges`);
    const g = new Ragged(make);
    g.pool = pool;
    g.used = pool.length;
    g.dead = pool.length - held;
    g.start = start;
    g.len = len;
    return g;
  }

  private compact(extra = this.live >> 3): void {
    const next = this.make(this.live + extra);
    let at = 0;
    for (let s = 0; s < this.start.length; s++) {
      const from = this.start[s];
      if (from < 0) continue;
      const n = this.len[s];
      next.set(this.pool.subarray(from, from + n), at);
      this.start[s] = at;
      at += n;
    }
    this.pool = next;
    this.used = at;
    this.dead = 0;
  }

  /** Room to append `n` elements: compacting when the dead make room, else a larger pool. */
  private regrow(n: number): void {
    if (this.dead >= n && this.dead > this.live >> 2) {
      this.compact(Math.max(n, this.live >> 3));
      return;
    }
    const next = this.make(nextCapacity(this.pool.length, this.used + n));
    next.set(this.pool.subarray(0, this.used));
    this.pool = next;
  }

  private ensureSlots(n: number): void {
    if (n <= this.start.length) return;
    const cap = nextCapacity(this.start.length, n);
    const s = new Int32Array(cap).fill(-1);
    s.set(this.start);
    const l = new Int32Array(cap);
    l.set(this.len);
    this.start = s;
    this.len = l;
  }
}
