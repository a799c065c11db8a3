// The full list of memories (issue 9, Browse): filters and sorts answered from index keys only, so
// 100k memories cost a few key reads (no row is deserialised) and only the shown window's rows are
// read. Every filter is an index: createdAt, importance, source, lastAccessedAt, status, *tags,
// deletedAt (only trashed rows have a key), supersededBy (only earlier versions), importKey
// ('sample:' = the sample collection).

import Dexie from 'dexie';
import type { MemoryId, MemoryStatus } from '../core/types';
import type { MnemographDb } from './db';
import { SAMPLE_KEY_PREFIX, type MemoryRow } from './schema';

export type BrowseStatus = 'current' | 'active' | 'quarantined' | 'archived' | 'trashed' | 'superseded' | 'all';
export type BrowseSort = 'newest' | 'oldest' | 'importance' | 'opened';

export interface BrowseFilter {
  tags?: readonly string[];
  from?: number;
  to?: number;
  source?: string;
  sample?: boolean;
  importanceMin?: number;
  importanceMax?: number;
  status: BrowseStatus;
  sort: BrowseSort;
}

const STATUSES: readonly MemoryStatus[] = ['active', 'quarantined', 'archived'];

/** The ids matching `f`, in its order (ties by id, as the index stores them). One read transaction. */
export async function browseIds(db: MnemographDb, f: BrowseFilter): Promise<MemoryId[]> {
  try {
    return await db.transaction('r', db.memories, async () => {
      const t = db.memories;
      const timed = f.from !== undefined || f.to !== undefined;
      const timeRange = () => t.where('createdAt').between(f.from ?? -Infinity, f.to ?? Infinity, true, false);
      // the order, from one index
      let ordered: MemoryId[];
      if (f.sort === 'newest' || f.sort === 'oldest') {
        ordered = await (timed ? timeRange() : t.orderBy('createdAt')).primaryKeys();
        if (f.sort === 'newest') ordered.reverse();
      } else {
        ordered = (await t.orderBy(f.sort === 'importance' ? 'importance' : 'lastAccessedAt').primaryKeys()).reverse();
      }
      // each filter: a set of ids from its index (intersected)
      const keep: { set: Set<MemoryId>; without?: boolean }[] = [];
      const ids = async (p: Promise<MemoryId[]>) => new Set(await p);
      if (timed && f.sort !== 'newest' && f.sort !== 'oldest') keep.push({ set: await ids(timeRange().primaryKeys()) });
      if (f.status !== 'all') {
        const trashed = await ids(t.where('deletedAt').aboveOrEqual(-Infinity).primaryKeys());
        const earlier = await ids(t.where('supersededBy').above('').primaryKeys());
        if (f.status === 'trashed') keep.push({ set: trashed }, { set: earlier, without: true });
        else if (f.status === 'superseded') keep.push({ set: earlier }, { set: trashed, without: true });
        else {
          keep.push({ set: trashed, without: true }, { set: earlier, without: true });
          if (STATUSES.includes(f.status as MemoryStatus)) keep.push({ set: await ids(t.where('status').equals(f.status).primaryKeys()) });
        }
      }
      for (const tag of f.tags ?? []) keep.push({ set: await ids(t.where('tags').equals(tag).primaryKeys()) });
      if (f.source !== undefined) keep.push({ set: await ids(t.where('source').equals(f.source).primaryKeys()) });
      if (f.sample !== undefined) keep.push({ set: await ids(t.where('importKey').startsWith(SAMPLE_KEY_PREFIX).primaryKeys()), without: !f.sample });
      if (f.importanceMin !== undefined || f.importanceMax !== undefined)
        keep.push({ set: await ids(t.where('importance').between(f.importanceMin ?? 0, f.importanceMax ?? 1, true, true).primaryKeys()) });
      if (keep.length === 0) return ordered;
      return ordered.filter((id) => keep.every((k) => k.set.has(id) !== (k.without === true)));
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/**
 * Per tag, how many of `ids` carry it: the distinct tags (a unique key cursor), then each tag's
 * ids from the index (getAllKeys), counted against `ids`. No row is read.
 */
export async function countTags(db: MnemographDb, ids: ReadonlySet<MemoryId>): Promise<Map<string, number>> {
  try {
    return await db.transaction('r', db.memories, async () => {
      const counts = new Map<string, number>();
      const tags = (await db.memories.orderBy('tags').uniqueKeys()).map(String);
      const lists = await Promise.all(tags.map((t) => db.memories.where('tags').equals(t).primaryKeys()));
      tags.forEach((tag, i) => {
        let n = 0;
        for (const id of lists[i]) if (ids.has(id)) n++;
        if (n > 0) counts.set(tag, n);
      });
      return counts;
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/** The rows of `ids`, in that order (missing ones left out). */
export async function rowsOf(db: MnemographDb, ids: readonly MemoryId[]): Promise<MemoryRow[]> {
  try {
    return (await db.memories.bulkGet([...ids])).filter((r): r is MemoryRow => r !== undefined);
  } catch (e) {
    throw db.fail(e);
  }
}

/**
 * Calls `fn` after every committed change of the memories table of `db`, in this tab or another
 * (Dexie's storagemutated crosses tabs). Returns the unsubscribe.
 */
export function onMemoriesChanged(db: MnemographDb, fn: () => void): () => void {
  const prefix = `idb://${db.name}/memories/`;
  const listener = (parts: Record<string, unknown>) => {
    if (Object.keys(parts).some((k) => k.startsWith(prefix))) fn();
  };
  Dexie.on('storagemutated', listener);
  return () => Dexie.on.storagemutated.unsubscribe(listener);
}
