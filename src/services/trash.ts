// The trash: a delete moves memories there (restorable, with an undo of exactly what one delete
// moved); rows older than TRASH_DAYS are purged at start-up (the services' clock), or all at once
// by "Empty trash". Purging removes the memories' vectors, links and feedback rows with them, in
// one transaction. "Delete all" and "Remove the sample" are deletes of many.

import { AppError } from '../core/errors';
import type { Memory, MemoryId } from '../core/types';
import { liveIds, liveIdsWithKeyPrefix, purgeMemories, trashMemories, untrashMemories } from '../db/keep';
import { SAMPLE_KEY_PREFIX } from '../db/schema';
import type { EngineClient } from '../bridge/engine-bridge';
import type { ServiceContext } from './context';
import type { StoredFeatures } from './stored-features';
import type { EngineSync } from './sync';
import type { DeleteReceipt } from './types';

/** Rows stay this many days in the trash before the start-up purge removes them. */
export const TRASH_DAYS = 30;
const DAY_MS = 86_400_000;

function checkIds(ids: unknown): MemoryId[] {
  if (!Array.isArray(ids) || ids.some((x) => typeof x !== 'string' || x === '')) throw new AppError('INVALID_OPTION', 'Choose the memories first (a list of memory ids).');
  return ids as MemoryId[];
}

export function createTrash(ctx: ServiceContext, { engine, stored, sync }: { engine: EngineClient; stored: StoredFeatures; sync: EngineSync }) {
  const { db } = ctx;

  async function trash(ids: MemoryId[]): Promise<DeleteReceipt> {
    const at = ctx.now();
    const moved = await trashMemories(db, ids, at);
    if (moved.length) await sync.index(moved, () => engine.removeMany(moved));
    return { ids: moved, at };
  }

  async function untrash(ids: MemoryId[], opts: { deletedAt?: number } = {}): Promise<Memory[]> {
    const rows = await untrashMemories(db, ids, ctx.now(), opts);
    if (rows.length) {
      const docs = await stored.storedDocs(rows);
      await sync.index(
        rows.map((r) => r.id),
        () => engine.upsertMany(docs),
      );
    }
    return rows;
  }

  /** Purged rows were already out of the engine (they were in the trash); other tabs re-read them. */
  async function purged(ids: MemoryId[]): Promise<number> {
    if (ids.length) await sync.index(ids, () => engine.removeMany(ids));
    return ids.length;
  }

  return {
    /** To the trash, with its earlier versions (an earlier version's id: that version alone). NOT_FOUND when not live. */
    async deleteMemory(id: MemoryId): Promise<DeleteReceipt> {
      const r = await trash(checkIds([id]));
      if (r.ids.length === 0) throw new AppError('NOT_FOUND');
      return r;
    },

    /** Many to the trash in one transaction; ids already gone are skipped. */
    deleteMemories: (ids: MemoryId[]): Promise<DeleteReceipt> => trash(checkIds(ids)),

    /** Puts back exactly what one delete moved (rows trashed at receipt.at). Returns how many came back. */
    async undoDelete(receipt: DeleteReceipt): Promise<number> {
      if (!receipt || typeof receipt.at !== 'number') throw new AppError('INVALID_OPTION', 'Nothing to undo.');
      return (await untrash(checkIds(receipt.ids), { deletedAt: receipt.at })).length;
    },

    /** Out of the trash, with the earlier versions trashed with it. NOT_FOUND when it is not in the trash. */
    async restoreMemory(id: MemoryId): Promise<Memory> {
      const rows = await untrash(checkIds([id]));
      const m = rows.find((r) => r.id === id);
      if (!m) throw new AppError('NOT_FOUND');
      return m;
    },

    /** Restores many from the trash. Returns how many rows came back. */
    restoreMemories: async (ids: MemoryId[]): Promise<number> => (await untrash(checkIds(ids))).length,

    /** Purges the whole trash now. Returns the rows removed for good. */
    emptyTrash: async (): Promise<number> => purged(await purgeMemories(db, { trashedBefore: null })),

    /** Purges what has been in the trash for more than `olderThanDays` (default 30), by the services' clock. */
    async purgeTrash(olderThanDays: number = TRASH_DAYS): Promise<number> {
      if (typeof olderThanDays !== 'number' || !Number.isFinite(olderThanDays) || olderThanDays < 0)
        throw new AppError('INVALID_OPTION', 'The trash keeps memories a number of days (0 or more).');
      return purged(await purgeMemories(db, { trashedBefore: ctx.now() - olderThanDays * DAY_MS }));
    },

    /** Purges these memories now (from the trash or not), with their versions, vectors, links and feedback. */
    purgeMemories: async (ids: MemoryId[]): Promise<number> => purged(await purgeMemories(db, { ids: checkIds(ids) })),

    /**
     * Every memory: to the trash (restorable; returns how many rows moved), or `permanently`:
     * everything purged now, the trash included (settings are kept). The UI asks for a typed
     * confirmation first.
     */
    async deleteAll(opts: { permanently?: boolean } = {}): Promise<number> {
      if (opts.permanently === true) return purged(await purgeMemories(db, { everything: true }));
      return (await trash(await liveIds(db))).ids.length;
    },

    /** "Delete all" as the app does it: every memory to the trash, with the receipt whose undoDelete puts exactly those back. */
    trashAll: async (): Promise<DeleteReceipt> => trash(await liveIds(db)),

    /** Every memory of the sample collection (import key 'sample:') to the trash; undoDelete puts it back. */
    async removeSample(): Promise<DeleteReceipt> {
      return trash(await liveIdsWithKeyPrefix(db, SAMPLE_KEY_PREFIX));
    },

    /** Live memories of the sample collection (0 = nothing to remove). */
    countSample: async (): Promise<number> => (await liveIdsWithKeyPrefix(db, SAMPLE_KEY_PREFIX)).length,
  };
}
