// The entity index's storage (schema v8): canonical entity nodes and their mentions. Each
// function is one transaction; a node is updated with the mention rows it gains and loses, from
// the tallies it keeps, so its aliases and mention count always match the mentions stored.

import { addMentionCounts, entityNodeOfCounts, mentionCounts, type EntityMentionRow } from '../core/entities';
import type { MemoryId } from '../core/types';
import type { MnemographDb } from './db';
import { storageError } from './errors';
import type { EntityRow } from './schema';

/**
 * Replaces the mentions of each memory in `byMemory` (an empty list removes them all: a deleted
 * memory) and updates every node they touch (a node left without mentions is removed). A node
 * keeps its tallies (`counts`: spellings, types, rows), so it is adjusted by this write's own rows
 * taken out and put in: a common entity's thousands of mentions are not re-read per write (at
 * 100k memories that re-read made a restore quadratic). A node without tallies (stored before
 * they existed) is recomputed from all of its rows once, which gives it tallies.
 */
export async function replaceEntityMentions(db: MnemographDb, byMemory: ReadonlyMap<MemoryId, readonly EntityMentionRow[]>): Promise<void> {
  if (byMemory.size === 0) return;
  try {
    await db.transaction('rw', db.entityMentions, db.entities, async () => {
      const ids = [...byMemory.keys()];
      const old = await db.entityMentions.where('memoryId').anyOf(ids).toArray();
      // one row per (memory, key), the last wins: what bulkPut leaves stored
      const freshByPk = new Map<string, EntityMentionRow>();
      for (const list of byMemory.values()) for (const r of list) freshByPk.set(`${r.memoryId}\u0000${r.entityKey}`, r);
      const fresh = [...freshByPk.values()];
      const delta = new Map<string, { out: EntityMentionRow[]; in: EntityMentionRow[] }>();
      const at = (k: string) => delta.get(k) ?? delta.set(k, { out: [], in: [] }).get(k)!;
      for (const r of old) at(r.entityKey).out.push(r);
      for (const r of fresh) at(r.entityKey).in.push(r);
      if (old.length) await db.entityMentions.where('memoryId').anyOf(ids).delete();
      if (fresh.length) await db.entityMentions.bulkPut(fresh);
      const keys = [...delta.keys()];
      if (keys.length === 0) return;
      const nodes = await db.entities.bulkGet(keys);
      // nodes without tallies: recomputed from every row (the rows written above included)
      const recount = keys.filter((_, i) => !nodes[i]?.counts);
      const rows = recount.length ? await db.entityMentions.where('entityKey').anyOf(recount).toArray() : [];
      const byKey = new Map<string, EntityMentionRow[]>();
      for (const r of rows) (byKey.get(r.entityKey) ?? byKey.set(r.entityKey, []).get(r.entityKey)!).push(r);
      const put: EntityRow[] = [];
      const gone: string[] = [];
      keys.forEach((k, i) => {
        const had = nodes[i]?.counts;
        const d = delta.get(k)!;
        const counts = had ? addMentionCounts(addMentionCounts(had, d.out, -1), d.in, 1) : mentionCounts(byKey.get(k) ?? []);
        const node = entityNodeOfCounts(k, counts);
        if (node) put.push({ ...node, counts });
        else gone.push(k);
      });
      if (put.length) await db.entities.bulkPut(put);
      if (gone.length) await db.entities.bulkDelete(gone);
    });
  } catch (e) {
    throw storageError(e);
  }
}

/** The nodes with these hashes (E11 / engine graph ids), for naming graph nodes. */
export async function entitiesByHash(db: MnemographDb, hashes: readonly number[]): Promise<EntityRow[]> {
  if (hashes.length === 0) return [];
  return db.entities.where('hash').anyOf([...new Set(hashes.map((h) => h >>> 0))]).toArray();
}

/** The mentions of one memory. */
export function mentionsOf(db: MnemographDb, id: MemoryId): Promise<EntityMentionRow[]> {
  return db.entityMentions.where('memoryId').equals(id).toArray();
}

/** The most mentioned nodes (mention count descending). */
export function topEntities(db: MnemographDb, limit = 50): Promise<EntityRow[]> {
  return db.entities.orderBy('mentionCount').reverse().limit(limit).toArray();
}
