// The divergence's recent window by creation time (workers/engine-divergence.ts): the ids of the
// engine's meta created in [since, now], in meta's order, from a time-sorted index instead of a
// pass over every memory per recall (issue 13). The index follows meta in place after a change
// (a capture, an edit, a delete): one walk over meta in step with its rows (as the memory table
// does, src/core/pipeline/memory-table.ts), the rows that left or changed time dropped from the
// sorted order and the new ones merged in. Before, any change sorted every memory again on the
// next recall (~50-100 ms at 100k). Dead rows are dropped by a fresh build once they are a quarter
// of the rows.

import type { MemoryId } from '../src/core/types';

type Meta = ReadonlyMap<MemoryId, { createdAt: number }>;

/** Rows in meta's order (dead ones kept until the next build), and the live timed rows sorted by (time, row). */
export class CreatedIndex {
  /** Rows, dead ones included. */
  size = 0;
  readonly ids: MemoryId[] = [];
  private times = new Float64Array(0);
  /** 1: the row is no memory's any more. */
  private dead = new Uint8Array(0);
  private deadRows = 0;
  /** The live rows with a time, by (time, row), and their times (for the binary search). */
  private order = new Int32Array(0);
  private sorted = new Float64Array(0);
  /** Live rows whose time is NaN (every comparison false: the window never excluded them), ascending. */
  private untimed: number[] = [];

  constructor(
    public version: number,
    readonly meta: Meta,
  ) {
    this.grow(meta.size);
    for (const [id, m] of meta) this.append(id, m.createdAt);
    const timed: number[] = [];
    for (let r = 0; r < this.size; r++) (Number.isNaN(this.times[r]) ? this.untimed : timed).push(r);
    const times = this.times;
    timed.sort((a, b) => times[a] - times[b] || a - b);
    this.order = Int32Array.from(timed);
    this.sorted = Float64Array.from(timed, (r) => times[r]);
  }

  /**
   * Brings the index to `meta` as it is now, in place. A Map lists its entries in the order they
   * were first set (an update keeps its place; a new or re-added id comes last), so the walk meets
   * the live rows in order: a row whose id comes next is kept (moved in the order if its time
   * changed), one whose id does not is dead, and what follows the last row is new. Returns false
   * (build a fresh one) when dead rows have grown to a quarter of the rows.
   */
  update(version: number): boolean {
    const rows = this.size;
    const left: number[] = [];
    const came: number[] = [];
    let r = 0;
    for (const [id, m] of this.meta) {
      while (r < rows && (this.dead[r] === 1 || this.ids[r] !== id)) this.kill(r++, left);
      if (r < rows) {
        if (!Object.is(this.times[r], m.createdAt)) {
          left.push(r);
          this.times[r] = m.createdAt;
          came.push(r);
        }
        r++;
      } else came.push(this.append(id, m.createdAt));
    }
    while (r < rows) this.kill(r++, left);
    if (left.length > 0) this.drop(left);
    if (came.length > 0) this.merge(came);
    this.version = version;
    return this.deadRows * 4 <= this.size;
  }

  /** The ids created in [since, now] (a NaN bound excludes nothing, as in a pass over every memory; NaN times are always in), in meta's order. */
  between(since: number, now: number): MemoryId[] {
    const { sorted, order } = this;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi && !Number.isNaN(since)) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid] < since) lo = mid + 1;
      else hi = mid;
    }
    const at: number[] = [...this.untimed];
    const open = Number.isNaN(now);
    for (let k = lo; k < sorted.length && (open || sorted[k] <= now); k++) at.push(order[k]);
    at.sort((a, b) => a - b);
    return at.map((i) => this.ids[i]);
  }

  private append(id: MemoryId, time: number): number {
    const r = this.size++;
    if (r >= this.times.length) this.grow(r + (r >> 2) + 16);
    this.ids[r] = id;
    this.times[r] = time;
    return r;
  }

  private kill(r: number, left: number[]): void {
    if (this.dead[r] === 1) return;
    this.dead[r] = 1;
    this.deadRows++;
    left.push(r);
  }

  /** `rows` leave the sorted order and the untimed list (their old place: found by row, not by time). */
  private drop(rows: number[]): void {
    const gone = new Set(rows);
    this.untimed = this.untimed.filter((r) => !gone.has(r));
    const { order, sorted } = this;
    let w = 0;
    for (let k = 0; k < order.length; k++) {
      if (gone.has(order[k])) continue;
      order[w] = order[k];
      sorted[w++] = sorted[k];
    }
    this.order = order.subarray(0, w);
    this.sorted = sorted.subarray(0, w);
  }

  /** `rows` (new, or moved in time) join the sorted order by (time, row), or the untimed list. */
  private merge(rows: number[]): void {
    const times = this.times;
    const timed: number[] = [];
    for (const r of rows) (Number.isNaN(times[r]) ? this.untimed : timed).push(r);
    this.untimed.sort((a, b) => a - b);
    if (timed.length === 0) return;
    timed.sort((a, b) => times[a] - times[b] || a - b);
    const { order, sorted } = this;
    const n = order.length + timed.length;
    const o = new Int32Array(n);
    const s = new Float64Array(n);
    let i = 0;
    let j = 0;
    for (let k = 0; k < n; k++) {
      // the next of the old order unless the next new row comes before it (by time, then row)
      const takeOld = j >= timed.length || (i < order.length && (sorted[i] < times[timed[j]] || (sorted[i] === times[timed[j]] && order[i] < timed[j])));
      if (takeOld) {
        o[k] = order[i];
        s[k] = sorted[i++];
      } else {
        o[k] = timed[j];
        s[k] = times[timed[j++]];
      }
    }
    this.order = o;
    this.sorted = s;
  }

  private grow(cap: number): void {
    const times = new Float64Array(cap);
    times.set(this.times);
    const dead = new Uint8Array(cap);
    dead.set(this.dead);
    this.times = times;
    this.dead = dead;
  }
}

const indexes = new WeakMap<object, CreatedIndex>();

/**
 * The ids of meta created in [since, now] (NaN times too, as the comparisons they fail never
 * excluded them), in meta's order. `owner` (the engine's hybrid index) holds the index; its
 * `version` moves with every change of meta (the engine changes both together): the index is
 * then brought up to date in place. Another meta map (a new load) builds a new one.
 */
export function createdBetween(owner: { readonly version: number }, meta: Meta, since: number, now: number): MemoryId[] {
  let t = indexes.get(owner);
  if (!t || t.meta !== meta || (t.version !== owner.version && !t.update(owner.version))) indexes.set(owner, (t = new CreatedIndex(owner.version, meta)));
  return t.between(since, now);
}
