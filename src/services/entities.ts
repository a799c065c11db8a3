// The entity index (issue 11): the canonical entity nodes and their mentions, kept in the
// database beside the memories. Every committed write reindexes the memories it touched
// (sync.index calls reindexEntities), so adds, imports, edits, deletes and restores keep the index
// true; any other write path (a future edit or trash) calls `reindexEntities(ids)` the same way.
// Entities come from the embed worker's recogniser (the one E11 uses); without it, from the core's
// capitalised-phrase heuristic.

import { mentionRows, type EntityMentionRow } from '../core/entities';
import { capitalisedPhrases } from '../core/features';
import type { MemoryId } from '../core/types';
import { entitiesByHash, mentionsOf, replaceEntityMentions, topEntities } from '../db/entities';
import { bulkGetMemories, getSetting, listLiveMemoryRows, putSetting } from '../db/repo';
import { ENTITY_BACKFILL_KEY, type EntityRow } from '../db/schema';
import type { EntityMentionOut } from '../protocol/embed';
import type { ServiceContext } from './context';

const BATCH = 100;

/**
 * Entity mentions already found for memories just featurized (E11's, from the embed worker's
 * featurize), by id, with the text they were found in: a memory whose stored text is still that
 * text takes them instead of a second NER pass.
 */
export type KnownEntities = ReadonlyMap<MemoryId, { text: string; mentions: EntityMentionOut[] }>;

export function createEntityIndex(ctx: ServiceContext) {
  const { db } = ctx;

  async function recognise(texts: string[]) {
    const f = ctx.featurizer;
    return f.entities ? f.entities(texts) : texts.map((t) => capitalisedPhrases(t));
  }

  /**
   * Re-reads these memories and replaces their mentions: a live memory gets the entities of its
   * current text, a deleted or missing one, or an earlier version of an edited one, loses them
   * (and a node left without mentions goes). `known`: mentions already found (see KnownEntities).
   */
  async function reindexEntities(ids: readonly MemoryId[], known?: KnownEntities): Promise<void> {
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += BATCH) {
      const part = unique.slice(i, i + BATCH);
      const rows = await bulkGetMemories(db, part);
      // the memory as it is now: earlier versions (supersededBy, schema v6) and trashed ones have no mentions
      const live = rows.flatMap((r) => (r && r.deletedAt == null && !r.supersededBy ? [r] : []));
      const given = (r: (typeof live)[number]) => {
        const k = known?.get(r.id);
        return k && k.text === r.text ? k.mentions : undefined;
      };
      const todo = live.filter((r) => !given(r));
      const found = todo.length ? await recognise(todo.map((r) => r.text)) : [];
      const fresh = new Map(todo.map((r, j) => [r.id, found[j] ?? []]));
      const byMemory = new Map<MemoryId, EntityMentionRow[]>(part.map((id) => [id, []]));
      for (const r of live) byMemory.set(r.id, mentionRows(r.id, given(r) ?? fresh.get(r.id) ?? []));
      await replaceEntityMentions(db, byMemory);
    }
  }

  /**
   * Memories stored before schema v8 get their entities once (the upgrade marked the index
   * 'pending'). Returns the memories indexed (0 when nothing was pending).
   */
  async function backfillEntities(): Promise<number> {
    if ((await getSetting<string>(db, ENTITY_BACKFILL_KEY)) !== 'pending') return 0;
    const ids = (await listLiveMemoryRows(db)).filter((m) => !m.supersededBy).map((m) => m.id);
    await reindexEntities(ids);
    await putSetting(db, ENTITY_BACKFILL_KEY, 'done');
    return ids.length;
  }

  return {
    reindexEntities,
    backfillEntities,
    /** The entity nodes with these hashes (the ids results' `foundBy.via` carries). */
    entitiesByHash: (hashes: readonly number[]): Promise<EntityRow[]> => entitiesByHash(db, hashes),
    /** The entities a memory mentions. */
    entityMentionsOf: (id: MemoryId): Promise<EntityMentionRow[]> => mentionsOf(db, id),
    /** The most mentioned entities. */
    topEntities: (limit?: number): Promise<EntityRow[]> => topEntities(db, limit),
  };
}

export type EntityIndex = ReturnType<typeof createEntityIndex>;
