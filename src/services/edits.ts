// Changing stored memories: an edit of anything (text, tags, importance, source, media, when it
// happened) makes a new version (src/db/keep.ts: the memory keeps its id, the replaced content is
// kept as an earlier version, its transaction time closed); valid time alone is changed in place.
// Each change is one transaction; the engine follows afterwards (and the other tabs' through sync).

import { AppError } from '../core/errors';
import type { Memory, MemoryId } from '../core/types';
import { normaliseTag, normaliseTags, validateMemoryPatch } from '../core/validate';
import { writeVersion, versionsOf } from '../db/keep';
import { getMemoryRow, modifyMemory } from '../db/repo';
import type { MemoryRow } from '../db/schema';
import type { ImageRow } from '../db/images';
import type { ImageChange, Images } from './images';
import type { EngineClient } from '../bridge/engine-bridge';
import type { ServiceContext } from './context';
import { checkValidity, suggestTags } from './ingest';
import type { Session } from './session';
import type { Featurized, StoredFeatures } from './stored-features';
import type { EngineSync } from './sync';
import type { MemoryVersion, UpdateMemoryInput } from './types';

interface EditDeps {
  images: Images;
  engine: EngineClient;
  stored: StoredFeatures;
  sync: EngineSync;
  session: Session;
}

type Patch = ReturnType<typeof validateMemoryPatch>;

const sameList = (a: readonly unknown[] | undefined, b: readonly unknown[] | undefined) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

/** The content fields a patch changes (valid time is not content: it is changed in place). */
function contentChanges(p: Patch, m: Memory) {
  const text = p.text !== undefined && p.text !== m.text;
  const media = p.media !== undefined && !sameList(p.media, m.media);
  const time = p.createdAt !== undefined && p.createdAt !== m.createdAt;
  const tags = p.tags !== undefined && !sameList(p.tags, m.tags);
  const importance = p.importance !== undefined && p.importance !== m.importance;
  const source = 'source' in p && p.source !== m.source;
  return { text, refeaturize: text || media || time, any: text || media || time || tags || importance || source };
}

/**
 * The new version's valid time. Given by the person: theirs. A new "when it happened" moves a
 * validity that started with it (validFrom = createdAt: the capture's date, or none given) to the
 * new time: a person's date means the memory's time everywhere, and the memory is true from it.
 * Otherwise a new text is true from the edit on (the earlier text stays the answer "as of" before
 * it), unless the memory's validity ended before the edit; any other change keeps the validity.
 */
function nextValidity(p: Patch, row: MemoryRow, textChanged: boolean, t: number): { validFrom: number; validTo: number | null } {
  const validTo = p.validTo !== undefined ? p.validTo : row.validTo;
  if (p.validFrom !== undefined) return { validFrom: p.validFrom, validTo };
  if (p.createdAt !== undefined && p.createdAt !== row.createdAt && row.validFrom === row.createdAt) return { validFrom: p.createdAt, validTo };
  const open = row.validTo === null || row.validTo > t;
  return { validFrom: textChanged && open && p.validTo === undefined ? Math.max(t, row.validFrom) : row.validFrom, validTo };
}

/** The earlier version's validTo: closed where the new version starts when that is later than its own start. */
export function closedValidity(previous: Pick<Memory, 'validFrom' | 'validTo'>, next: Pick<Memory, 'validFrom'>): number | null {
  if (next.validFrom <= previous.validFrom) return previous.validTo; // a correction of the whole span: both stay valid, the earlier ranks below
  return previous.validTo === null ? next.validFrom : Math.min(previous.validTo, next.validFrom);
}

