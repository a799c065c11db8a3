// Repository functions for import, restore and export (issue 10). Like repo.ts: each is one
// transaction, and nothing here awaits a worker; the services featurize first and hand rows in.

import { liveQuery, type Observable } from 'dexie';
import type { MemoryId } from '../core/types';
import type { MnemographDb } from './db';
import { addFeatureRows, allFeatureRows, deleteFeatures, featureTables, putFeatureRows } from './feature-blocks';
import { getSetting } from './repo';
import { textKey } from '../core/text-key';
import type { ImageRow } from './images';
import { withV6Fields, type FeedbackRow, type LinkRow, type MemoryRow, type SettingRow, type VectorRow } from './schema';

/** The import keys among `keys` that a stored memory already carries (one index read). */
export async function storedImportKeys(db: MnemographDb, keys: readonly string[]): Promise<Map<string, MemoryId>> {
  try {
    if (keys.length === 0) return new Map();
    const rows = await db.memories.where('importKey').anyOf([...keys]).toArray();
    return new Map(rows.map((r) => [r.importKey!, r.id]));
  } catch (e) {
    throw db.fail(e);
  }
}

/** The ids among `ids` that are stored (tombstones included: a restore never overwrites a row). */
export async function storedIds(db: MnemographDb, ids: readonly MemoryId[]): Promise<Set<MemoryId>> {
  try {
    if (ids.length === 0) return new Set();
    return new Set(await db.memories.where('id').anyOf([...ids]).primaryKeys());
  } catch (e) {
    throw db.fail(e);
  }
}

export interface ImportBatch {
  memories: MemoryRow[];
  vectors: VectorRow[];
  links?: LinkRow[];
  feedback?: FeedbackRow[];
  /** Pictures (schema v10) of the batch's memories: written only with a memory written. */
  images?: ImageRow[];
}

/**
 * Writes one import batch in ONE transaction: either every row of it exists afterwards or none
 * (a closed tab or a crash leaves whole batches). A memory whose id or import key is already
 * stored (another tab ran the same import meanwhile) is left out with its vectors, checked inside
 * the transaction. Links are written only when both ends exist; feedback only for a stored memory.
 * Returns the memories written.
 */
