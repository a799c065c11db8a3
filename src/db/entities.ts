// The entity index's storage (schema v8): canonical entity nodes and their mentions. Each
// function is one transaction; a node is recomputed from all of its mention rows whenever one of
// them changes, so its aliases and mention count always match the mentions stored.

import { entityNodeOf, type EntityMentionRow } from '../core/entities';
import type { MemoryId } from '../core/types';
import type { MnemographDb } from './db';
import { storageError } from './errors';
import type { EntityRow } from './schema';

/**
 * Replaces the mentions of each memory in `byMemory` (an empty list removes them all: a deleted
 * memory) and recomputes every node they touch (a node left without mentions is removed).
 */
export async function replaceEntityMentions(db: MnemographDb, byMemory: ReadonlyMap<MemoryId, readonly EntityMentionRow[]>): Promise<void> {
  if (byMemory.size === 0) return;
  try {
    await db.transaction('rw', db.entityMentions, db.entities, async () => {
      const ids = [...byMemory.keys()];
      const old = await db.entityMentions.where('memoryId').anyOf(ids).toArray();
      const touched = new Set(old.map((r) => r.entityKey));
      await db.entityMentions.where('memoryId').anyOf(ids).delete();
      const fresh = [...byMemory.values()].flat();
      for (const r of fresh) touched.add(r.entityKey);
      if (fresh.length) await db.entityMentions.bulkPut(fresh);
      const keys = [...touched];
      const rows = keys.length ? await db.entityMentions.where('entityKey').anyOf(keys).toArray() : [];
      const byKey = new Map<string, EntityMentionRow[]>();
      for (const r of rows) {
        let list = byKey.get(r.entityKey);
        if (!list) byKey.set(r.entityKey, (list = []));
        list.push(r);
      }
      const put: EntityRow[] = [];
      const gone: string[] = [];
      for (const k of keys) {
        const node = entityNodeOf(k, byKey.get(k) ?? []);
        if (node) put.push(node);
        else gone.push(k);
      }
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
