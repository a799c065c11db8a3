// Restoring a JSON backup: memories keep their ids and every field exactly; their feedback rows
// and the settings come back; stored vectors are reused when their producer is the one this app
// runs (src/io reusableVectors), so nothing is re-embedded, and only the rest is featurized (by
// the capture code, outside the transaction). Written in batches of one transaction each, like
// every import; the engine and the other tabs follow each batch.

import type { Memory, MemoryId, SpaceId } from '../core/types';
import { putSettings, replaceWithNewer, storedIds, writeImportBatch } from '../db/transfer';
import type { LinkRow, VectorRow } from '../db/schema';
import { batches, reusableVectors, type BackupItems, type FeedbackRecord, type ImageRecord, type SettingRecord, type VectorRecord } from '../io';
import type { ImageRow } from '../db/images';
import type { EngineClient, EngineDoc, SerializedFeatures } from '../bridge/engine-bridge';
import type { ServiceContext } from './context';
import { isEncoderSpace } from './featurizer';
import { toFeedbackEvent } from './feedback';
import { sessionPositions } from './session';
import { readRecallDefaults, readSimilarityConfig, SETTING_KEYS } from './settings';
import { PRIMARY_SPACE, toIndexDoc, type Featurized, type StoredFeatures } from './stored-features';
import type { EngineSync } from './sync';
import type { ImportOutcome, RunImportOptions } from './types';

export interface BackupPlan {
  kind: 'backup';
  /** The backup's memories not stored yet (by id), in file order. */
  memories: Memory[];
  feedback: Map<MemoryId, FeedbackRecord[]>;
  /** The backup's links (both ends in the backup). */
  links: LinkRow[];
  settings: SettingRecord[];
  /** Per memory, its stored vectors of a current producer. */
  reuse: Map<MemoryId, VectorRecord[]>;
  vectorsReused: number;
  /** Per memory, its pictures (backup version 2). */
  images: Map<MemoryId, ImageRecord[]>;
  /** E4 positions within each memory's session, for the memories that are featurized again. */
  positions: Map<MemoryId, number>;
  skippedAtPreview: number;
  /** Memories already here that the backup holds a later version of, the copy here among its earlier versions: brought up to date (newerCopies). */
  updates: Memory[];
  /** Memories already here that the backup changed otherwise: kept as they are here. */
  changedKept: number;
}

const toRow = (v: VectorRecord): VectorRow => ({ memoryId: v.memoryId, space: v.space, dim: v.dim, dtype: v.dtype, model: v.model, data: v.data });

const toImageRow = (i: ImageRecord): ImageRow => ({
  id: i.id,
  memoryId: i.memoryId,
  mime: i.mime,
  size: i.size,
  width: i.width,
  height: i.height,
  createdAt: i.createdAt,
  data: new Blob([i.data], { type: i.mime }),
  thumb: new Blob([i.thumb], { type: i.thumbMime }),
});

/**
 * The preview's "search data of N memories is reused": the current memories among those whose
 * stored vectors are all reused (an earlier version or one in the trash is not searched, and the
 * preview counts them apart: "6 memories and 1 earlier version").
 */
export function reusedCurrent(plan: BackupPlan): number {
  return plan.memories.filter((m) => m.supersededBy === undefined && m.deletedAt === null && complete(plan.reuse.get(m.id))).length;
}

/** The content a person sees of a memory (what an edit changes). */
const sameContent = (a: Memory, b: Memory): boolean =>
  a.text === b.text &&
  a.importance === b.importance &&
  a.source === b.source &&
  a.createdAt === b.createdAt &&
  JSON.stringify(a.tags) === JSON.stringify(b.tags) &&
  JSON.stringify(a.media ?? []) === JSON.stringify(b.media ?? []);

/**
 * The backup's memories that are already here (by id) but were changed later in the backup than
 * here (a newer backup restored over an older one, or an edit made on another device). `update`:
 * those whose copy here the backup holds as an earlier version of the same memory (so the copy
 * here stays, as history, and nothing is lost): the restore brings them up to date. `kept`: the
 * others (the two copies went apart, or one is in the trash): the restore keeps the copy here and
 * the preview says so.
 */
export function newerCopies(backup: readonly Memory[], here: readonly (Memory | undefined)[]): { update: Memory[]; kept: number } {
  const byId = new Map(here.flatMap((m) => (m ? [[m.id, m] as const] : [])));
  const earlier = new Map<MemoryId, Memory[]>();
  for (const m of backup) if (m.supersededBy !== undefined) earlier.set(m.supersededBy, [...(earlier.get(m.supersededBy) ?? []), m]);
  const update: Memory[] = [];
  let kept = 0;
  for (const b of backup) {
    const h = byId.get(b.id);
    if (!h || b.updatedAt <= h.updatedAt) continue;
    const live = b.supersededBy === undefined && h.supersededBy === undefined && b.deletedAt === null && h.deletedAt === null;
    if (live && (earlier.get(b.id) ?? []).some((v) => sameContent(v, h))) update.push(b);
    else kept++;
  }
  return { update, kept };
}

