// Every memory as columns (issue 13): the status gate's fields, importance, creation time, the
// tags as interned ids and each memory's row in the neighbour matrix, in typed arrays. The two
// stages that look at every memory per query (the lateral pass: the profile's specificity counts
// and the tag sharers; the associative walk: which memories it may reach) read these instead of
// one Map lookup and one document object per memory. Kept beside the hybrid index and brought up
// to date on the first lateral or associative query after a change (its `version`): in place, by
// one walk over the index's docs in step with the rows (no lookup per memory; a capture appends a
// row, an edit rewrites its row, a delete leaves a dead row the gate refuses), so a write costs the
// next query that walk, not a build of the whole table (issue 13); the rows' places in the
// neighbour matrix follow the changed rows and memories alone (`matrixRows`). Dead rows and dead tag ranges
// are dropped by a fresh build once they are a quarter of the table.

import type { NeighbourMatrix, RecallDoc } from '../recall';
import type { StatusGate } from '../status';
import type { MemoryId } from '../types';

/** What the table is built from (the pipeline's HybridIndex). */
export interface TableSource {
  /** Changes whenever a document or a vector is added, replaced or removed. */
  readonly version: number;
  /** How many docs there are (the first build sizes its columns by it: no growth slack). */
  readonly size?: number;
  forEachDoc(fn: (doc: RecallDoc, id: MemoryId) => void): void;
}

const STATUS: Record<string, number> = { active: 0, quarantined: 1, archived: 2 };
const UNKNOWN_STATUS = 3;

export class MemoryTable {
  /** Rows, dead ones included (a dead row: `recallable` is false for every gate, `rowOf` skips it). */
  size = 0;
  readonly ids: MemoryId[] = [];
  /** The stored docs themselves (read only), for the few memories a stage keeps. */
  readonly docs: RecallDoc[] = [];
  readonly rowOf = new Map<MemoryId, number>();
  importance = new Float64Array(0);
  createdAt = new Float64Array(0);
  /** Row r's tags (accepted, then suggested) are tagIds[tagStart[r] .. tagEnd[r]). */
  tagStart = new Int32Array(0);
  tagEnd = new Int32Array(0);
  tagIds = new Int32Array(0);
  readonly tagIndex = new Map<string, number>();
  /** Rows with supersededBy set (an earlier version: the walk and lateral check its memory). */
  superseded = new Int32Array(0);
  /** Scratch of the stages, one row each (reused across queries: no allocation over N per query). */
  scratchA = new Int32Array(0);
  scratchB = new Int32Array(0);
  marks = new Uint8Array(0);
  /** One word per tag (the lateral pass's query-tag bits), zero between queries. */
  tagBits = new Int32Array(0);
  /** Rows no memory holds any more, and tag entries no row reads. */
  private dead = 0;
  private deadTags = 0;
  private tagsUsed = 0;
  private status = new Uint8Array(0);
  private deleted = new Uint8Array(0);
  /** validFrom / validTo, and whether each is set (absent from = since always, absent to = open). */
  private from = new Float64Array(0);
  private to = new Float64Array(0);
  private hasFrom = new Uint8Array(0);
  private hasTo = new Uint8Array(0);
  private matrix: NeighbourMatrix | null = null;
  private matrixVersion: number | undefined;
  private rows: Int32Array = new Int32Array(0);
  /** Rows appended or killed since `rows` was computed (their matrix row is computed again). */
  private moved: number[] = [];

  constructor(
    public version: number,
    src: TableSource,
  ) {
    const superseded: number[] = [];
    this.grow(Math.max(16, src.size ?? 0));
    src.forEachDoc((d, id) => this.append(d, id, superseded));
    this.finish(superseded);
  }

  /**
   * Brings the table to `src` as it is now, in place. The source lists its docs in the order they
   * were first added (a Map's order: an edit keeps its place, a new or re-added memory comes last),
   * so the walk meets the table's live rows in the same order: a row whose memory comes next is
   * kept (rewritten when its doc changed), one whose memory does not is dead (deleted, or re-added
   * at the end), and what follows the last row is new. Returns false (nothing usable: build a fresh
   * table) when dead rows or tag entries have grown to a quarter of the table.
   */
  update(src: TableSource): boolean {
    const superseded: number[] = [];
    const rows = this.size;
    let r = 0;
    src.forEachDoc((d, id) => {
      while (r < rows && (this.deleted[r] === 2 || this.ids[r] !== id)) this.kill(r++);
      if (r < rows) {
        if (this.docs[r] !== d) this.write(r, d);
        if (d.supersededBy !== undefined) superseded.push(r);
        r++;
      } else this.append(d, id, superseded);
    });
    while (r < rows) this.kill(r++);
    this.finish(superseded);
    this.version = src.version;
    return this.dead * 4 <= this.size && this.deadTags * 4 <= this.tagsUsed;
  }

  /** `isRecallable(docs[r], gate)` (src/core/status.ts), from the columns. */
  recallable(r: number, gate: StatusGate): boolean {
    if (this.deleted[r] !== 0) return false;
    const s = this.status[r];
    if (s !== 0 && !(s === 1 ? gate.includeQuarantined === true : s === 2 ? gate.includeArchived === true : false)) return false;
    const asOf = gate.asOf;
    if (asOf === undefined || asOf === null) return true;
    if (this.hasFrom[r] === 1 && !(this.from[r] <= asOf)) return false;
    return this.hasTo[r] === 0 || asOf < this.to[r];
  }

