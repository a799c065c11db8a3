// E12 token rows interned (issue 13, engine memory). A memory's E12 rows are word vectors of a
// fixed vocabulary (src/core/features/late.ts), quantised at rest to int8 steps of 1/127
// (serializeSpace), so the same word gives the same bytes in every memory that uses it. Held per
// memory they were the largest part of the engine at 100k (~1.7 KB a memory as int8: 165 MB); here
// each distinct row is held once (refcounted, its slot reused when the last memory using it goes)
// and a memory holds the ids of its rows (4 bytes a token). MaxSim decodes a memory's rows into a
// reused scratch with unitFromPacked's arithmetic (unitRowsInto), as it decoded the packed bytes
// before, so it gives the very same value (tested against unitMaxsim of the unpacked rows).

import type { TokenMatrix } from '../spaces';
import type { UnitTokens } from './unit-tokens';
import { nextCapacity } from './ragged';
import { invalid, type PackReader, type PackWriter } from '../snapshot-pack';

export class TokenDict {
  readonly dim: number;
  private codes = new Int8Array(0);
  /** 1 where the row is non-zero. */
  live = new Uint8Array(0);
  private refs = new Int32Array(0);
  private next = new Int32Array(0);
  private hashOf = new Int32Array(0);
  private readonly heads = new Map<number, number>();
  private readonly free: number[] = [];
  private count = 0;

  constructor(dim: number) {
    this.dim = dim;
  }

  /** Distinct rows held. */
  get size(): number {
    return this.count - this.free.length;
  }

  get bytes(): number {
    return this.codes.byteLength + this.live.byteLength + this.refs.byteLength * 3;
  }

  /** The id of the row `q[at .. at + dim)` (interned: one more reference). */
  add(q: Int8Array, at: number): number {
    const d = this.dim;
    let h = 2166136261;
    for (let k = 0; k < d; k++) h = Math.imul(h ^ (q[at + k] & 0xff), 16777619);
    h &= 0x3fffffff; // a small integer: the Map's key needs no boxed number (issue 13: a load's E12 interning)
    const codes = this.codes;
    for (let id = this.heads.get(h) ?? -1; id >= 0; id = this.next[id]) {
      let k = 0;
      const base = id * d;
      while (k < d && codes[base + k] === q[at + k]) k++;
      if (k === d) {
        this.refs[id]++;
        return id;
      }
    }
    const id = this.free.pop() ?? this.count++;
    this.ensure(id + 1);
    this.codes.set(q.subarray(at, at + d), id * d);
    let nz = 0;
    for (let k = 0; k < d; k++) nz |= q[at + k];
    this.live[id] = nz !== 0 ? 1 : 0;
    this.refs[id] = 1;
    this.hashOf[id] = h;
    this.next[id] = this.heads.get(h) ?? -1;
    this.heads.set(h, id);
    return id;
  }

  /** One reference less; the row's slot is reused once none is left. */
  release(id: number): void {
    if (--this.refs[id] > 0) return;
    const h = this.hashOf[id];
    let at = this.heads.get(h) ?? -1;
    if (at === id) {
      if (this.next[id] >= 0) this.heads.set(h, this.next[id]);
      else this.heads.delete(h);
    } else {
      while (at >= 0 && this.next[at] !== id) at = this.next[at];
      if (at >= 0) this.next[at] = this.next[id];
    }
    this.free.push(id);
  }

  /** Row `id` normalised as unitFromPacked does it, into `out` at `o`; its live flag into `live[r]`. */
  unitRow(id: number, out: Float32Array, o: number, live: Uint8Array, r: number): void {
    const d = this.dim;
    const base = id * d;
    let ss = 0;
    for (let k = 0; k < d; k++) {
      const x = Math.fround(this.codes[base + k] / 127);
      ss += x * x;
    }
    live[r] = ss > 0 ? 1 : 0;
    if (ss > 0) {
      const inv = 1 / Math.sqrt(ss);
      for (let k = 0; k < d; k++) out[o + k] = Math.fround(this.codes[base + k] / 127) * inv;
    }
  }

