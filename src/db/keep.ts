// Repository functions for keeping memories (issue 9): versions, trash and purge, status in bulk,
// access (decay), "already saved". Like repo.ts: each is one transaction and awaits no worker.
//
// Versions: the current version of a memory keeps the memory's id (feedback, links, addresses and
// import keys stay attached); an edit copies the replaced content, with its vector rows, to a new
// row whose `supersededBy` is the memory's id and `supersededAt` the edit's time. Earlier versions
// are memories like the others (found by search with asOf, ranked below the current one), are
// never edited, and share the memory's status and trash.

import { AppError } from '../core/errors';
import { textKey } from '../core/text-key';
import type { MemoryId, MemoryStatus } from '../core/types';
import type { MnemographDb } from './db';
import { dropOrphanImages, type ImageRow } from './images';
import { deleteFeatures, featureRowsOf, featureTables, putFeatureRows } from './feature-blocks';
import { withV6Fields, type MemoryRow, type VectorRow } from './schema';

const stamped = (m: MemoryRow): MemoryRow => withV6Fields(m, textKey);
/** Reinforcements stretch the decay up to this strength. */
export const MAX_STRENGTH = 10;

export interface VersionWrite {
  /** The memory's current row after the edit (same id). */
  current: MemoryRow;
  /** The replaced content, kept as an earlier version. */
  previous: MemoryRow;
}

/**
 * One edit, one transaction: the current row's content is copied (with its vector rows) to an
 * earlier-version row `previousId`, then the current row becomes `change(row)` and, when `vectors`
 * are given, its vector rows are replaced by them. `closeValidity(previous, next)` gives the
 * earlier version's validTo. NOT_FOUND for a missing or trashed memory; INVALID_OPTION for an
 * earlier version (edit the current one).
 */
