// Compact structures for SpaceIndex (issue 13): memories live in dense integer slots, and
// everything hot is a typed array over slots instead of a Map / Set of id strings.
//
//   SlotPostings  key -> the slots holding it (an inverted list), every list a range of one pool.
//                 At 100k memories the Set<string> lists cost ~50 bytes per entry plus the Set's
//                 table, then a typed array per key ~250 bytes; this costs 4 a slot + 12 a key.
//   SlotSet       a set of slots with O(1) add / delete / iteration (dense list + position index).
//   Touched       per-query scratch: a score accumulator per slot and the list of slots touched,
//                 reset after the query in O(touched), so candidate generation never clears N.

import { invalid, type PackReader, type PackWriter } from '../snapshot-pack';

/** Grows `a` to hold at least `n` entries (doubling), keeping its contents. */
export function grown<T extends Int32Array | Float64Array | Uint8Array>(a: T, n: number, make: (n: number) => T): T {
  if (n <= a.length) return a;
  let cap = Math.max(4, a.length);
  while (cap < n) cap *= 2;
  const b = make(cap);
  b.set(a as never);
  return b;
}

/**
 * Every key's list is a range of ONE Int32Array pool (start, length, capacity per list; a Map from
 * key to list number): at 100k memories a typed array and an object per key (~250 bytes, most keys
 * rare) outweighed the 4-byte entries. A full list moves to the pool's end with twice the room
 * (its old range dead); an emptied key's range turns dead and its list number is reused; when the
 * dead outnumber the live the lists are copied together (each with its length as capacity).
 */
export class SlotPostings {
  private readonly listOf = new Map<number, number>();
  private readonly freeLists: number[] = [];
  private lists = 0;
  private start = new Int32Array(0);
  private len = new Int32Array(0);
  private cap = new Int32Array(0);
  private pool = new Int32Array(0);
  private used = 0;
  private dead = 0;

  /** Number of keys with at least one slot. */
  get keys(): number {
    return this.listOf.size;
  }

  /** Bytes of the pool and the per-list index (the Map of keys not counted). */
  get bytes(): number {
    return this.pool.byteLength + this.start.byteLength * 3;
  }

  add(key: number, slot: number): void {
    let l = this.listOf.get(key);
    if (l === undefined) {
      l = this.freeLists.pop() ?? this.lists++;
      if (l >= this.start.length) {
        const n = Math.max(16, this.start.length * 2);
        this.start = grown(this.start, n, (k) => new Int32Array(k));
        this.len = grown(this.len, n, (k) => new Int32Array(k));
        this.cap = grown(this.cap, n, (k) => new Int32Array(k));
      }
      this.listOf.set(key, l);
      this.len[l] = 0;
      this.cap[l] = 0;
    }
    if (this.len[l] === this.cap[l]) this.move(l, Math.max(1, this.cap[l] * 2));
    this.pool[this.start[l] + this.len[l]++] = slot;
  }

  /** Removes `slot` from `key`'s list (swap with the last: lists are unordered); an emptied key goes. */
  delete(key: number, slot: number): void {
    const l = this.listOf.get(key);
    if (l === undefined) return;
    const s = this.start[l];
    const n = this.len[l];
    for (let i = 0; i < n; i++) {
      if (this.pool[s + i] !== slot) continue;
      this.pool[s + i] = this.pool[s + n - 1];
      this.len[l] = n - 1;
      if (n === 1) {
        this.dead += this.cap[l];
        this.cap[l] = 0;
        this.listOf.delete(key);
        this.freeLists.push(l);
      }
      return;
    }
  }

  /** The slots holding `key` (a view; valid until the next change), empty when none. */
  get(key: number): Int32Array {
    const l = this.listOf.get(key);
    return l === undefined ? EMPTY : this.pool.subarray(this.start[l], this.start[l] + this.len[l]);
  }

  /** Every list packed with its length as capacity (after a load: no growth slack, no dead ranges). */
  trim(): void {
    this.compact(0, () => 0);
  }

  /** Into an engine snapshot (src/core/snapshot-pack.ts): the key map as two arrays, the lists' index and pool as they are. */
  pack(w: PackWriter, name: string): void {
    const keys = new Uint32Array(this.listOf.size);
    const lists = new Int32Array(this.listOf.size);
    let i = 0;
    for (const [k, l] of this.listOf) [keys[i], lists[i++]] = [k, l];
    w.put(`${name}.keys`, keys);
    w.put(`${name}.lists`, lists);
    w.put(`${name}.free`, Int32Array.from(this.freeLists));
    w.put(`${name}.start`, this.start.subarray(0, this.lists));
    w.put(`${name}.len`, this.len.subarray(0, this.lists));
    w.put(`${name}.cap`, this.cap.subarray(0, this.lists));
    w.put(`${name}.pool`, this.pool.subarray(0, this.used));
  }