export async function writeImportBatch(db: MnemographDb, batch: ImportBatch): Promise<MemoryRow[]> {
  try {
    return await db.transaction('rw', [db.memories, ...featureTables(db), db.links, db.feedback, db.images], async () => {
      const ids = batch.memories.map((m) => m.id);
      const keys = batch.memories.flatMap((m) => (m.importKey === undefined ? [] : [m.importKey]));
      const [idsThere, keysThere] = await Promise.all([
        db.memories.where('id').anyOf(ids).primaryKeys(),
        keys.length ? db.memories.where('importKey').anyOf(keys).keys() : Promise.resolve([]),
      ]);
      const takenIds = new Set<string>(idsThere);
      const takenKeys = new Set(keysThere.map(String));
      const fresh = batch.memories.map((m) => withV6Fields(m, textKey)).filter((m) => !takenIds.has(m.id) && (m.importKey === undefined || !takenKeys.has(m.importKey)));
      const freshIds = new Set(fresh.map((m) => m.id));
      if (fresh.length) await db.memories.bulkAdd(fresh);
      const vectors = batch.vectors.filter((v) => freshIds.has(v.memoryId));
      await addFeatureRows(db, vectors); // fresh memories only (added above), so no earlier entries
      if (batch.links?.length) {
        const ends = [...new Set(batch.links.flatMap((l) => [l.fromId, l.toId]))];
        const present = new Set(await db.memories.where('id').anyOf(ends).primaryKeys());
        const links = batch.links.filter((l) => present.has(l.fromId) && present.has(l.toId));
        if (links.length) await db.links.bulkPut(links);
      }
      if (batch.images?.length) {
        const rows = batch.images.filter((i) => freshIds.has(i.memoryId));
        if (rows.length) await db.images.bulkPut(rows);
      }
      if (batch.feedback?.length) {
        const ends = [...new Set(batch.feedback.map((f) => f.memoryId))];
        const present = new Set(await db.memories.where('id').anyOf(ends).primaryKeys());
        const rows = batch.feedback.filter((f) => present.has(f.memoryId));
        if (rows.length) await db.feedback.bulkPut(rows);
      }
      return fresh;
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/** A backup's newer copy of a memory already stored (its row, its search data when reused, its pictures). */
export interface NewerCopy {
  memory: MemoryRow;
  /** The copy's vector rows; null = keep the stored ones (the caller featurized nothing). */
  vectors: VectorRow[] | null;
  images: ImageRow[];
}

/**
 * Brings memories already stored up to a backup's newer copy, in ONE transaction: a stored row is
 * replaced only when it is still a live current memory changed before the copy (checked inside
 * the transaction: an edit made meanwhile wins). Its search data and pictures come with it; the
 * stored content is not kept here: the caller replaces only a row whose content the backup holds
 * as an earlier version (src/services/restore.ts `newerCopies`). Returns the rows written.
 */
export async function replaceWithNewer(db: MnemographDb, copies: readonly NewerCopy[]): Promise<MemoryRow[]> {
  try {
    if (copies.length === 0) return [];
    return await db.transaction('rw', [db.memories, ...featureTables(db), db.images], async () => {
      const here = await db.memories.bulkGet(copies.map((c) => c.memory.id));
      const take = copies.filter((c, i) => {
        const h = here[i];
        return !!h && h.supersededBy === undefined && h.deletedAt === null && h.updatedAt < c.memory.updatedAt;
      });
      if (take.length === 0) return [];
      const rows = take.map((c) => withV6Fields(c.memory, textKey));
      await db.memories.bulkPut(rows);
      const vectors = take.flatMap((c) => c.vectors ?? []);
      const replaced = take.filter((c) => c.vectors !== null).map((c) => c.memory.id);
      if (replaced.length) {
        await deleteFeatures(db, replaced);
        await putFeatureRows(db, vectors);
      }
      const images = take.flatMap((c) => c.images);
      if (images.length) await db.images.bulkPut(images);
      return rows;
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/** Restored settings, in one transaction (a backup's settings replace the stored values of their keys). */
export async function putSettings(db: MnemographDb, rows: readonly SettingRow[]): Promise<void> {
  try {
    if (rows.length) await db.settings.bulkPut([...rows]);
  } catch (e) {
    throw db.fail(e);
  }
}

export interface ExportRows {
  memories: MemoryRow[];
  feedback: FeedbackRow[];
  settings: SettingRow[];
  links: LinkRow[];
  vectors?: VectorRow[];
  /** Every stored picture (schema v10). */
  images: ImageRow[];
}

/** Every row a backup holds, tombstones included, read in one transaction (a consistent copy). */
export async function readAllForExport(db: MnemographDb, withVectors: boolean): Promise<ExportRows> {
  try {
    return await db.transaction('r', [db.memories, ...featureTables(db), db.settings, db.feedback, db.links, db.images], async () => {
      const [memories, feedback, settings, links, vectors, images] = await Promise.all([
        db.memories.toArray(),
        db.feedback.orderBy('at').toArray(),
        db.settings.toArray(),
        db.links.toArray(),
        withVectors ? allFeatureRows(db) : Promise.resolve(undefined),
        db.images.toArray(),
      ]);
      return { memories, feedback, settings, links, images, ...(vectors ? { vectors } : {}) };
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/** The links stored from or to a memory. */
export async function linksOf(db: MnemographDb, id: MemoryId): Promise<LinkRow[]> {
  try {
    const [from, to] = await Promise.all([db.links.where('fromId').equals(id).toArray(), db.links.where('toId').equals(id).toArray()]);
    return [...from, ...to];
  } catch (e) {
    throw db.fail(e);
  }
}

/** Several settings as one live query: `read(values)` now and whenever any tab writes one of the keys. */
export function liveSettingsQuery<T>(db: MnemographDb, keys: readonly string[], read: (values: unknown[]) => T): Observable<T> {
  return liveQuery(async () => read(await Promise.all(keys.map((k) => getSetting<unknown>(db, k)))));
}