  /**
   * Each row's row in `m` (-1: no vector there, or a dead row; entries from `size` on are not
   * rows). Computed once per matrix, then kept in step: after a change only the rows the table
   * appended or killed and the memories whose matrix row moved (`m.changedSince`, a live matrix)
   * are looked up again, not every memory (100k lookups after each capture, issue 13).
   */
  matrixRows(m: NeighbourMatrix): Int32Array {
    const same = this.matrix === m && (m.version === this.matrixVersion || (this.matrixVersion !== undefined && m.changedSince !== undefined));
    const changed = !same ? null : m.version === this.matrixVersion ? [] : m.changedSince!(this.matrixVersion!);
    if (changed === null || this.moved.length + changed.length > this.size >> 2) {
      const rows = new Int32Array(this.size);
      for (let r = 0; r < this.size; r++) rows[r] = this.deleted[r] === 2 ? -1 : (m.indexOf.get(this.ids[r]) ?? -1);
      this.rows = rows;
    } else {
      if (this.rows.length < this.size) this.rows = grownInt32(this.rows, this.size + (this.size >> 3));
      const rows = this.rows;
      for (const r of this.moved) rows[r] = this.deleted[r] === 2 ? -1 : (m.indexOf.get(this.ids[r]) ?? -1);
      for (const id of changed) {
        const r = this.rowOf.get(id);
        if (r !== undefined) rows[r] = m.indexOf.get(id) ?? -1;
      }
    }
    this.moved = [];
    this.matrix = m;
    this.matrixVersion = m.version;
    return this.rows;
  }

  private append(d: RecallDoc, id: MemoryId, superseded: number[]): void {
    const r = this.size++;
    if (r >= this.importance.length) this.grow(r + (r >> 2) + 16); // a quarter more: captures after a 100k load add little
    this.rowOf.set(id, r);
    this.ids[r] = id;
    if (this.matrix) this.moved.push(r);
    this.write(r, d);
    if (d.supersededBy !== undefined) superseded.push(r);
  }

  /** Row r holds `d` (its tags appended to the pool; the old range, if any, is dead). */
  private write(r: number, d: RecallDoc): void {
    this.docs[r] = d;
    this.importance[r] = d.importance;
    this.createdAt[r] = d.createdAt;
    this.status[r] = STATUS[d.status] ?? UNKNOWN_STATUS;
    this.deleted[r] = d.deletedAt != null ? 1 : 0;
    this.hasFrom[r] = d.validFrom !== undefined ? 1 : 0;
    this.from[r] = d.validFrom ?? 0;
    const to = d.validTo;
    this.hasTo[r] = to !== undefined && to !== null ? 1 : 0;
    this.to[r] = to ?? 0;
    this.deadTags += this.tagEnd[r] - this.tagStart[r];
    this.tagStart[r] = this.tagsUsed;
    for (const t of d.tags) this.intern(t);
    if (d.suggestedTags) for (const t of d.suggestedTags) this.intern(t);
    this.tagEnd[r] = this.tagsUsed;
  }

  private intern(t: string): void {
    let k = this.tagIndex.get(t);
    if (k === undefined) this.tagIndex.set(t, (k = this.tagIndex.size));
    if (this.tagsUsed === this.tagIds.length) this.tagIds = grownInt32(this.tagIds, Math.max(64, this.tagsUsed * 2));
    this.tagIds[this.tagsUsed++] = k;
  }

  /** Row r is no memory's any more (2 in `deleted`: refused by every gate, skipped by the walk). */
  private kill(r: number): void {
    if (this.deleted[r] === 2) return;
    this.deleted[r] = 2;
    this.dead++;
    if (this.matrix) this.moved.push(r);
    this.deadTags += this.tagEnd[r] - this.tagStart[r];
    this.tagEnd[r] = this.tagStart[r];
    if (this.rowOf.get(this.ids[r]) === r) this.rowOf.delete(this.ids[r]);
  }

  private finish(superseded: number[]): void {
    this.superseded = Int32Array.from(superseded);
    if (this.scratchA.length < this.size) {
      this.scratchA = new Int32Array(this.importance.length);
      this.scratchB = new Int32Array(this.importance.length);
      this.marks = new Uint8Array(this.importance.length);
    }
    if (this.tagBits.length < this.tagIndex.size) this.tagBits = new Int32Array(Math.max(16, this.tagIndex.size * 2));
  }

  private grow(cap: number): void {
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(cap);
      b.set(a);
      return b;
    };
    const u8 = (a: Uint8Array) => {
      const b = new Uint8Array(cap);
      b.set(a);
      return b;
    };
    [this.importance, this.createdAt, this.from, this.to] = [f64(this.importance), f64(this.createdAt), f64(this.from), f64(this.to)];
    [this.status, this.deleted, this.hasFrom, this.hasTo] = [u8(this.status), u8(this.deleted), u8(this.hasFrom), u8(this.hasTo)];
    this.tagStart = grownInt32(this.tagStart, cap);
    this.tagEnd = grownInt32(this.tagEnd, cap);
  }
}

function grownInt32(a: Int32Array, cap: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(cap);
  b.set(a);
  return b;
}

const tables = new WeakMap<TableSource, MemoryTable>();

/** The table of `src` as it is now: built on first use, brought up to date in place after a change, then reused. */
export function memoryTable(src: TableSource): MemoryTable {
  let t = tables.get(src);
  if (!t || (t.version !== src.version && !t.update(src))) tables.set(src, (t = new MemoryTable(src.version, src)));
  return t;
}
