// Schema v13 (issue 8, "careful ranking"): the judge's vectors of the memories. The judge
// (src/core/pipeline/judge.ts; MPNet, 768-d) re-scores the refined answer's top 30 with its cosine;
// one text costs it ~0.5 s in WASM, so the documents' vectors are computed ahead, in the background
// (src/services/judge-fill.ts), and kept here: one row per memory.
//
// - `judge`: the judge's id. Rows of another judge are never read (and are dropped when a fill of
//   the current one starts), so two judges' vectors never meet.
// - `inputKey`: the memory's `textKey` (src/core/text-key.ts: a hash of the text with its
//   whitespace runs made one space; the judge's tokenizer splits on whitespace, so texts with the
//   same key give the same vector) when the vector was computed; an edit makes the row stale, never
//   wrong. Memory rows carry `textKey` indexed (v6), and `[judge+inputKey]` is indexed here, so the
//   fill's look for work reads keys only, never a text or a vector (100k memories: no long task).
// - `data`: int8 codes with one scale per vector (src/core/vectors quantiseInto): 768 B against
//   3 KB of float32, a cosine error below 0.002 (judge-vectors.test.ts).
// Derived data: never in a backup or export (transfer.ts reads only the tables a backup holds),
// recomputed after a restore; purged with its memory (keep.ts purgeMemories: trash purge, delete
// all for good, the sample's removal). Each function is one transaction; none awaits a worker.
import Dexie from 'dexie';
import { textKey } from '../core/text-key';
import { dequantise, quantiseInto } from '../core/vectors';
import type { MemoryId } from '../core/types';
import type { MnemographDb } from './db';
import type { MemoryRow } from './schema';

export const STORES_V13 = {
  judgeVectors: 'memoryId, judge, [judge+inputKey]',
} as const;

export interface JudgeVectorRow {
  memoryId: MemoryId;
  judge: string;
  inputKey: string;
  dim: number;
  /** x ≈ scale · code. */
  scale: number;
  /** Int8 codes, `dim` bytes. */
  data: ArrayBuffer;
}

/** What the judge reads of a memory: its text alone (no captions), keyed like the encoder's input. */
export function judgeInputKey(m: Pick<MemoryRow, 'text' | 'textKey'>): string {
  return m.textKey ?? textKey(m.text);
}

/** A vector as stored: int8 codes and one scale. */
export function packJudgeVector(v: ArrayLike<number>): { dim: number; scale: number; data: ArrayBuffer } {
  const codes = new Int8Array(v.length);
  const { scale } = quantiseInto(v, codes, 0);
  return { dim: v.length, scale, data: codes.buffer };
}

/** The stored vector back as floats. */
export function unpackJudgeVector(row: Pick<JudgeVectorRow, 'dim' | 'scale' | 'data'>): Float32Array {
  return dequantise(new Int8Array(row.data), 0, row.dim, row.scale);
}

