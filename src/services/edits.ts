// Changing stored memories: text and fields, tags, status, delete and restore. Each change is
// one transaction; the engine follows afterwards (and the other tabs' engines through sync).

import { AppError } from '../core/errors';
import type { Memory, MemoryId, MemoryStatus } from '../core/types';
import { normaliseTag, normaliseTags, validateMemoryPatch, validateStatus } from '../core/validate';
import { getMemoryRow, modifyMemory, restoreMemoryRow, setMemoryStatus, tombstoneMemory } from '../db/repo';
import type { MemoryRow } from '../db/schema';
import type { EngineClient } from '../bridge/engine-bridge';
import type { ServiceContext } from './context';
import { checkValidity, suggestTags } from './ingest';
import type { Session } from './session';
import type { Featurized, StoredFeatures } from './stored-features';
import type { EngineSync } from './sync';
import type { UpdateMemoryInput } from './types';

interface EditDeps {
  engine: EngineClient;
  stored: StoredFeatures;
  sync: EngineSync;
  session: Session;
}

export function createEdits(ctx: ServiceContext, { engine, stored, sync, session }: EditDeps) {
  const { db } = ctx;

  /** Rejects NOT_FOUND for a missing or deleted memory (unless includeDeleted). */
  async function getMemory(id: MemoryId, opts: { includeDeleted?: boolean } = {}): Promise<Memory> {
    const m = await getMemoryRow(db, id);
    if (!m || (m.deletedAt !== null && !opts.includeDeleted)) throw new AppError('NOT_FOUND');
    return m;
  }

  /** A change that keeps the memory's features: the engine gets its new fields only. */
  async function reindexMeta(m: Memory): Promise<void> {
    const doc = stored.metaDoc(m);
    await sync.index([m.id], () => engine.upsert(doc));
  }

  async function changeTags(id: MemoryId, next: (row: MemoryRow) => string[]): Promise<Memory> {
    const t = ctx.now();
    const m = await modifyMemory(db, id, (row) => {
      const tags = validateMemoryPatch({ tags: next(row) }).tags ?? [];
      return { ...row, tags, suggestedTags: row.suggestedTags.filter((s) => !tags.includes(s)), updatedAt: t };
    });
    await reindexMeta(m);
    return m;
  }

  return {
    getMemory,

    /** Re-featurizes (every space, outside any transaction) only when the text or media changed. */
    async updateMemory(id: MemoryId, patch: UpdateMemoryInput): Promise<Memory> {
      const p = validateMemoryPatch(patch);
      const current = await getMemory(id);
      const textChanged = p.text !== undefined && p.text !== current.text;
      const mediaChanged = p.media !== undefined && JSON.stringify(p.media) !== JSON.stringify(current.media ?? []);
      let got: Featurized | null = null;
      if (textChanged || mediaChanged) {
        // the memory keeps its time and session position
        const position = await session.positionOf(current);
        [got] = await stored.featurizeAll([
          { text: p.text ?? current.text, createdAt: current.createdAt, sessionPosition: position, media: p.media ?? current.media },
        ]);
      }
      const t = ctx.now();
      const next = await modifyMemory(
        db,
        id,
        (row) => {
          const m: Memory = { ...row, ...p, updatedAt: t } as Memory;
          if (p.source === undefined && 'source' in p) delete m.source;
          if (got) m.embedTruncated = got.item.truncated;
          if (textChanged) m.suggestedTags = suggestTags(m.text, m.tags);
          else if (p.tags) m.suggestedTags = row.suggestedTags.filter((s) => !m.tags.includes(s));
          checkValidity(m);
          return m;
        },
        got ? stored.rowsOf(id, got) : undefined,
        { replaceVectors: got !== null },
      );
      if (!got) await reindexMeta(next);
      else {
        const fresh = got;
        await sync.index([id], () => engine.upsert(stored.freshDoc(next, fresh)));
      }
      return next;
    },

    /** Tombstones the memory (restoreMemory undoes it) and drops it from the index. */
    async deleteMemory(id: MemoryId): Promise<void> {
      await tombstoneMemory(db, id, ctx.now());
      await sync.index([id], () => engine.remove(id));
    },

    async restoreMemory(id: MemoryId): Promise<Memory> {
      const m = await restoreMemoryRow(db, id, ctx.now());
      const doc = await stored.storedDoc(m);
      await sync.index([id], () => engine.upsert(doc));
      return m;
    },

    /** Quarantine, archive or re-activate. Quarantined / archived memories are hidden from search unless asked for. */
    async setStatus(id: MemoryId, status: MemoryStatus): Promise<Memory> {
      const s = validateStatus(status);
      const m = await setMemoryStatus(db, id, s, ctx.now());
      await reindexMeta(m);
      return m;
    },

    /** Replaces the memory's tags (normalised); suggestions it now has are no longer offered. */
    async setTags(id: MemoryId, tags: string | string[]): Promise<Memory> {
      const normalised = normaliseTags(tags);
      return changeTags(id, () => normalised);
    },

    /** Moves one suggested tag into the memory's tags. INVALID_OPTION when it is not a suggestion. */
    async acceptSuggestedTag(id: MemoryId, tag: string): Promise<Memory> {
      if (typeof tag !== 'string') throw new AppError('INVALID_OPTION', 'A tag must be text.');
      const t = normaliseTag(tag);
      return changeTags(id, (row) => {
        if (!row.suggestedTags.includes(t)) throw new AppError('INVALID_OPTION', `"${tag}" is not a suggested tag of this memory.`);
        return row.tags.includes(t) ? row.tags : [...row.tags, t];
      });
    },
  };
}
