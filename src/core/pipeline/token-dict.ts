// E12 token rows interned (issue 13, engine memory). A memory's E12 rows are word vectors of a
// fixed vocabulary (src/core/features/late.ts), quantised at rest to int8 steps of 1/127
// (serializeSpace), so the same word gives the same bytes in every memory that uses it. Held per
// memory they were the largest part of the engine at 100k (~1.7 KB a memory as int8: 165 MB); here
// each distinct row is held once (refcounted, its slot reused when the last memory using it goes)
// and a memory holds the ids of its rows (4 bytes a token). Each distinct row also keeps its unit
// f32 form, computed with unitFromPacked's arithmetic, so MaxSim reads it with no per-use decode
// and gives the very same value (maxsimIds vs unitMaxsim, tested).

import type { TokenMatrix } from '../spaces';
import type { UnitTokens } from './unit-tokens';
import { nextCapacity } from './ragged';

export class TokenDict {
  readonly dim: number;
  private codes = new Int8Array(0);
  /** The unit f32 form of each row (unitFromPacked's values), dim per row. */
  unit = new Float32Array(0);
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
    return this.codes.byteLength + this.unit.byteLength + this.live.byteLength + this.refs.byteLength * 3;
  }

  /** The id of the row `q[at .. at + dim)` (interned: one more reference). */
  add(q: Int8Array, at: number): number {
    const d = this.dim;
    let h = 2166136261;
    for (let k = 0; k < d; k++) h = Math.imul(h ^ (q[at + k] & 0xff), 16777619);
    for (let id = this.heads.get(h) ?? -1; id >= 0; id = this.next[id]) {
      let same = true;
      for (let k = 0; k < d && same; k++) same = this.codes[id * d + k] === q[at + k];
      if (same) {
        this.refs[id]++;
        return id;
      }
    }
    const id = this.free.pop() ?? this.count++;
    this.ensure(id + 1);
    this.codes.set(q.subarray(at, at + d), id * d);
    // unitFromPacked's arithmetic, row by row (so the same f32 values)
    let ss = 0;
    for (let k = 0; k < d; k++) {
      const x = Math.fround(q[at + k] / 127);
      ss += x * x;
    }
    this.live[id] = ss > 0 ? 1 : 0;
    if (ss > 0) {
      const inv = 1 / Math.sqrt(ss);
      for (let k = 0; k < d; k++) this.unit[id * d + k] = Math.fround(q[at + k] / 127) * inv;
    } else this.unit.fill(0, id * d, id * d + d);
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

  /** The rows `ids` as unpackTokens gives them (q / 127 in f32). */
  matrix(ids: ArrayLike<number>): TokenMatrix {
    const d = this.dim;
    const data = new Float32Array(ids.length * d);
    for (let r = 0; r < ids.length; r++) for (let k = 0; k < d; k++) data[r * d + k] = this.codes[ids[r] * d + k] / 127;
    return { rows: ids.length, dim: d, data };
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
    this.unit = grow(this.unit, cap * d, (k) => new Float32Array(k));
    this.live = grow(this.live, cap, (k) => new Uint8Array(k));
    this.refs = grow(this.refs, cap, (k) => new Int32Array(k));
    this.next = grow(this.next, cap, (k) => new Int32Array(k));
    this.hashOf = grow(this.hashOf, cap, (k) => new Int32Array(k));
  }
}

/**
 * unitMaxsim(query, memory) for a memory held as dictionary row ids `ids[at .. at + n)`: the same
 * loops in the same orientation (the side with fewer rows outside, the query on ties) and the
 * same summation, so the same value.
 */
export function maxsimIds(a: UnitTokens, dict: TokenDict, ids: Int32Array | Uint32Array, at: number, n: number): number {
  if (a.rows === 0 || n === 0 || a.dim !== dict.dim) return 0;
  if (!a.finite) return 0;
  const dim = a.dim;
  const u = dict.unit;
  const live = dict.live;
  let sum = 0;
  let counted = 0;
  if (n < a.rows) {
    // the memory outside (unitMaxsim swaps when b.rows < a.rows)
    for (let i = 0; i < n; i++) {
      const r = ids[at + i];
      if (!live[r]) continue;
      let best = -1;
      const qo = r * dim;
      for (let j = 0; j < a.rows; j++) {
        if (!a.live[j]) continue;
        const doff = j * dim;
        let dot = 0;
        for (let k = 0; k < dim; k++) dot += u[qo + k] * a.data[doff + k];
        if (dot > best) best = dot;
      }
      sum += Math.max(-1, Math.min(1, best));
      counted++;
    }
  } else {
    for (let i = 0; i < a.rows; i++) {
      if (!a.live[i]) continue;
      let best = -1;
      const qo = i * dim;
      for (let j = 0; j < n; j++) {
        const r = ids[at + j];
        if (!live[r]) continue;
        const doff = r * dim;
        let dot = 0;
        for (let k = 0; k < dim; k++) dot += a.data[qo + k] * u[doff + k];
        if (dot > best) best = dot;
      }
      sum += Math.max(-1, Math.min(1, best));
      counted++;
    }
  }
  return counted > 0 ? sum / counted : 0;
}
