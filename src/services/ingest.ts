// Writing new memories: validate -> featurize (outside any transaction) -> ONE write
// transaction -> index. The database is the source of truth; the engine is a cache of it that
// can always be rebuilt (a crashed engine reloads from the database).

import { AppError } from '../core/errors';
import { deriveTags } from '../core/tags';
import type { Memory } from '../core/types';
import { validateNewMemory, type ValidMemoryInput } from '../core/validate';
import { sameText, textKey } from '../core/text-key';
import { liveWithTextKey } from '../db/keep';
import { insertMemories, insertMemory, listLiveMemoryRows, liveMemoryIds, replaceVectorsIfUnchanged } from '../db/repo';
import { keepStoreEncoder, storeEncoder } from '../db/encoder-vectors';
import { isSampleSession, SAMPLE_KEY_PREFIX, withV6Fields } from '../db/schema';
import type { EngineClient } from '../bridge/engine-bridge';
import type { ServiceContext } from './context';
import type { createDivergence } from './divergence';
import { copyFeatures } from './featurizer';
import { sessionPositions, type Session } from './session';
import type { StoredFeatures } from './stored-features';
import type { EngineSync } from './sync';
import type { Images } from './images';
import type { AddMemoryInput, ImportMemoryInput, ImportOptions, SaveOutcome } from './types';

/** Derived tags offered as suggestions: never one the memory already has. */
export function suggestTags(text: string, tags: readonly string[]): string[] {
  return deriveTags(text, { exclude: tags });
}

/** validTo before validFrom is refused wherever a memory is built or changed. */
export function checkValidity(m: Pick<Memory, 'validFrom' | 'validTo'>): void {
  if (m.validTo !== null && m.validTo < m.validFrom) throw new AppError('INVALID_OPTION', 'validTo must not be before validFrom.');
}

/**
 * The row of a new memory from a validated input: its id (a past createdAt gets an id carrying that
 * time, so ids keep sorting by when things happened), suggested tags, validity, session. Shared by
 * capture, importMemories and the file import, so every new memory is built by one rule.
 */
export function newMemoryRow(ctx: Pick<ServiceContext, 'newId'>, v: ValidMemoryInput, truncated: boolean, t: number, sessionId: string): Memory {
  const createdAt = v.createdAt ?? t;
  const memory: Memory = {
    id: ctx.newId(v.createdAt),
    text: v.text,
    tags: v.tags,
    suggestedTags: suggestTags(v.text, v.tags),
    importance: v.importance,
    ...(v.source !== undefined ? { source: v.source } : {}),
    ...(v.media !== undefined ? { media: v.media } : {}),
    createdAt,
    updatedAt: t,
    validFrom: v.validFrom ?? createdAt,
    validTo: v.validTo,
    sessionId,
    status: 'active',
    deletedAt: null,
    embedTruncated: truncated,
    recordedAt: t,
    lastAccessedAt: createdAt,
    strength: 1,
  };
  checkValidity(memory);
  return memory;
}

interface IngestDeps {
  images: Images;
  engine: EngineClient;
  stored: StoredFeatures;
  sync: EngineSync;
  session: Session;
  divergence: ReturnType<typeof createDivergence>;
}