/** The current vectors of `ids` by `judge` (a row of another judge or of an older text is left out). */
export async function judgeVectorsOf(db: MnemographDb, judge: string, ids: readonly MemoryId[]): Promise<Map<MemoryId, Float32Array>> {
  try {
    return await db.transaction('r', db.memories, db.judgeVectors, async () => {
      const [mems, rows] = await Promise.all([db.memories.bulkGet([...ids]), db.judgeVectors.bulkGet([...ids])]);
      const out = new Map<MemoryId, Float32Array>();
      ids.forEach((id, i) => {
        const m = mems[i];
        const r = rows[i];
        if (m && r && r.judge === judge && r.inputKey === judgeInputKey(m)) out.set(id, unpackJudgeVector(r));
      });
      return out;
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/**
 * The fill's work: the live memories (current versions, not in the trash) and, of them, those
 * lacking a current vector of `judge`, newest first (by creation time, then id), with the memories
 * in `first` (recent answers' top 30, in that order) ahead of the rest.
 */
export async function judgeWork(db: MnemographDb, judge: string, first: readonly MemoryId[] = []): Promise<{ live: number; todo: MemoryId[] }> {
  try {
    return await db.transaction('r', db.memories, db.judgeVectors, async () => {
      // keys only (no row is read whole): the memories newest first, the trashed and the earlier
      // versions (their index holds only rows where the field is set), each memory's text key, and
      // the text key each of this judge's vectors was computed from
      const [newest, trashed, superseded] = await Promise.all([
        db.memories.orderBy('createdAt').reverse().primaryKeys(),
        db.memories.orderBy('deletedAt').primaryKeys(),
        db.memories.orderBy('supersededBy').primaryKeys(),
      ]);
      const gone = new Set<MemoryId>([...trashed, ...superseded]);
      const keyOf = new Map<MemoryId, string>();
      await db.memories.orderBy('textKey').eachKey((key, c) => void keyOf.set(c.primaryKey, key as string));
      const have = new Map<MemoryId, string>();
      await db.judgeVectors
        .where('[judge+inputKey]')
        .between([judge, Dexie.minKey], [judge, Dexie.maxKey])
        .eachKey((key, c) => void have.set(c.primaryKey, (key as [string, string])[1]));
      // a row written before text keys (none since v6's upgrade) is read whole for its key
      const unkeyed = newest.filter((id) => !gone.has(id) && !keyOf.has(id));
      if (unkeyed.length) (await db.memories.bulkGet(unkeyed)).forEach((m, i) => m && keyOf.set(unkeyed[i], judgeInputKey(m)));
      let live = 0;
      const todo: MemoryId[] = [];
      for (const id of newest) {
        if (gone.has(id)) continue;
        live++;
        if (have.get(id) !== keyOf.get(id)) todo.push(id);
      }
      const lacking = new Set(todo);
      const ahead = [...new Set(first)].filter((id) => lacking.has(id));
      const aheadSet = new Set(ahead);
      return { live, todo: [...ahead, ...todo.filter((id) => !aheadSet.has(id))] };
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/** The texts of `ids` as stored now, with their input keys (undefined: gone, trashed or an earlier version). */
export async function judgeInputs(db: MnemographDb, ids: readonly MemoryId[]): Promise<({ text: string; inputKey: string } | undefined)[]> {
  try {
    const rows = await db.memories.bulkGet([...ids]);
    return rows.map((m) => (m && m.deletedAt === null && !m.supersededBy ? { text: m.text, inputKey: judgeInputKey(m) } : undefined));
  } catch (e) {
    throw db.fail(e);
  }
}

/**
 * Writes vectors of `judge`: each only if its memory is still live and still holds the text it was
 * computed from (`inputKey`); a row of any judge for that memory is replaced. Returns how many were written.
 */
export async function putJudgeVectors(db: MnemographDb, judge: string, items: readonly { memoryId: MemoryId; inputKey: string; vector: ArrayLike<number> }[]): Promise<number> {
  try {
    return await db.transaction('rw', db.memories, db.judgeVectors, async () => {
      const mems = await db.memories.bulkGet(items.map((i) => i.memoryId));
      const keep = items.filter((it, i) => {
        const m = mems[i];
        return !!m && m.deletedAt === null && judgeInputKey(m) === it.inputKey;
      });
      if (keep.length) await db.judgeVectors.bulkPut(keep.map((k): JudgeVectorRow => ({ memoryId: k.memoryId, judge, inputKey: k.inputKey, ...packJudgeVector(k.vector) })));
      return keep.length;
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/** Drops every row of a judge other than `judge` (a fill of `judge` starts with it). Returns how many. */
export async function dropOtherJudges(db: MnemographDb, judge: string): Promise<number> {
  try {
    return await db.transaction('rw', db.judgeVectors, () => db.judgeVectors.where('judge').notEqual(judge).delete());
  } catch (e) {
    throw db.fail(e);
  }
}