export async function writeVersion(
  db: MnemographDb,
  id: MemoryId,
  previousId: MemoryId,
  at: number,
  change: (row: MemoryRow) => MemoryRow,
  vectors: VectorRow[] | null,
  closeValidity: (previous: MemoryRow, next: MemoryRow) => number | null,
  images: readonly ImageRow[] = [],
): Promise<VersionWrite> {
  try {
    return await db.transaction('rw', [db.memories, ...featureTables(db), db.images], async () => {
      const row = await db.memories.get(id);
      if (!row || row.deletedAt !== null) throw new AppError('NOT_FOUND');
      if (row.supersededBy !== undefined)
        throw new AppError('INVALID_OPTION', 'This is an earlier version of a memory: edit the current version instead.');
      const next = stamped({ ...change(row), id, recordedAt: at, updatedAt: at });
      const { importKey: _key, ...rest } = row; // the import key stays with the memory
      const previous = stamped({ ...rest, id: previousId, supersededBy: id, supersededAt: at, validTo: closeValidity(row, next) });
      const old = (await featureRowsOf(db, [id])).get(id) ?? [];
      await db.memories.bulkPut([previous, next]);
      if (old.length) await putFeatureRows(db, old.map((v) => ({ ...v, memoryId: previousId })));
      if (vectors) {
        await deleteFeatures(db, [id]);
        await putFeatureRows(db, vectors);
      }
      // a new picture; the replaced one stays, shown by the earlier version (images.ts)
      if (images.length) await db.images.bulkAdd(images.map((i) => ({ ...i, memoryId: id })));
      return { current: next, previous };
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/** The current row of `id` (the memory itself, or the memory an earlier version belongs to) and every earlier version. */
export async function versionsOf(db: MnemographDb, id: MemoryId): Promise<{ current: MemoryRow | undefined; earlier: MemoryRow[] }> {
  try {
    return await db.transaction('r', db.memories, async () => {
      const row = await db.memories.get(id);
      if (!row) return { current: undefined, earlier: [] };
      const rootId = row.supersededBy ?? row.id;
      const current = rootId === row.id ? row : await db.memories.get(rootId);
      const earlier = await db.memories.where('supersededBy').equals(rootId).toArray();
      return { current, earlier };
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/** `ids` with, for each current memory among them, its earlier versions (one index read). */
async function withEarlier(db: MnemographDb, ids: readonly MemoryId[]): Promise<MemoryRow[]> {
  const rows = (await db.memories.bulkGet([...ids])).filter((r): r is MemoryRow => r !== undefined);
  const current = rows.filter((r) => r.supersededBy === undefined).map((r) => r.id);
  const earlier = current.length ? await db.memories.where('supersededBy').anyOf(current).toArray() : [];
  const seen = new Set<MemoryId>();
  return [...rows, ...earlier].filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)));
}

/**
 * Moves memories to the trash (deletedAt = at): each current memory with its earlier versions;
 * an earlier version's id moves only that version. Rows already in the trash are left as they are.
 * Returns the ids moved.
 */
export async function trashMemories(db: MnemographDb, ids: readonly MemoryId[], at: number): Promise<MemoryId[]> {
  try {
    return await db.transaction('rw', db.memories, async () => {
      const rows = (await withEarlier(db, ids)).filter((r) => r.deletedAt === null);
      if (rows.length) await db.memories.bulkPut(rows.map((r) => ({ ...r, deletedAt: at, updatedAt: at })));
      return rows.map((r) => r.id);
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/**
 * Takes rows out of the trash, each current memory with the earlier versions that went to the
 * trash with it (same deletedAt). `opts.deletedAt`: only rows trashed at that instant (an undo puts
 * back exactly what one delete moved). Returns the rows restored.
 */
export async function untrashMemories(db: MnemographDb, ids: readonly MemoryId[], at: number, opts: { deletedAt?: number } = {}): Promise<MemoryRow[]> {
  try {
    return await db.transaction('rw', db.memories, async () => {
      const rows = (await db.memories.bulkGet([...ids])).filter(
        (r): r is MemoryRow => !!r && r.deletedAt !== null && (opts.deletedAt === undefined || r.deletedAt === opts.deletedAt),
      );
      const trashedAt = new Map(rows.filter((r) => r.supersededBy === undefined).map((r) => [r.id, r.deletedAt]));
      const earlier = trashedAt.size
        ? (await db.memories.where('supersededBy').anyOf([...trashedAt.keys()]).toArray()).filter(
            (e) => e.deletedAt !== null && e.deletedAt === trashedAt.get(e.supersededBy!),
          )
        : [];
      const seen = new Set<MemoryId>();
      const next = [...rows, ...earlier]
        .filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)))
        .map((r) => ({ ...r, deletedAt: null, updatedAt: at }));
      if (next.length) await db.memories.bulkPut(next);
      return next;
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/**
 * Deletes rows for good, in ONE transaction: the memories, their earlier versions, and every
 * vector, link and feedback row of them, and the pictures no remaining row shows (schema v10). `which`: the ids, every row trashed before
 * `trashedBefore` (null = the whole trash), or everything. Returns the ids purged.
 */
export async function purgeMemories(
  db: MnemographDb,
  which: { ids: readonly MemoryId[] } | { trashedBefore: number | null } | { everything: true },
): Promise<MemoryId[]> {
  try {
    return await db.transaction('rw', [db.memories, ...featureTables(db), db.links, db.feedback, db.images, db.judgeVectors], async () => {
      let ids: MemoryId[];
      if ('ids' in which) ids = [...which.ids];
      else if ('everything' in which) ids = await db.memories.toCollection().primaryKeys();
      else {
        const trashed = db.memories.where('deletedAt');
        ids = await (which.trashedBefore === null ? trashed.aboveOrEqual(-Infinity) : trashed.below(which.trashedBefore)).primaryKeys();
      }
      if (ids.length === 0) return [];
      // an earlier version never outlives its memory
      const earlier = await db.memories.where('supersededBy').anyOf(ids).primaryKeys();
      const all = [...new Set([...ids, ...earlier])];
      const roots = [...new Set((await db.memories.bulkGet(all)).flatMap((r) => (r ? [r.supersededBy ?? r.id] : [])))];
      await db.memories.bulkDelete(all);
      await deleteFeatures(db, all);
      await db.links.where('fromId').anyOf(all).delete();
      await db.links.where('toId').anyOf(all).delete();
      await db.feedback.where('memoryId').anyOf(all).delete();
      await db.judgeVectors.bulkDelete(all); // derived (schema v13): never outlives its memory
      await dropOrphanImages(db, roots);
      return all;
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/** Every live row (not in the trash), current and earlier versions: "Delete all". */
export async function liveIds(db: MnemographDb): Promise<MemoryId[]> {
  try {
    return await db.transaction('r', db.memories, async () => {
      const trashed = new Set(await db.memories.where('deletedAt').aboveOrEqual(-Infinity).primaryKeys());
      return (await db.memories.toCollection().primaryKeys()).filter((id) => !trashed.has(id));
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/** Ids of the live rows whose import key starts with `prefix` (the sample collection). */
export async function liveIdsWithKeyPrefix(db: MnemographDb, prefix: string): Promise<MemoryId[]> {
  try {
    const rows = await db.memories.where('importKey').startsWith(prefix).toArray();
    return rows.filter((r) => r.deletedAt === null).map((r) => r.id);
  } catch (e) {
    throw db.fail(e);
  }
}

/**
 * Sets the status of live memories (each current one with its earlier versions). `only`: change
 * only rows whose status is one of these (validate = quarantined -> active). Returns the rows changed.
 */
export async function setStatusOf(
  db: MnemographDb,
  ids: readonly MemoryId[],
  status: MemoryStatus,
  at: number,
  only?: readonly MemoryStatus[],
): Promise<MemoryRow[]> {
  try {
    return await db.transaction('rw', db.memories, async () => {
      const rows = (await withEarlier(db, ids)).filter((r) => r.deletedAt === null && r.status !== status && (!only || only.includes(r.status)));
      const next = rows.map((r) => ({ ...r, status, updatedAt: at }));
      if (next.length) await db.memories.bulkPut(next);
      return next;
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/**
 * Records an access (open, cite; `reinforce` also adds 1 to the strength, up to MAX_STRENGTH) on
 * live rows: lastAccessedAt = at. updatedAt is left alone (an access is no change). Returns the rows.
 */
export async function touchMemories(db: MnemographDb, ids: readonly MemoryId[], at: number, opts: { reinforce?: boolean } = {}): Promise<MemoryRow[]> {
  try {
    return await db.transaction('rw', db.memories, async () => {
      const rows = (await db.memories.bulkGet([...ids])).filter((r): r is MemoryRow => !!r && r.deletedAt === null);
      const next = rows.map((r) => ({
        ...r,
        lastAccessedAt: Math.max(at, r.lastAccessedAt ?? -Infinity),
        ...(opts.reinforce ? { strength: Math.min(MAX_STRENGTH, (r.strength ?? 1) + 1) } : {}),
      }));
      if (next.length) await db.memories.bulkPut(next);
      return next;
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/** The live, current memories whose text has `key` (textKey); the caller compares the texts. */
export async function liveWithTextKey(db: MnemographDb, key: string): Promise<MemoryRow[]> {
  try {
    const rows = await db.memories.where('textKey').equals(key).toArray();
    return rows.filter((r) => r.deletedAt === null && r.supersededBy === undefined);
  } catch (e) {
    throw db.fail(e);
  }
}