  /** A packed SlotPostings, checked: every list inside the pool, every entry a slot below `slots`, each list number used once. */
  static unpack(r: PackReader, name: string, slots: number): SlotPostings {
    const keys = r.get(`${name}.keys`, 'u32');
    const lists = r.get(`${name}.lists`, 'i32', keys.length);
    const free = r.get(`${name}.free`, 'i32');
    const start = r.get(`${name}.start`, 'i32');
    const n = start.length;
    const len = r.get(`${name}.len`, 'i32', n);
    const cap = r.get(`${name}.cap`, 'i32', n);
    const pool = r.get(`${name}.pool`, 'i32');
    const seen = new Uint8Array(n);
    const p = new SlotPostings();
    let live = 0;
    for (let i = 0; i < keys.length; i++) {
      const l = lists[i];
      if (!(l >= 0 && l < n) || seen[l] || len[l] < 1 || len[l] > cap[l] || start[l] < 0 || start[l] + cap[l] > pool.length) throw invalid(`${name}: a bad list for key ${keys[i]}`);
      for (let j = start[l]; j < start[l] + len[l]; j++) if (!(pool[j] >= 0 && pool[j] < slots)) throw invalid(`${name}: a slot out of range`);
      seen[l] = 1;
      live += cap[l];
      p.listOf.set(keys[i], l);
    }
    for (const l of free) {
      if (!(l >= 0 && l < n) || seen[l] || cap[l] !== 0) throw invalid(`${name}: a bad free list`);
      seen[l] = 1;
      p.freeLists.push(l);
    }
    if (keys.length + free.length !== n || live > pool.length) throw invalid(`${name}: lists unaccounted for`);
    [p.lists, p.start, p.len, p.cap, p.pool, p.used, p.dead] = [n, start, len, cap, pool, pool.length, pool.length - live];
    return p;
  }

  /** List `l` moved to the pool's end with room for `room` slots. */
  private move(l: number, room: number): void {
    if (this.used + room > this.pool.length) {
      if (this.dead > this.used >> 1) this.compact(room);
      if (this.used + room > this.pool.length) {
        let c = Math.max(64, this.pool.length);
        while (c < this.used + room) c = c < 1 << 20 ? c * 2 : Math.ceil(c * 1.25);
        this.pool = grown(this.pool, c, (k) => new Int32Array(k));
      }
    }
    const from = this.start[l];
    this.pool.copyWithin(this.used, from, from + this.len[l]);
    this.dead += this.cap[l];
    this.start[l] = this.used;
    this.cap[l] = room;
    this.used += room;
  }

  /** The live lists copied together (capacity = length), with `extra` free elements after them. */
  private compact(extra: number, slack: (live: number) => number = live8): void {
    let live = 0;
    for (let l = 0; l < this.lists; l++) live += this.cap[l] > 0 ? this.len[l] : 0;
    const next = new Int32Array(live + extra + slack(live));
    let at = 0;
    for (let l = 0; l < this.lists; l++) {
      if (this.cap[l] === 0) continue;
      next.set(this.pool.subarray(this.start[l], this.start[l] + this.len[l]), at);
      this.start[l] = at;
      this.cap[l] = this.len[l];
      at += this.len[l];
    }
    this.pool = next;
    this.used = at;
    this.dead = 0;
  }
}

const EMPTY = new Int32Array(0);
const live8 = (live: number) => live >> 3;

export class SlotSet {
  private list = new Int32Array(4);
  private pos = new Int32Array(4).fill(-1);
  private n = 0;

  get size(): number {
    return this.n;
  }

  has(slot: number): boolean {
    return slot < this.pos.length && this.pos[slot] >= 0;
  }

  add(slot: number): void {
    if (this.has(slot)) return;
    if (slot >= this.pos.length) {
      const old = this.pos.length;
      this.pos = grown(this.pos, slot + 1, (k) => new Int32Array(k));
      this.pos.fill(-1, old);
    }
    this.list = grown(this.list, this.n + 1, (k) => new Int32Array(k));
    this.pos[slot] = this.n;
    this.list[this.n++] = slot;
  }

  delete(slot: number): void {
    if (!this.has(slot)) return;
    const at = this.pos[slot];
    const last = this.list[--this.n];
    this.list[at] = last;
    this.pos[last] = at;
    this.pos[slot] = -1;
  }

  /** A packed SlotSet (its members in their order), checked: distinct slots below `slots`. */
  static unpack(r: PackReader, name: string, slots: number): SlotSet {
    const set = new SlotSet();
    for (const s of r.get(name, 'i32')) {
      if (!(s >= 0 && s < slots) || set.has(s)) throw invalid(`${name}: a bad member`);
      set.add(s);
    }
    return set;
  }

  /** The members (a view, unordered; valid until the next change). */
  slots(): Int32Array {
    return this.list.subarray(0, this.n);
  }
}

/** Per-query accumulator over slots; `reset` clears only what was touched. */
export class Touched {
  acc = new Float64Array(16);
  private mark = new Uint8Array(16);
  list = new Int32Array(16);
  count = 0;

  /** Adds `x` to `slot`'s accumulator, remembering the slot the first time. */
  add(slot: number, x: number): void {
    if (slot >= this.mark.length) {
      this.mark = grown(this.mark, slot + 1, (n) => new Uint8Array(n));
      this.acc = grown(this.acc, slot + 1, (n) => new Float64Array(n));
    }
    if (this.mark[slot] === 0) {
      this.mark[slot] = 1;
      this.list = grown(this.list, this.count + 1, (n) => new Int32Array(n));
      this.list[this.count++] = slot;
    }
    this.acc[slot] += x;
  }

  reset(): void {
    for (let i = 0; i < this.count; i++) {
      const s = this.list[i];
      this.mark[s] = 0;
      this.acc[s] = 0;
    }
    this.count = 0;
  }
}