/**
 * A memory's reused rows are enough when they hold E1 and E2 of the current producers (the
 * backfill's own test, staleOf); otherwise every space is featurized afresh from its text.
 */
const complete = (rows: VectorRecord[] | undefined): boolean => !!rows && rows.some((r) => r.space === PRIMARY_SPACE) && rows.some((r) => r.space === 'E2');

export function createRestore(ctx: ServiceContext, { engine, stored, sync }: { engine: EngineClient; stored: StoredFeatures; sync: EngineSync }) {
  const { db } = ctx;

  /** The producer this app runs for a space: the encoder's id for E1 / E5 / E10, the featurizers' for the rest. */
  const producer = (space: SpaceId): string => (isEncoderSpace(space) ? stored.producers().encoder : stored.producers().lexical);

  async function settingsToEngine(keys: Set<string>): Promise<void> {
    if (keys.has(SETTING_KEYS.similarity)) {
      const c = await readSimilarityConfig(db);
      await sync.index([], () => engine.setSimilarityConfig(c), { setting: SETTING_KEYS.similarity });
    }
    if (keys.has(SETTING_KEYS.recallDefaults)) {
      const o = await readRecallDefaults(db);
      await sync.index([], () => engine.setRecallDefaults(o), { setting: SETTING_KEYS.recallDefaults });
    }
  }

  /**
   * The memories already here that the backup holds a later version of (plan.updates): their rows,
   * search data (reused, or featurized afresh) and pictures replaced in one transaction, after
   * every batch (their earlier versions, the copies here, are written by then); the engine follows.
   */
  async function bringUpToDate(plan: BackupPlan, signal?: AbortSignal): Promise<number> {
    const need = plan.updates.filter((m) => !complete(plan.reuse.get(m.id)));
    const got = need.length
      ? await stored.featurizeAll(
          need.map((m) => ({ text: m.text, createdAt: m.createdAt, sessionPosition: plan.positions.get(m.id) ?? 0, media: m.media })),
          { signal },
        )
      : [];
    const fresh = new Map(need.map((m, i) => [m.id, got[i]!]));
    const written = await replaceWithNewer(
      db,
      plan.updates.map((m) => {
        const f = fresh.get(m.id);
        return { memory: m, vectors: f ? stored.rowsOf(m.id, f) : (plan.reuse.get(m.id) ?? []).map(toRow), images: (plan.images.get(m.id) ?? []).map(toImageRow) };
      }),
    );
    const docs: EngineDoc[] = written.map((m) => {
      const f = fresh.get(m.id);
      if (f) return stored.freshDoc(m, f);
      const features: SerializedFeatures = {};
      for (const v of plan.reuse.get(m.id) ?? []) if (v.dtype === 'space') features[v.space] = v.data.slice(0);
      return toIndexDoc(m, features);
    });
    if (written.length) await sync.index(
      written.map((m) => m.id),
      () => engine.upsertMany(docs),
    );
    return written.length;
  }

  return {
    /** What restoring `items` would write, given the ids already stored. */
    plan(items: BackupItems, there: Set<MemoryId>, here: readonly (Memory | undefined)[] = []): BackupPlan {
      const memories = items.memories.filter((m) => !there.has(m.id));
      const newer = newerCopies(items.memories, here);
      // the vectors and pictures of the memories brought up to date come too
      const wanted = new Set([...memories, ...newer.update].map((m) => m.id));
      const { reuse } = reusableVectors(
        items.vectors.filter((v) => wanted.has(v.memoryId)),
        producer,
      );
      const byMemory = new Map<MemoryId, VectorRecord[]>();
      for (const v of reuse) byMemory.set(v.memoryId, [...(byMemory.get(v.memoryId) ?? []), v]);
      const images = new Map<MemoryId, ImageRecord[]>();
      for (const i of items.images ?? []) if (wanted.has(i.memoryId)) images.set(i.memoryId, [...(images.get(i.memoryId) ?? []), i]);
      const feedback = new Map<MemoryId, FeedbackRecord[]>();
      for (const f of items.feedback) if (wanted.has(f.memoryId)) feedback.set(f.memoryId, [...(feedback.get(f.memoryId) ?? []), f]);
      return {
        kind: 'backup',
        memories,
        feedback,
        links: items.links,
        settings: items.settings,
        reuse: byMemory,
        images,
        // memories that need no featurizing: every vector they need is stored and current
        vectorsReused: memories.filter((m) => complete(byMemory.get(m.id))).length,
        positions: sessionPositions(items.memories),
        skippedAtPreview: items.memories.length - memories.length,
        updates: newer.update,
        changedKept: newer.kept,
      };
    },

    /**
     * Writes the plan batch by batch. Feedback rows go with their memory's batch; the settings
     * are restored once every batch is in (a cancelled restore leaves the settings as they were).
     */
    async run(plan: BackupPlan, opts: RunImportOptions, size: number): Promise<ImportOutcome> {
      // what an earlier run of this plan (cancelled, failed) or another tab stored is not featurized again
      const there = await storedIds(db, plan.memories.map((m) => m.id));
      const todo = plan.memories.filter((m) => !there.has(m.id));
      const kinds = { current: 0, earlier: 0, trashed: 0 };
      const out: ImportOutcome = { written: 0, skipped: plan.skippedAtPreview + there.size, batches: 0, cancelled: false, kinds };
      const groups = batches(todo, size);
      // a link goes with the batch that writes its later end (both ends then exist); links
      // between memories stored before are written at the end
      const batchOf = new Map<MemoryId, number>();
      groups.forEach((g, b) => g.forEach((m) => batchOf.set(m.id, b)));
      const linksOf = new Map<number, LinkRow[]>();
      for (const l of plan.links) {
        const b = Math.max(batchOf.get(l.fromId) ?? -1, batchOf.get(l.toId) ?? -1);
        linksOf.set(b, [...(linksOf.get(b) ?? []), l]);
      }
      // sync.index never rejects (a failure to follow is reported; the database stays the truth)
      let following: Promise<void> = Promise.resolve();
      try {
        for (const [b, g] of groups.entries()) {
          if (opts.signal?.aborted) return { ...out, cancelled: true };
          // the trash is not indexed nor featurized (the backfill skips it too); a live memory is
          // featurized only when its stored vectors are not all there to reuse
          const need = g.filter((m) => m.deletedAt === null && !complete(plan.reuse.get(m.id)));
          let got: Featurized[];
          try {
            got = await stored.featurizeAll(
              need.map((m) => ({ text: m.text, createdAt: m.createdAt, sessionPosition: plan.positions.get(m.id) ?? 0, media: m.media })),
              { signal: opts.signal },
            );
          } catch (e) {
            if (opts.signal?.aborted) return { ...out, cancelled: true };
            throw e;
          }
          const fresh = new Map(need.map((m, i) => [m.id, got[i]]));
          const vectors = g.flatMap((m) => {
            const f = fresh.get(m.id);
            return f ? stored.rowsOf(m.id, f) : (plan.reuse.get(m.id) ?? []).map(toRow);
          });
          const feedback = g.flatMap((m) => plan.feedback.get(m.id) ?? []);
          const images = g.flatMap((m) => (plan.images.get(m.id) ?? []).map(toImageRow));
          const written = await writeImportBatch(db, { memories: g, vectors, feedback, links: linksOf.get(b), images });
          out.written += written.length;
          out.skipped += g.length - written.length;
          out.batches++;
          // "Restored 4 memories and 1 earlier version", not "5 memories": the words of the lists
          for (const m of written) kinds[m.supersededBy !== undefined ? 'earlier' : m.deletedAt !== null ? 'trashed' : 'current']++;
          const docs: EngineDoc[] = written
            .filter((m) => m.deletedAt === null)
            .map((m) => {
              const f = fresh.get(m.id);
              if (f) return stored.freshDoc(m, f);
              const features: SerializedFeatures = {};
              // copies: the stored rows keep theirs, the engine takes these by transfer
              for (const v of plan.reuse.get(m.id) ?? []) if (v.dtype === 'space') features[v.space] = v.data.slice(0);
              return toIndexDoc(m, features);
            });
          const rows = written.flatMap((m) => plan.feedback.get(m.id) ?? []).sort((a, b) => a.at - b.at);
          // the engine and the entity index take this batch while the next one is read and written
          // (they run in the workers and IndexedDB's own process); one batch followed at a time, in order
          await following;
          following = (async () => {
            await sync.index(
              written.map((m) => m.id),
              () => engine.upsertMany(docs),
            );
            for (const row of rows) await sync.index([], () => engine.recordFeedback(toFeedbackEvent(row)), { feedback: row });
          })();
          opts.onProgress?.({ written: out.written, total: todo.length });
        }
      } finally {
        // the engine and the entity index have every written batch before the restore returns
        await following;
      }
      if (linksOf.has(-1)) await writeImportBatch(db, { memories: [], vectors: [], links: linksOf.get(-1) });
      if (plan.updates.length && !opts.signal?.aborted) out.updated = await bringUpToDate(plan, opts.signal);
      if (out.updated) out.skipped -= out.updated;
      await putSettings(db, plan.settings);
      await settingsToEngine(new Set(plan.settings.map((s) => s.key)));
      return out;
    },
  };
}