  /** The rows `ids` as unpackTokens gives them (q / 127 in f32). */
  matrix(ids: ArrayLike<number>): TokenMatrix {
    const d = this.dim;
    const data = new Float32Array(ids.length * d);
    for (let r = 0; r < ids.length; r++) for (let k = 0; k < d; k++) data[r * d + k] = this.codes[ids[r] * d + k] / 127;
    return { rows: ids.length, dim: d, data };
  }

  /** Into an engine snapshot (src/core/snapshot-pack.ts): the rows and their chains as they are. */
  pack(w: PackWriter, name: string): void {
    const n = this.count;
    w.meta[`${name}.dim`] = this.dim;
    w.put(`${name}.codes`, this.codes.subarray(0, n * this.dim));
    w.put(`${name}.live`, this.live.subarray(0, n));
    w.put(`${name}.refs`, this.refs.subarray(0, n));
    w.put(`${name}.next`, this.next.subarray(0, n));
    w.put(`${name}.hash`, this.hashOf.subarray(0, n));
    w.put(`${name}.heads`, Int32Array.from(this.heads.keys()));
    w.put(`${name}.first`, Int32Array.from(this.heads.values()));
    w.put(`${name}.free`, Int32Array.from(this.free));
  }

  /** A packed TokenDict, checked: every chain and free id a row it holds. */
  static unpack(r: PackReader, name: string): TokenDict {
    const d = new TokenDict(r.num(`${name}.dim`));
    const refs = r.get(`${name}.refs`, 'i32');
    const n = refs.length;
    const next = r.get(`${name}.next`, 'i32', n);
    const heads = r.get(`${name}.heads`, 'i32');
    const first = r.get(`${name}.first`, 'i32', heads.length);
    const inRange = (id: number) => id >= 0 && id < n;
    for (let i = 0; i < n; i++) if (!(next[i] === -1 || inRange(next[i]))) throw invalid(`${name}: a bad chain`);
    for (let i = 0; i < heads.length; i++) {
      if (!inRange(first[i])) throw invalid(`${name}: a bad chain head`);
      d.heads.set(heads[i], first[i]);
    }
    for (const id of r.get(`${name}.free`, 'i32')) {
      if (!inRange(id)) throw invalid(`${name}: a bad free row`);
      d.free.push(id);
    }
    [d.codes, d.live, d.refs, d.next, d.hashOf, d.count] = [r.get(`${name}.codes`, 'i8', n * d.dim), r.get(`${name}.live`, 'u8', n), refs, next, r.get(`${name}.hash`, 'i32', n), n];
    return d;
  }

  /** Whether `id` is a row this dictionary holds (unpacked ids are checked against it). */
  holds(id: number): boolean {
    return id < this.count && this.refs[id] > 0;
  }

  private ensure(n: number): void {
    if (n <= this.refs.length) return;
    const cap = nextCapacity(this.refs.length, n);
    const d = this.dim;
    const grow = <T extends Int8Array | Float32Array | Uint8Array | Int32Array>(a: T, len: number, make: (k: number) => T): T => {
      const b = make(len);
      b.set(a as never);
      return b;
    };
    this.codes = grow(this.codes, cap * d, (k) => new Int8Array(k));
    this.live = grow(this.live, cap, (k) => new Uint8Array(k));
    this.refs = grow(this.refs, cap, (k) => new Int32Array(k));
    this.next = grow(this.next, cap, (k) => new Int32Array(k));
    this.hashOf = grow(this.hashOf, cap, (k) => new Int32Array(k));
  }
}

/**
 * The unit rows of a memory held as dictionary ids `ids[at .. at + n)`, decoded into `into` when it
 * is large enough (a scratch reused per similarity), with unitFromPacked's arithmetic: the same
 * f32 values as before the rows were interned, so unitMaxsim gives the same value.
 */
export function unitRowsInto(dict: TokenDict, ids: Uint32Array, at: number, n: number, into?: UnitTokens): UnitTokens {
  const dim = dict.dim;
  const size = n * dim;
  const data = into && into.data.length >= size ? into.data : new Float32Array(Math.max(size, 64 * dim));
  const live = into && into.live.length >= n ? into.live : new Uint8Array(Math.max(n, 64));
  for (let r = 0; r < n; r++) dict.unitRow(ids[at + r], data, r * dim, live, r);
  return { rows: n, dim, data, live, finite: true };
}
