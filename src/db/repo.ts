// Repository functions: each is one transaction. Nothing here awaits a worker or the encoder;
// callers compute vectors first and hand them in.

import { liveQuery, type Observable } from 'dexie';
import { AppError } from '../core/errors';
import type { MemoryId, MemoryStatus, SpaceId } from '../core/types';
import type { MnemographDb } from './db';
import { addFeatureRows, allFeatureRows, deleteFeatures, featureRowsOf, featureTables, putFeatureRows } from './feature-blocks';
import { textKey } from '../core/text-key';
import type { ImageRow } from './images';
import { withV6Fields, type FeedbackRow, type MemoryRow, type VectorRow } from './schema';

const stamped = (m: MemoryRow): MemoryRow => withV6Fields(m, textKey);

/** Writes a new memory, its vectors and its pictures (schema v10) atomically: either all rows exist afterwards or none. */
export async function insertMemory(db: MnemographDb, memory: MemoryRow, vectors: VectorRow[], images: readonly ImageRow[] = []): Promise<void> {
  try {
    await db.transaction('rw', [db.memories, ...featureTables(db), db.images], async () => {
      await db.memories.add(stamped(memory)); // refuses an id already stored: its features are new too
      await addFeatureRows(db, vectors);
      if (images.length) await db.images.bulkAdd([...images]);
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/** Writes many memories and their vectors in one transaction (an import): all or nothing. */
export async function insertMemories(db: MnemographDb, memories: MemoryRow[], vectors: VectorRow[]): Promise<void> {
  try {
    await db.transaction('rw', [db.memories, ...featureTables(db)], async () => {
      await db.memories.bulkAdd(memories.map(stamped));
      await addFeatureRows(db, vectors);
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/**
 * Replaces ALL vector rows of each memory whose text is still `expectedText` and that is not
 * deleted (the backfill: an edit meanwhile brought its own features), in one transaction.
 * Returns the memories that got their rows.
 */
export async function replaceVectorsIfUnchanged(
  db: MnemographDb,
  items: { memoryId: MemoryId; rows: VectorRow[]; expectedText: string }[],
): Promise<MemoryRow[]> {
  try {
    return await db.transaction('rw', [db.memories, ...featureTables(db)], async () => {
      const rows = await db.memories.bulkGet(items.map((i) => i.memoryId));
      const keep = items.filter((it, i) => rows[i] && rows[i]!.deletedAt === null && rows[i]!.text === it.expectedText);
      if (keep.length) {
        await deleteFeatures(
          db,
          keep.map((k) => k.memoryId),
        );
        await putFeatureRows(
          db,
          keep.flatMap((k) => k.rows),
        );
      }
      const kept = new Set(keep.map((k) => k.memoryId));
      return rows.filter((r): r is MemoryRow => !!r && kept.has(r.id));
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/** Every vector row of one memory, keyed by space. */
export async function vectorRowsOf(db: MnemographDb, id: MemoryId): Promise<VectorRow[]> {
  try {
    return await db.transaction('r', featureTables(db), async () => (await featureRowsOf(db, [id])).get(id) ?? []);
  } catch (e) {
    throw db.fail(e);
  }
}

/** Every vector row of many memories in one index read, grouped by memory. */
export async function vectorRowsOfMany(db: MnemographDb, ids: readonly MemoryId[]): Promise<Map<MemoryId, VectorRow[]>> {
  try {
    if (ids.length === 0) return new Map();
    return await db.transaction('r', featureTables(db), async () => await featureRowsOf(db, ids));
  } catch (e) {
    throw db.fail(e);
  }
}

/** Keys per read when every memory's key is read on the page's thread. */
const KEY_PAGE = 10_000;

/**
 * The memories with an entry of `model` in `space`, from the blocks' heads of that producer
 * alone (no feature bytes), a few blocks per read in one transaction: the backfill's staleness
 * check, on the page's thread (two maps of every memory's producers took 200-500 ms there at 100k).
 */
export async function idsOfProducer(db: MnemographDb, space: SpaceId, model: string): Promise<Set<MemoryId>> {
  try {
    return await db.transaction('r', db.featureHeads, async () => {
      const keys = await db.featureHeads.where('[space+model]').equals([space, model]).primaryKeys();
      const out = new Set<MemoryId>();
      for (let i = 0; i < keys.length; i += HEADS_PER_READ) for (const h of await db.featureHeads.bulkGet(keys.slice(i, i + HEADS_PER_READ))) for (const id of h?.ids ?? []) out.add(id);
      return out;
    });
  } catch (e) {
    throw db.fail(e);
  }
}
const HEADS_PER_READ = 16;


export interface LoadedFeatures {
  memory: MemoryRow;
  /** Every space's serialised row whose producer is current, E1 included. */
  spaces: Partial<Record<SpaceId, ArrayBuffer>>;
}

/**
 * All live memories with every vector row of a current producer: `accept(row)` says whether a
 * row's model is current. One getAll per table (a cursor would be several times slower).
 */
export async function loadLiveFeatures(db: MnemographDb, accept: (row: VectorRow) => boolean): Promise<LoadedFeatures[]> {
  try {
    return await db.transaction('r', [db.memories, ...featureTables(db)], async () => {
      const rows = (await db.memories.toArray()).filter((m) => m.deletedAt === null);
      const byId = new Map<MemoryId, LoadedFeatures>(rows.map((memory) => [memory.id, { memory, spaces: {} }]));
      for (const v of await allFeatureRows(db)) {
        const entry = byId.get(v.memoryId);
        if (entry && v.dtype === 'space' && v.data instanceof ArrayBuffer && accept(v)) entry.spaces[v.space] = v.data;
      }
      return [...byId.values()];
    });
  } catch (e) {
    throw db.fail(e);
  }
}

export async function listFeedback(db: MnemographDb): Promise<FeedbackRow[]> {
  try {
    return await db.feedback.orderBy('at').toArray();
  } catch (e) {
    throw db.fail(e);
  }
}

/**
 * Applies `change` to a live (non-tombstoned) memory and, when given, replaces its vectors, in
 * one transaction. Rejects NOT_FOUND when the memory is missing or deleted. Returns the new row.
 */
export async function modifyMemory(
  db: MnemographDb,
  id: MemoryId,
  change: (row: MemoryRow) => MemoryRow,
  vectors?: VectorRow[],
  opts: { replaceVectors?: boolean } = {},
): Promise<MemoryRow> {
  try {
    return await db.transaction('rw', [db.memories, ...featureTables(db)], async () => {
      const row = await db.memories.get(id);
      if (!row || row.deletedAt !== null) throw new AppError('NOT_FOUND');
      const next = stamped(change(row));
      await db.memories.put(next);
      // new text, new features: a space the old text had (code, say) must not outlive it
      if (opts.replaceVectors) await deleteFeatures(db, [id]);
      if (vectors?.length) await putFeatureRows(db, vectors);
      return next;
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/** Tombstones a memory (kept for undo; hidden from lists and the index). Returns the row. */
export async function tombstoneMemory(db: MnemographDb, id: MemoryId, at: number): Promise<MemoryRow> {
  return modifyMemory(db, id, (row) => ({ ...row, deletedAt: at, updatedAt: at }));
}

/** Clears a tombstone. Rejects NOT_FOUND when the memory does not exist or is not deleted. */
export async function restoreMemoryRow(db: MnemographDb, id: MemoryId, at: number): Promise<MemoryRow> {
  try {
    return await db.transaction('rw', db.memories, async () => {
      const row = await db.memories.get(id);
      if (!row || row.deletedAt === null) throw new AppError('NOT_FOUND');
      const next = stamped({ ...row, deletedAt: null, updatedAt: at });
      await db.memories.put(next);
      return next;
    });
  } catch (e) {
    throw db.fail(e);
  }
}

export async function setMemoryStatus(db: MnemographDb, id: MemoryId, status: MemoryStatus, at: number): Promise<MemoryRow> {
  return modifyMemory(db, id, (row) => ({ ...row, status, updatedAt: at }));
}

/** Live memories of a session (E4: a new memory's position is this count). */
export async function countSession(db: MnemographDb, sessionId: string): Promise<number> {
  try {
    // earlier versions of edited memories (v6) are not members of their own: they share the memory's place
    return await db.memories.where('sessionId').equals(sessionId).filter((m) => m.supersededBy === undefined).count();
  } catch (e) {
    throw db.fail(e);
  }
}

export async function getMemoryRow(db: MnemographDb, id: MemoryId): Promise<MemoryRow | undefined> {
  try {
    return await db.memories.get(id);
  } catch (e) {
    throw db.fail(e);
  }
}

export async function bulkGetMemories(db: MnemographDb, ids: MemoryId[]): Promise<(MemoryRow | undefined)[]> {
  try {
    return await db.memories.bulkGet(ids);
  } catch (e) {
    throw db.fail(e);
  }
}

export async function addFeedbackRow(db: MnemographDb, row: FeedbackRow): Promise<void> {
  try {
    await db.transaction('rw', db.memories, db.feedback, async () => {
      const m = await db.memories.get(row.memoryId);
      if (!m || m.deletedAt !== null) throw new AppError('NOT_FOUND');
      await db.feedback.add(row);
    });
  } catch (e) {
    throw db.fail(e);
  }
}

export async function feedbackFor(db: MnemographDb, memoryId: MemoryId): Promise<FeedbackRow[]> {
  try {
    return await db.feedback.where('memoryId').equals(memoryId).sortBy('at');
  } catch (e) {
    throw db.fail(e);
  }
}

export async function getSetting<T>(db: MnemographDb, key: string): Promise<T | undefined> {
  try {
    return (await db.settings.get(key))?.value as T | undefined;
  } catch (e) {
    throw db.fail(e);
  }
}

export async function putSetting(db: MnemographDb, key: string, value: unknown): Promise<void> {
  try {
    await db.settings.put({ key, value });
  } catch (e) {
    throw db.fail(e);
  }
}

/** Newest first, tombstones and earlier versions (v6) excluded. Usable inside a liveQuery / useLiveQuery. */
export function listMemories(db: MnemographDb, limit = 200): Promise<MemoryRow[]> {
  return db.memories
    .orderBy('createdAt')
    .reverse()
    .filter((m) => m.deletedAt === null && m.supersededBy === undefined)
    .limit(limit)
    .toArray();
}

/**
 * Count of live memories: all rows minus those in the deletedAt index (only tombstones have a key
 * there) minus the live earlier versions (only they have a supersededBy key; few rows are read).
 */
export function countMemories(db: MnemographDb): Promise<number> {
  return db.transaction('r', db.memories, async () => {
    const [all, deleted, earlier] = await Promise.all([
      db.memories.count(),
      db.memories.where('deletedAt').aboveOrEqual(-Infinity).count(),
      db.memories
        .where('supersededBy')
        .above('')
        .filter((m) => m.deletedAt === null)
        .count(),
    ]);
    return all - deleted - earlier;
  });
}

export function liveMemoriesQuery(db: MnemographDb, limit = 200): Observable<MemoryRow[]> {
  return liveQuery(() => listMemories(db, limit));
}

export function liveMemoryCountQuery(db: MnemographDb): Observable<number> {
  return liveQuery(() => countMemories(db));
}

// ---- added for the services' domain modules (no service reaches into a table itself) --------

/** Every live (non-tombstoned) memory: one getAll (the backfill's scan). */
export async function listLiveMemoryRows(db: MnemographDb): Promise<MemoryRow[]> {
  try {
    return (await db.memories.toArray()).filter((m) => m.deletedAt === null);
  } catch (e) {
    throw db.fail(e);
  }
}

/** The ids of every live (non-tombstoned) memory, from the keys alone (no row is read). */
export async function liveMemoryIds(db: MnemographDb, pageSize = KEY_PAGE): Promise<MemoryId[]> {
  try {
    return await db.transaction('r', db.memories, async () => {
      const gone = new Set(await db.memories.where('deletedAt').aboveOrEqual(-Infinity).primaryKeys());
      // the keys in pages: 100k keys in one result were one 150-230 ms task on the page's thread (issue 13)
      const out: MemoryId[] = [];
      for (let last: MemoryId | undefined; ; ) {
        const page = await (last === undefined ? db.memories.orderBy(':id') : db.memories.where(':id').above(last)).limit(pageSize).primaryKeys();
        for (const id of page) if (!gone.has(id)) out.push(id);
        if (page.length < pageSize) return out;
        last = page[page.length - 1];
      }
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/** Every memory of one session, tombstones included (E4 positions count them), earlier versions not. */
export async function sessionMembers(db: MnemographDb, sessionId: string): Promise<MemoryRow[]> {
  try {
    return (await db.memories.where('sessionId').equals(sessionId).toArray()).filter((m) => m.supersededBy === undefined);
  } catch (e) {
    throw db.fail(e);
  }
}

export async function deleteSetting(db: MnemographDb, key: string): Promise<void> {
  try {
    await db.settings.delete(key);
  } catch (e) {
    throw db.fail(e);
  }
}

/**
 * A setting as a live query: emits `read(value)` now and again whenever any tab writes or
 * deletes the key (`read` validates; undefined = unset). Wrap with useObservable / useLiveQuery.
 */
export function liveSettingQuery<T = unknown>(db: MnemographDb, key: string, read: (raw: unknown) => T = (raw) => raw as T): Observable<T> {
  return liveQuery(async () => read(await getSetting<unknown>(db, key)));
}
