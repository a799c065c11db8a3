// Compact structures for SpaceIndex (issue 13): memories live in dense integer slots, and
// everything hot is a typed array over slots instead of a Map / Set of id strings.
//
//   SlotPostings  key -> growable Int32Array of slots (an inverted list). At 100k memories the
//                 Set<string> lists cost ~50 bytes per entry plus the Set's table; this costs 4.
//   SlotSet       a set of slots with O(1) add / delete / iteration (dense list + position index).
//   Touched       per-query scratch: a score accumulator per slot and the list of slots touched,
//                 reset after the query in O(touched), so candidate generation never clears N.

/** Grows `a` to hold at least `n` entries (doubling), keeping its contents. */
export function grown<T extends Int32Array | Float64Array | Uint8Array>(a: T, n: number, make: (n: number) => T): T {
  if (n <= a.length) return a;
  let cap = Math.max(4, a.length);
  while (cap < n) cap *= 2;
  const b = make(cap);
  b.set(a as never);
  return b;
}

interface List {
  slots: Int32Array;
  len: number;
}

export class SlotPostings {
  private readonly lists = new Map<number, List>();

  /** Number of keys with at least one slot. */
  get keys(): number {
    return this.lists.size;
  }

  add(key: number, slot: number): void {
    let l = this.lists.get(key);
    if (!l) this.lists.set(key, (l = { slots: new Int32Array(2), len: 0 }));
    if (l.len === l.slots.length) l.slots = grown(l.slots, l.len + 1, (n) => new Int32Array(n));
    l.slots[l.len++] = slot;
  }

  /** Removes `slot` from `key`'s list (swap with the last: lists are unordered); an emptied key goes. */
  delete(key: number, slot: number): void {
    const l = this.lists.get(key);
    if (!l) return;
    for (let i = 0; i < l.len; i++) {
      if (l.slots[i] !== slot) continue;
      l.slots[i] = l.slots[--l.len];
      if (l.len === 0) this.lists.delete(key);
      return;
    }
  }

  /** The slots holding `key` (a view; valid until the next change), empty when none. */
  get(key: number): Int32Array {
    const l = this.lists.get(key);
    return l ? l.slots.subarray(0, l.len) : EMPTY;
  }
}

const EMPTY = new Int32Array(0);

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