export function createIngest(ctx: ServiceContext, { images, engine, stored, sync, session, divergence }: IngestDeps) {
  const { db } = ctx;

  const buildMemory = (v: ValidMemoryInput, truncated: boolean, t: number, sessionId: string): Memory =>
    newMemoryRow(ctx, v, truncated, t, sessionId);

  /** The live, current memory with the same text (trimmed, whitespace runs as one space), or null. */
  async function findDuplicate(text: string): Promise<Memory | null> {
    if (typeof text !== 'string' || !text.trim()) return null;
    const rows = await liveWithTextKey(db, textKey(text));
    return rows.find((r) => sameText(r.text, text)) ?? null;
  }

  async function add(input: AddMemoryInput, allowDuplicate = false): Promise<SaveOutcome> {
    const v0 = validateNewMemory(input);
    // a picture: its caption joins the media (E10 reads it), its row is written with the memory
    const picture = images.attach(v0.media, input.image);
    const v = { ...v0, media: picture.media };
    const existing = allowDuplicate || input.image ? null : await findDuplicate(v.text);
    if (existing) return { kind: 'already-saved', memory: existing };
    const t = ctx.now();
    const place = await session.place(t);
    const createdAt = v.createdAt ?? t;
    const [got] = await stored.featurizeAll([{ text: v.text, createdAt, sessionPosition: place.position, media: v.media }]);
    const memory = withV6Fields(buildMemory(v, got.item.truncated, t, place.id), textKey); // as stored
    await insertMemory(db, memory, stored.rowsOf(memory.id, got), await picture.row(memory.id));
    await session.persist();
    const forDivergence = copyFeatures(got.item.spaces); // the upsert transfers the originals
    await sync.index([memory.id], () => engine.upsert(stored.freshDoc(memory, got)));
    await divergence.afterCapture(forDivergence, memory.id);
    return { kind: 'saved', memory };
  }

  return {
    findDuplicate,

    /**
     * Like addMemory, but the same text as a live memory is an answer, not a failure:
     * { kind: 'already-saved', memory } (nothing written: offer to open it) or { kind: 'saved', memory }.
     */
    saveMemory: (input: AddMemoryInput): Promise<SaveOutcome> => add(input),

    /**
     * Validate -> featurize all spaces (outside any transaction) -> ONE transaction writing the
     * memory (with its suggested tags) and one row per present space -> engine upsert -> the
     * divergence of the new memory from the recent window (see latestDivergence()). Writes even
     * when the same text is saved (imports, tests); the capture form uses saveMemory.
     */
    async addMemory(input: AddMemoryInput): Promise<Memory> {
      return (await add(input, true)).memory;
    },

    /**
     * Imports many memories (e.g. the sample collection) all or nothing: every input is validated
     * first (INVALID_OPTION / EMPTY_TEXT / INVALID_IMPORTANCE name the item), then featurized in
     * batches outside any transaction (progress after each batch, abortable), then written in
     * ONE transaction, then indexed in one engine message. Inputs may carry a past createdAt and
     * their own sessionId. Ids are assigned in input order, so give inputs oldest first.
     */
    async importMemories(inputs: ImportMemoryInput[], opts: ImportOptions = {}): Promise<Memory[]> {
      if (!Array.isArray(inputs)) throw new AppError('INVALID_OPTION', 'Import expects a list of memories.');
      const valid = inputs.map((input, i) => {
        try {
          return validateNewMemory(input);
        } catch (e) {
          if (e instanceof AppError) throw new AppError(e.code, `Item ${i + 1}: ${e.message}`, e.detail);
          throw e;
        }
      });
      if (opts.signal?.aborted) throw new AppError('ABORTED');
      const t = ctx.now();
      const counts = new Map<string, number>();
      const places: { id: string; position: number }[] = [];
      for (const v of valid) places.push(await session.place(t, v.sessionId, counts));
      // Stored E1 vectors are used only from the encoder now running, at its dimension, finite.
      const { id: encoderId, dim } = ctx.embedder.info();
      const given = (i: number): Float32Array | undefined => {
        const e1 = opts.semanticFrom === encoderId ? inputs[i].semantic : undefined;
        return e1 instanceof Float32Array && e1.length === dim && e1.every(Number.isFinite) ? e1 : undefined;
      };
      const items = valid.map((v, i) => {
        const semantic = given(i);
        return { text: v.text, createdAt: v.createdAt ?? t, sessionPosition: places[i].position, media: v.media, ...(semantic ? { semantic } : {}) };
      });
      const got = await stored.featurizeAll(items, {
        signal: opts.signal,
        batch: opts.batchSize ?? 32,
        onBatch: (done) => opts.onProgress?.({ embedded: done, total: items.length, phase: 'embedding' }),
      });
      // the sample collection is marked by its import key ('sample:<id>'): removeSample finds it. A
      // loader that does not say so is recognised by the sample's own session ids (all of them).
      const sample = opts.sample ?? valid.every((v) => isSampleSession(v.sessionId));
      const memories = valid.map((v, i) => {
        const m = buildMemory(v, got[i].item.truncated, t, places[i].id);
        return sample ? { ...m, importKey: `${SAMPLE_KEY_PREFIX}${m.id}` } : m;
      });
      opts.onProgress?.({ embedded: items.length, total: items.length, phase: 'saving' });
      await insertMemories(
        db,
        memories,
        memories.flatMap((m, i) => stored.rowsOf(m.id, got[i])),
      );
      await session.persist();
      opts.onProgress?.({ embedded: items.length, total: items.length, phase: 'indexing' });
      await sync.index(
        memories.map((m) => m.id),
        () => engine.upsertMany(memories.map((m, i) => stored.freshDoc(m, got[i]))),
      );
      return memories;
    },

    /**
     * The backfill: featurizes every live memory whose features are missing or stale (rows
     * written by an older release's featurizers, a crash mid-import, a capture made while the
     * store's encoder could not load) and indexes it. Every space is recomputed and the old rows
     * replaced. Batches of `batchSize` (default 32), each in its own transaction; a memory edited
     * meanwhile keeps its own features; abortable; returns how many were filled.
     * It runs only while the store's encoder (`storeEncoder`) is the one running: moving a store
     * to another encoder is the switch's job alone (encoder-switch.ts: old vectors searched until
     * the new set is complete), so with a fallback running it does nothing and the stored vectors
     * stay as they are.
     */
    async featurizeMissing(opts: ImportOptions = {}): Promise<number> {
      const store = (await storeEncoder(db)).id;
      if (store !== '' && store !== ctx.embedder.info().id) {
        // the fallback's captures must not outvote the store's own vectors later: write the store's encoder down
        await keepStoreEncoder(db, store);
        return 0;
      }
      // the usual start-up: nothing stale, found from keys and the blocks' heads, no memory row read
      if ((await stored.staleIds(await liveMemoryIds(db))).length === 0) return 0;
      const live = await listLiveMemoryRows(db);
      const missing = await stored.staleOf(live);
      if (missing.length === 0) return 0;
      // an earlier version of an edited memory (v6) takes the place of its memory
      const positions = sessionPositions(live.filter((m) => m.supersededBy === undefined));
      for (const m of live) if (m.supersededBy !== undefined) positions.set(m.id, positions.get(m.supersededBy) ?? 0);
      const batch = Math.max(1, opts.batchSize ?? 32);
      let done = 0;
      for (let i = 0; i < missing.length; i += batch) {
        if (opts.signal?.aborted) throw new AppError('ABORTED');
        const part = missing.slice(i, i + batch);
        const got = await stored.featurizeAll(
          part.map((m) => ({ text: m.text, createdAt: m.createdAt, sessionPosition: positions.get(m.id) ?? 0, media: m.media })),
          { signal: opts.signal },
        );
        const written = await replaceVectorsIfUnchanged(
          db,
          part.map((m, j) => ({ memoryId: m.id, rows: stored.rowsOf(m.id, got[j]), expectedText: m.text })),
        );
        const byId = new Map(part.map((m, j) => [m.id, got[j]]));
        await sync.index(
          written.map((m) => m.id),
          () => engine.upsertMany(written.map((m) => stored.freshDoc(m, byId.get(m.id)!))),
        );
        done += written.length;
        opts.onProgress?.({ embedded: i + part.length, total: missing.length });
      }
      return done;
    },
  };
}
