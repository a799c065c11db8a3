// Trust and access: quarantine ("unsure"), validate (promote to active), discard, one or many;
// opening a memory and citing it record an access (decay-aware ranking reads lastAccessedAt).
// A status applies to a memory with its earlier versions. The engine follows each change.

import { AppError } from '../core/errors';
import type { Memory, MemoryId, MemoryStatus } from '../core/types';
import { validateStatus } from '../core/validate';
import { setStatusOf, touchMemories } from '../db/keep';
import { getMemoryRow } from '../db/repo';
import { rowsOf } from '../db/browse';
import type { EngineClient } from '../bridge/engine-bridge';
import type { ServiceContext } from './context';
import type { StoredFeatures } from './stored-features';
import type { EngineSync } from './sync';
import type { DeleteReceipt } from './types';

function checkIds(ids: unknown): MemoryId[] {
  if (!Array.isArray(ids) || ids.some((x) => typeof x !== 'string' || x === '')) throw new AppError('INVALID_OPTION', 'Choose the memories first (a list of memory ids).');
  return ids as MemoryId[];
}

interface ReviewDeps {
  engine: EngineClient;
  stored: StoredFeatures;
  sync: EngineSync;
  /** The trash module's delete (discard = to the trash). */
  deleteMemories: (ids: MemoryId[]) => Promise<DeleteReceipt>;
}

export function createReview(ctx: ServiceContext, { engine, stored, sync, deleteMemories }: ReviewDeps) {
  const { db } = ctx;

  /** The engine takes the changed rows' new fields (their features stay). */
  async function follow(rows: Memory[]): Promise<void> {
    if (rows.length === 0) return;
    await sync.index(
      rows.map((r) => r.id),
      () => engine.upsertMany(rows.map((r) => stored.metaDoc(r))),
    );
  }

  async function setMany(ids: MemoryId[], status: MemoryStatus, only?: MemoryStatus[]): Promise<Memory[]> {
    const rows = await setStatusOf(db, checkIds(ids), status, ctx.now(), only);
    await follow(rows);
    return rows;
  }

  /** Records an access on live memories (and a reinforcement: strength + 1). Failures are reported, never thrown. */
  async function touch(ids: MemoryId[], reinforce = false): Promise<void> {
    try {
      await follow(await touchMemories(db, ids, ctx.now(), { reinforce }));
    } catch (e) {
      ctx.report(e);
    }
  }

  return {
    /** Quarantine ('unsure'), archive or re-activate one memory (with its earlier versions). */
    async setStatus(id: MemoryId, status: MemoryStatus): Promise<Memory> {
      const s = validateStatus(status);
      const row = await getMemoryRow(db, id);
      if (!row || row.deletedAt !== null) throw new AppError('NOT_FOUND');
      const changed = await setMany([id], s);
      return changed.find((r) => r.id === id) ?? row;
    },

    /** Sets the status of many memories. Returns how many memories (current versions) changed. */
    setStatusMany: async (ids: MemoryId[], status: MemoryStatus): Promise<number> =>
      (await setMany(ids, validateStatus(status))).filter((r) => r.supersededBy === undefined).length,

    /** Marks memories "unsure" (quarantined): left out of search, recall and the graph until validated. */
    markUnsure: async (ids: MemoryId[]): Promise<number> => (await setMany(ids, 'quarantined')).filter((r) => r.supersededBy === undefined).length,

    /** Validates quarantined memories (promoted to active). Others are left as they are. Returns how many. */
    validateMemories: async (ids: MemoryId[]): Promise<number> =>
      (await setMany(ids, 'active', ['quarantined'])).filter((r) => r.supersededBy === undefined).length,

    /** Discards memories (to the trash; undoDelete puts them back). */
    discardMemories: (ids: MemoryId[]): Promise<DeleteReceipt> => deleteMemories(checkIds(ids)),

    /** The memory, and its access recorded (refreshes decay). NOT_FOUND when missing or in the trash (unless includeDeleted). */
    async openMemory(id: MemoryId, opts: { includeDeleted?: boolean } = {}): Promise<Memory> {
      const m = await getMemoryRow(db, id);
      if (!m || (m.deletedAt !== null && !opts.includeDeleted)) throw new AppError('NOT_FOUND');
      if (m.deletedAt === null) await touch([id]);
      return (await getMemoryRow(db, id)) ?? m;
    },

    /** Records an access (a memory cited, copied, shown in full). */
    recordAccess: async (ids: MemoryId[]): Promise<void> => touch(checkIds(ids)),

    /** A reinforcement's access: refreshes and strengthens (the feedback module calls it). */
    reinforced: async (id: MemoryId): Promise<void> => touch([id], true),

    /** Full rows on demand (the trash and earlier versions included), in the order asked; missing ones undefined. */
    async getMemories(ids: MemoryId[]): Promise<(Memory | undefined)[]> {
      const rows = await rowsOf(db, checkIds(ids));
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id));
    },
  };
}
