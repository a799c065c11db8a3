// Every memory as columns (issue 13): the status gate's fields, importance, creation time, the
// tags as interned ids and each memory's row in the neighbour matrix, in typed arrays. The two
// stages that look at every memory per query (the lateral pass: the profile's specificity counts
// and the tag sharers; the associative walk: which memories it may reach) read these instead of
// one Map lookup and one document object per memory. Built once per state of the hybrid index
// (its `version`) and kept beside it, so a query pays nothing for it; any change builds it again
// on the next lateral or associative query (the engine drops its neighbour matrix then as well).

import type { NeighbourMatrix, RecallDoc } from '../recall';
import type { StatusGate } from '../status';
import type { MemoryId } from '../types';

/** What the table is built from (the pipeline's HybridIndex). */
export interface TableSource {
  /** Changes whenever a document or a vector is added, replaced or removed. */
  readonly version: number;
  forEachDoc(fn: (doc: RecallDoc, id: MemoryId) => void): void;
}

const STATUS: Record<string, number> = { active: 0, quarantined: 1, archived: 2 };
const UNKNOWN_STATUS = 3;

export class MemoryTable {
  readonly size: number;
  readonly ids: MemoryId[] = [];
  /** The stored docs themselves (read only), for the few memories a stage keeps. */
  readonly docs: RecallDoc[] = [];
  readonly rowOf = new Map<MemoryId, number>();
  readonly importance: Float64Array;
  readonly createdAt: Float64Array;
  /** Row r's tags (accepted, then suggested) are tagIds[tagStart[r] .. tagStart[r + 1]). */
  readonly tagStart: Int32Array;
  readonly tagIds: Int32Array;
  readonly tagIndex = new Map<string, number>();
  /** Rows with supersededBy set (an earlier version: the walk and lateral check its memory). */
  readonly superseded: Int32Array;
  private readonly status: Uint8Array;
  private readonly deleted: Uint8Array;
  /** validFrom / validTo, and whether each is set (absent from = since always, absent to = open). */
  private readonly from: Float64Array;
  private readonly to: Float64Array;
  private readonly hasFrom: Uint8Array;
  private readonly hasTo: Uint8Array;
  private matrix: NeighbourMatrix | null = null;
  private rows: Int32Array = new Int32Array(0);
  /** Scratch of the stages, one row each (reused across queries: no allocation over N per query). */
  readonly scratchA: Int32Array;
  readonly scratchB: Int32Array;
  readonly marks: Uint8Array;
  /** One word per tag (the lateral pass's query-tag bits), zero between queries. */
  readonly tagBits: Int32Array;

  constructor(readonly version: number, src: TableSource) {
    const docs = this.docs;
    src.forEachDoc((d, id) => {
      this.rowOf.set(id, docs.length);
      this.ids.push(id);
      docs.push(d);
    });
    const n = (this.size = docs.length);
    this.importance = new Float64Array(n);
    this.createdAt = new Float64Array(n);
    this.status = new Uint8Array(n);
    this.deleted = new Uint8Array(n);
    this.from = new Float64Array(n);
    this.to = new Float64Array(n);
    this.hasFrom = new Uint8Array(n);
    this.hasTo = new Uint8Array(n);
    this.tagStart = new Int32Array(n + 1);
    const tags: number[] = [];
    const superseded: number[] = [];
    const intern = (t: string) => {
      let k = this.tagIndex.get(t);
      if (k === undefined) this.tagIndex.set(t, (k = this.tagIndex.size));
      tags.push(k);
    };
    for (let r = 0; r < n; r++) {
      const d = docs[r];
      this.importance[r] = d.importance;
      this.createdAt[r] = d.createdAt;
      this.status[r] = STATUS[d.status] ?? UNKNOWN_STATUS;
      this.deleted[r] = d.deletedAt != null ? 1 : 0;
      if (d.validFrom !== undefined) {
        this.hasFrom[r] = 1;
        this.from[r] = d.validFrom;
      }
      if (d.validTo !== undefined && d.validTo !== null) {
        this.hasTo[r] = 1;
        this.to[r] = d.validTo;
      }
      if (d.supersededBy !== undefined) superseded.push(r);
      for (const t of d.tags) intern(t);
      if (d.suggestedTags) for (const t of d.suggestedTags) intern(t);
      this.tagStart[r + 1] = tags.length;
    }
    this.tagIds = Int32Array.from(tags);
    this.superseded = Int32Array.from(superseded);
    this.scratchA = new Int32Array(n);
    this.scratchB = new Int32Array(n);
    this.marks = new Uint8Array(n);
    this.tagBits = new Int32Array(this.tagIndex.size);
  }

  /** `isRecallable(docs[r], gate)` (src/core/status.ts), from the columns. */
  recallable(r: number, gate: StatusGate): boolean {
    if (this.deleted[r] === 1) return false;
    const s = this.status[r];
    if (s !== 0 && !(s === 1 ? gate.includeQuarantined === true : s === 2 ? gate.includeArchived === true : false)) return false;
    const asOf = gate.asOf;
    if (asOf === undefined || asOf === null) return true;
    if (this.hasFrom[r] === 1 && !(this.from[r] <= asOf)) return false;
    return this.hasTo[r] === 0 || asOf < this.to[r];
  }

  /** Each row's row in `m` (-1: no vector there), computed once per matrix. */
  matrixRows(m: NeighbourMatrix): Int32Array {
    if (this.matrix !== m) {
      const rows = new Int32Array(this.size);
      for (let r = 0; r < this.size; r++) rows[r] = m.indexOf.get(this.ids[r]) ?? -1;
      this.rows = rows;
      this.matrix = m;
    }
    return this.rows;
  }
}

const tables = new WeakMap<TableSource, MemoryTable>();

/** The table of `src` as it is now: built on first use after each change, then reused. */
export function memoryTable(src: TableSource): MemoryTable {
  let t = tables.get(src);
  if (!t || t.version !== src.version) tables.set(src, (t = new MemoryTable(src.version, src)));
  return t;
}