export function createEdits(ctx: ServiceContext, { images, engine, stored, sync, session }: EditDeps) {
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

  /** Writes a new version of `id` with `patch` (validated), featurizing first when the text, media or time changed. */
  async function newVersion(id: MemoryId, p: Patch, image?: ImageChange): Promise<Memory> {
    const current = await getMemory(id);
    // a picture change is a media change (its caption feeds E10); a new file's row joins the version's transaction
    let pictures: ImageRow[] = [];
    if (image !== undefined) {
      const changed = await images.change(p.media ?? current.media, image, id);
      p = { ...p, media: changed.media };
      pictures = changed.rows;
    }
    if (current.supersededBy !== undefined) throw new AppError('INVALID_OPTION', 'This is an earlier version of a memory: edit the current version instead.');
    const changes = contentChanges(p, current);
    if (!changes.any) {
      if (p.validFrom === undefined && p.validTo === undefined) return current; // nothing changed
      // valid time alone: the same fact, said to be true over another span (in place, no version)
      const t = ctx.now();
      const m = await modifyMemory(db, id, (row) => {
        const next = { ...row, ...nextValidity(p, row, false, t), updatedAt: t };
        checkValidity(next);
        return next;
      });
      await reindexMeta(m);
      return m;
    }
    let got: Featurized | null = null;
    if (changes.refeaturize) {
      // the capture's path: every space of the new text, at the memory's time and session position
      const position = await session.positionOf(current);
      [got] = await stored.featurizeAll([
        { text: p.text ?? current.text, createdAt: p.createdAt ?? current.createdAt, sessionPosition: position, media: p.media ?? current.media },
      ]);
    }
    const t = ctx.now();
    const { current: next, previous } = await writeVersion(
      db,
      id,
      ctx.newId(),
      t,
      (row) => {
        const m = { ...row, ...p, ...nextValidity(p, row, changes.text, t) } as MemoryRow;
        if ('source' in p && p.source === undefined) delete m.source;
        if (got) m.embedTruncated = got.item.truncated;
        if (changes.text) m.suggestedTags = suggestTags(m.text, m.tags);
        else if (p.tags) m.suggestedTags = row.suggestedTags.filter((s) => !m.tags.includes(s));
        checkValidity(m);
        return m;
      },
      got ? stored.rowsOf(id, got) : null,
      closedValidity,
      pictures,
    );
    const fresh = got;
    const previousDoc = await stored.storedDoc(previous);
    const currentDoc = fresh ? stored.freshDoc(next, fresh) : stored.metaDoc(next);
    await sync.index([id, previous.id], () => engine.upsertMany([previousDoc, currentDoc]));
    return next;
  }

  async function changeTags(id: MemoryId, next: (row: Memory) => string[]): Promise<Memory> {
    const row = await getMemory(id);
    return newVersion(id, { tags: validateMemoryPatch({ tags: next(row) }).tags ?? [] });
  }

  return {
    getMemory,

    /**
     * A new version with `patch` (text, tags, importance, source, media, createdAt = when it
     * happened, validFrom / validTo): the memory keeps its id and gets the new content; the
     * replaced content becomes an earlier version (supersededBy = this id, supersededAt = now).
     * A new text (or media, or time) is featurized through the capture's path first. A patch of
     * valid time alone changes it in place. Nothing changed: the memory as it is.
     */
    async updateMemory(id: MemoryId, patch: UpdateMemoryInput): Promise<Memory> {
      return newVersion(id, validateMemoryPatch(patch), patch?.image);
    },

    /** Every version of the memory `id` belongs to (id: the memory or any earlier version), newest first. */
    async memoryHistory(id: MemoryId): Promise<MemoryVersion[]> {
      const { current, earlier } = await versionsOf(db, id);
      if (!current) throw new AppError('NOT_FOUND');
      const versions: MemoryVersion[] = [
        { memory: current, current: true, recordedAt: current.recordedAt ?? current.updatedAt, supersededAt: null },
        ...earlier.map((m) => ({ memory: m as Memory, current: false, recordedAt: m.recordedAt ?? m.updatedAt, supersededAt: m.supersededAt ?? null })),
      ];
      return versions.sort((a, b) => (b.supersededAt ?? Infinity) - (a.supersededAt ?? Infinity) || b.recordedAt - a.recordedAt);
    },

    /** Replaces the memory's tags (normalised; a new version); suggestions it now has are no longer offered. */
    async setTags(id: MemoryId, tags: string | string[]): Promise<Memory> {
      const normalised = normaliseTags(tags);
      return changeTags(id, () => normalised);
    },

    /** Moves one suggested tag into the memory's tags (a new version). INVALID_OPTION when it is not a suggestion. */
    async acceptSuggestedTag(id: MemoryId, tag: string): Promise<Memory> {
      if (typeof tag !== 'string') throw new AppError('INVALID_OPTION', 'A tag must be text.');
      const t = normaliseTag(tag);
      return changeTags(id, (row) => {
        if (!row.suggestedTags.includes(t)) throw new AppError('INVALID_OPTION', `"${tag}" is not a suggested tag of this memory.`);
        return row.tags.includes(t) ? row.tags : [...row.tags, t];
      });
    },

    /** Adds and removes tags on many memories (each changed one gets a new version). Returns how many changed. */
    async tagMemories(ids: MemoryId[], change: { add?: string[]; remove?: string[] }): Promise<number> {
      if (!Array.isArray(ids)) throw new AppError('INVALID_OPTION', 'Choose the memories to tag.');
      const add = normaliseTags(change?.add ?? []);
      const remove = new Set(normaliseTags(change?.remove ?? []));
      if (add.length === 0 && remove.size === 0) throw new AppError('INVALID_OPTION', 'Name a tag to add or remove.');
      let changed = 0;
      for (const id of ids) {
        const row = await getMemory(id);
        const tags = [...row.tags.filter((t) => !remove.has(t)), ...add.filter((t) => !row.tags.includes(t) && !remove.has(t))];
        if (sameList(tags, row.tags)) continue;
        await newVersion(id, validateMemoryPatch({ tags }));
        changed++;
      }
      return changed;
    },
  };
}
