// The engine's API as the worker exposes it (every failure leaves as an ErrorEnvelope), and the
// staged start from the database (schema v9): the live memories in large pages, searchable by
// their words as soon as they are in (the load call returns then: first answers are keyword
// results), then the current feature blocks, E1 first, attached in chunks between which the
// worker answers queries; 'warm' when everything is in. A write that reaches the engine meanwhile
// (upsert / remove) wins over the stored features read later: those ids are skipped.
// One module over 400 lines on purpose: the staged start, the two snapshots' saves and the write
// calls share one closure of mutable state (generation, touched ids, the snapshots' bases); the
// steps that need no such state live in engine-lexical.ts, engine-warm.ts and engine-slices.ts.

import { AppError, isAborted, toAppError } from '../src/core/errors';
import type { HybridQuery } from '../src/core/hybrid';
import type { RecallOptionsInput } from '../src/core/recall';
import type { SerializedFeatures, SimilarityConfig } from '../src/core/spaces';
import type { MemoryId, SpaceId } from '../src/core/types';
import {
  toIndexDoc,
  type EngineDivergenceQuery,
  type EngineDoc,
  type EngineFeedbackEvent,
  type EngineJudgeSource,
  type EngineModelSource,
  type EngineLoadOptions,
  type EngineLoadProgress,
  type EngineRecallQuery,
  type EngineSearchOptions,
  type EngineStoreSource,
} from '../src/protocol/engine';
import { guardApi } from '../src/protocol/guard';
import { EngineCore } from './engine-core';
import { releaseJudge } from './engine-deep';
import { blockData, currentHeads, memoryPages, openStore } from './engine-store/read';
import { readChangedSince, readWordsStart, writeWords } from './engine-store/lexical';
import { inSlices, sliceClock, slicePause } from './engine-slices';
import { adoptSnapshot, applyChanged, fillTexts, maxChangesAtStart, packWords, rewriteAfter, stillPending } from './engine-lexical';
import { dropEngine, readEngineStart, readFeaturesOf, readFeaturesSince, writeEngine, type EngineStart } from './engine-store/engine';
import { adoptBuilt, maxEngineChanges, packBuilt, reattach, rowsCutAtArrays, type BuiltState } from './engine-warm';

const nextTask = (): Promise<void> => new Promise((r) => setTimeout(r, 0));
/** Memories attached per call; the worker yields to queued queries once a slice has taken SLICE_MS (engine-slices.ts). */
const ATTACH_BATCH = 128;
/** E1 vectors set per call (4,096 took 0.8-2.2 s in one call at 30k under load). */
const VECTOR_BATCH = 128;
/** Blocks read per IndexedDB request. */
const BLOCKS_PER_READ = 8;
/** Quiet time after the last write before the keyword snapshot is rewritten. */
const SAVE_IDLE_MS = 5000;
/**
 * After a start from the keyword snapshot, the texts pass waits for the first query (and this
 * long for its rows to be read on the page's side) or TEXTS_WAIT_MS without one: the first
 * keyword answer does not queue behind its reads and chunks (issue 13). `whenWarm` ends the wait.
 */
const AFTER_FIRST_QUERY_MS = 150;
const TEXTS_WAIT_MS = 1000;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

type Progress = (p: EngineLoadProgress) => unknown;

export function createEngineApi(core: EngineCore = new EngineCore()) {
  /** Bumped by every load: a staged load that is no longer the newest stops. */
  let generation = 0;
  /** Ids written through the API since the staged load began: their stored features are older. */
  let touched = new Set<MemoryId>();
  /** The same ids in the order they came (the engine snapshot's adoption tells which came while it read). */
  let touchLog: MemoryId[] = [];
  let warm: Promise<void> = Promise.resolve();
  const touch = (ids: MemoryId[]) => {
    if (!core.warm) {
      for (const id of ids) touched.add(id);
      touchLog.push(...ids);
    }
    if (built) {
      built.changes += ids.length;
      for (const id of ids) built.told.add(id);
    }
    if (words) {
      words.changes += ids.length;
      if (core.warm) scheduleSave();
    }
  };
  /** A burst of writes (an import) saves once, after it. */
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  const scheduleSave = () => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => maybeSave(), SAVE_IDLE_MS);
  };
  const tell = (onProgress: Progress | undefined, p: EngineLoadProgress) => {
    try {
      void Promise.resolve(onProgress?.(p)).catch(() => undefined);
    } catch {
      /* the page went away: nothing to tell */
    }
  };

  /** The keyword snapshot's state: the log seq the engine's words cover, changes since, texts still to read. */
  let words: { source: EngineStoreSource; base: number; changes: number } | null = null;
  /** Ends the texts pass's wait (the first query was answered, or someone waits for warm). */
  let queried: () => void = () => undefined;
  let saving: Promise<unknown> = Promise.resolve();
  /** The engine snapshot's state (schema v12): the log seq the engine's features cover, changes since, what it was built for. */
  let built: BuiltState | null = null;
  const maybeSave = () => {
    maybeSaveWords();
    maybeSaveEngine();
  };

  async function loadFromStore(source: EngineStoreSource, opts: EngineLoadOptions, onProgress?: Progress): Promise<{ size: number }> {
    const gen = ++generation;
    const t0 = performance.now();
    const ms = () => Math.round(performance.now() - t0);
    const db = await openStore(source);
    let adopted = false;
    try {
      const start = await readWordsStart(db, maxChangesAtStart);
      words = { source, base: start.lastSeq, changes: Number.POSITIVE_INFINITY };
      if (start.problem === null) {
        try {
          adoptSnapshot(core, start.snapshot, opts);
          applyChanged(core, start.changed);
          fillTexts(core, start.versions.filter((m) => m.deletedAt === null).map((m) => toIndexDoc(m)));
          adopted = true;
          words.changes = start.changed.size;
        } catch (e) {
          console.warn(`The keyword index's snapshot was not used (${toAppError(e).detail ?? toAppError(e).message}); it is rebuilt from the memories.`);
        }
      }
      if (!adopted) await loadPages(gen, db, opts, onProgress, ms);
    } catch (e) {
      db.close();
      throw e;
    }
    core.warm = false;
    touched = new Set();
    touchLog = [];
    built = { source, base: 0, changes: Number.POSITIVE_INFINITY, want: { producers: source.producers, dim: opts.dim }, told: new Set() };
    tell(onProgress, { stage: 'keyword', done: core.stats().size, total: core.stats().size, ms: ms() });
    const firstQuery = new Promise<void>((r) => (queried = r));
    warm = (async () => {
      // the first keyword answer goes first: nothing big is read (the texts, the engine snapshot's
      // rows) until it is answered or TEXTS_WAIT_MS passed
      if (adopted) await Promise.race([firstQuery, sleep(TEXTS_WAIT_MS)]);
      // the engine snapshot's rows are read while the texts are (two read-only transactions), and
      // adopted as soon as they are in, between the texts' pages (not after them: issue 13)
      const before = touchLog.length;
      const engineStart = readEngineStart(db, built!.want, maxEngineChanges).catch((e: unknown): EngineStart => ({ problem: toAppError(e).message, changed: new Map(), lastSeq: 0 }));
      const adoption = engineStart.then((start) => adoptStored(gen, db, start, before, onProgress, ms));
      adoption.catch(() => undefined); // awaited below, after the texts
      if (adopted) await readTexts(gen, db, onProgress, ms);
      if (!(await adoption)) await attachStored(gen, db, source, onProgress, ms);
      else if (gen === generation) markWarm(onProgress, ms);
    })().finally(() => db.close());
    warm.then(() => gen === generation && maybeSave(), () => undefined);
    warm.catch(() => undefined); // a failure is reported by whenWarm / stats; the keyword engine stays
    return { size: core.stats().size };
  }

  /** No usable snapshot: every memory read and tokenised, page by page. */
  async function loadPages(gen: number, db: Awaited<ReturnType<typeof openStore>>, opts: EngineLoadOptions, onProgress: Progress | undefined, ms: () => number): Promise<void> {
    const total = await db.memories.count();
    let done = 0;
    let first = true;
    for await (const page of memoryPages(db)) {
      if (gen !== generation) throw new AppError('ABORTED');
      const docs = page.filter((m) => m.deletedAt === null).map((m) => toIndexDoc(m));
      if (first) core.load(docs, opts);
      else core.upsertMany(docs);
      first = false;
      done += page.length;
      tell(onProgress, { stage: 'memories', done, total, ms: ms() });
      await nextTask();
    }
    if (first) core.load([], opts);
  }

  /** After a start from the snapshot: the docs' texts from the memory rows (no tokenising unless one differs); a doc no live row has is removed. */
  async function readTexts(gen: number, db: Awaited<ReturnType<typeof openStore>>, onProgress: Progress | undefined, ms: () => number): Promise<void> {
    const total = await db.memories.count();
    let done = 0;
    let repaired = 0;
    for await (const page of memoryPages(db)) {
      if (gen !== generation) return;
      repaired += fillTexts(core, page.filter((m) => m.deletedAt === null && !touched.has(m.id)).map((m) => toIndexDoc(m)));
      done += page.length;
      tell(onProgress, { stage: 'memories', done, total, ms: ms() });
      await nextTask();
    }
    if (gen !== generation) return;
    const gone = stillPending(core).filter((id) => !touched.has(id));
    if (gone.length) core.removeMany(gone);
    if (words && repaired + gone.length > 0) words.changes = Number.POSITIVE_INFINITY;
  }

  /** Writes a new snapshot once enough changed since the last (or none was usable), in the background. */
  function maybeSaveWords(): void {
    const w = words;
    if (!w || !core.warm || w.changes < rewriteAfter(core.stats().size)) return;
    const gen = generation;
    saving = saving.then(async () => {
      if (gen !== generation || !core.warm) return;
      const db = await openStore(w.source);
      try {
        const since = await readChangedSince(db, w.base);
        if (!since || gen !== generation) return;
        applyChanged(core, since.changed);
        const snapshot = packWords(core); // synchronous after the read: no message lands between
        w.changes = 0;
        w.base = since.seq;
        await writeWords(db, snapshot, since.seq);
      } finally {
        db.close();
      }
    }).catch((e) => console.warn(`The keyword index's snapshot was not saved (${toAppError(e).message}).`));
  }

  /**
   * The engine snapshot (schema v12), when usable: its vectors and space index adopted, the
   * memories logged since re-attached from their blocks, then those written through the engine
   * since `before` (when the read began: their upserts went to the replaced index) read again. False: the caller
   * attaches every block (the snapshot is rewritten once warm).
   */
  async function adoptStored(gen: number, db: Awaited<ReturnType<typeof openStore>>, start: EngineStart, before: number, onProgress: Progress | undefined, ms: () => number): Promise<boolean> {
    const b = built!;
    if (gen !== generation) return true; // a newer load owns the engine
    b.base = start.lastSeq; // what a snapshot built from the blocks read after this covers
    if (start.problem !== null || !start.snapshot) {
      if (start.problem !== 'missing') console.info(`The engine's snapshot was not used (${start.problem}); every feature block is read instead.`);
      return false;
    }
    tell(onProgress, { stage: 'features', done: 0, total: 1, ms: ms() });
    try {
      await adoptBuilt(core, start.snapshot, pauseFor(gen), start.computed);
      reattach(core, start.changed);
    } catch (e) {
      if (gen !== generation) return true;
      console.warn(`The engine's snapshot was not used (${toAppError(e).detail ?? toAppError(e).message}); every feature block is read instead.`);
      core.hybrid.adoptVectors(() => undefined); // no vector of the refused snapshot stays
      // the memories written through the engine during the start lost their vectors with it, and
      // the blocks' pass skips them (their write wins): their stored features are read again now
      await rereadTouched(gen, db, [...touched]);
      return false;
    }
    const during = new Set(touchLog.slice(before)); // their upserts went to the replaced index
    await rereadTouched(gen, db, [...during]);
    if (gen !== generation) return true;
    // rows of the first snapshots (cut every 32 MiB): rewritten once warm, so the next start copies nothing twice
    b.changes = rowsCutAtArrays(start.snapshot) && start.head?.cutAtArrays === true ? start.changed.size + during.size : Number.POSITIVE_INFINITY;
    return true;
  }

  /** `ids` (written through the engine) re-attached from their stored features, except those written again meanwhile (newer in the engine). */
  async function rereadTouched(gen: number, db: Awaited<ReturnType<typeof openStore>>, ids: readonly MemoryId[]): Promise<void> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return;
    const after = touchLog.length;
    const got = await readFeaturesOf(db, unique, built!.want.producers);
    if (gen !== generation) return;
    for (const id of touchLog.slice(after)) got.delete(id); // upserted since: newer
    reattach(core, got);
  }

  /** After the snapshot's adoption and the texts pass: every space is in. */
  function markWarm(onProgress: Progress | undefined, ms: () => number): void {
    core.warm = true;
    touched = new Set();
    touchLog = [];
    const size = core.built.spaces.size;
    tell(onProgress, { stage: 'warm', done: size, total: size, ms: ms() });
  }
  const pauseFor = (gen: number) => slicePause(() => gen !== generation);
  /** While a save copies the engine's arrays (in steps), the writes wait for it, in the order they came. */
  let held: Promise<void> | null = null;
  const afterHold = (write: () => void): void | Promise<void> => (held ? held.then(write) : write());

  /** Writes a new engine snapshot once enough changed since the last (or none was usable), in the background, after the keyword snapshot's. */
  function maybeSaveEngine(): void {
    const b = built;
    if (!b || !core.warm || b.changes < rewriteAfter(core.stats().size)) return;
    const gen = generation;
    saving = saving.then(async () => {
      if (gen !== generation || !core.warm || built !== b) return;
      const db = await openStore(b.source);
      try {
        const told = b.told;
        b.told = new Set();
        const since = await readFeaturesSince(db, b.base, b.want.producers);
        if (!since || gen !== generation) return;
        // a write whose message never reached this engine (another tab's) is applied; the ones it was told of it holds (an import's 100k are not re-indexed)
        for (const id of told) {
          since.memories.delete(id);
          since.changed.delete(id);
        }
        applyChanged(core, since.memories);
        reattach(core, since.changed);
        let snapshot;
        let release = () => undefined as void;
        held = new Promise<void>((r) => (release = r));
        try {
          // copied and checksummed in steps after the read, queries answered between them; writes wait
          snapshot = await packBuilt(core, pauseFor(gen));
        } catch (e) {
          if (isAborted(e)) throw e;
          built = null; // this engine cannot pack its index: no stale snapshot holds the log back
          await dropEngine(db);
          throw e;
        } finally {
          held = null;
          release();
        }
        b.changes = 0;
        b.base = since.seq;
        await writeEngine(db, snapshot, { seq: since.seq, producers: b.want.producers, dim: b.want.dim, size: core.built.spaces.size });
      } finally {
        db.close();
      }
    }).catch((e) => isAborted(e) || console.warn(`The engine's snapshot was not saved (${toAppError(e).detail ?? toAppError(e).message}).`));
  }

  async function attachStored(gen: number, db: Awaited<ReturnType<typeof openStore>>, source: EngineStoreSource, onProgress: Progress | undefined, ms: () => number): Promise<void> {
    const heads = await currentHeads(db, source.producers);
    const fresh = (id: MemoryId) => !touched.has(id);
    // E1 first (dense search works before the other spaces are in), then the other spaces' blocks
    // by block number: blocks of the same number cover about the same memories (they were written
    // together), so a memory is attached as soon as its last space arrives and only the memories
    // still waiting for a space are held, not every feature of the store at once
    const e1 = heads.filter((h) => h.space === 'E1');
    const rest = heads.filter((h) => h.space !== 'E1').sort((a, b) => a.n - b.n || (a.space < b.space ? -1 : a.space > b.space ? 1 : 0));
    const expected = new Map<MemoryId, number>();
    for (const h of rest) for (const id of h.ids) expected.set(id, (expected.get(id) ?? 0) + 1);
    const waiting = new Map<MemoryId, SerializedFeatures>();
    let read = 0;
    let attached = 0;
    const entries = (h: (typeof heads)[number], d: NonNullable<Awaited<ReturnType<typeof blockData>>[number]>, each: (id: MemoryId, buf: ArrayBuffer) => void) => {
      const spans = new Uint32Array(d.spans);
      h.ids.forEach((id, k) => each(id, d.data.slice(spans[2 * k], spans[2 * k] + spans[2 * k + 1])));
    };
    for (const [group, isE1] of [[e1, true], [rest, false]] as const) {
      for (let i = 0; i < group.length; i += BLOCKS_PER_READ) {
        if (gen !== generation) return;
        const part = group.slice(i, i + BLOCKS_PER_READ);
        const datas = await blockData(db, part);
        const clock = sliceClock();
        const stop = () => gen !== generation;
        const vectors: { id: MemoryId; features: SerializedFeatures }[] = [];
        const ready: { id: MemoryId; features: SerializedFeatures }[] = [];
        for (let j = 0; j < part.length; j++) {
          const h = part[j];
          const d = datas[j];
          if (!d) continue;
          if (clock.due()) {
            await clock.yield();
            if (stop()) return;
          }
          entries(h, d, (id, buf) => {
            if (isE1) {
              // a memory with no other space is attached whole here (its slot in the space index)
              if (fresh(id)) (expected.has(id) ? vectors : ready).push({ id, features: { E1: buf } });
              return;
            }
            const f = waiting.get(id) ?? waiting.set(id, {}).get(id)!;
            f[h.space as SpaceId] = buf;
            const left = expected.get(id)! - 1;
            expected.set(id, left);
            if (left > 0) return;
            waiting.delete(id);
            if (fresh(id)) ready.push({ id, features: f });
          });
        }
        // attached in time slices, the worker answering queries between them
        if (!(await inSlices(clock, vectors, VECTOR_BATCH, (p) => core.attachVectors(p.filter((x) => fresh(x.id))), stop))) return;
        if (!(await inSlices(clock, ready, ATTACH_BATCH, (p) => core.attachFeatures(p.filter((x) => fresh(x.id))), stop))) return;
        attached += ready.length;
        read += part.length;
        tell(onProgress, { stage: 'features', done: read, total: heads.length, ms: ms() });
        await nextTask();
      }
    }
    // a block listed in a head but missing its data leaves memories waiting: attach what they have
    const left = [...waiting].filter(([id]) => fresh(id));
    const clock = sliceClock();
    if (!(await inSlices(clock, left, ATTACH_BATCH, (p) => core.attachFeatures(p.filter(([id]) => fresh(id)).map(([id, features]) => ({ id, features }))), () => gen !== generation))) return;
    if (gen !== generation) return;
    core.settle();
    core.warm = true;
    touched = new Set();
    tell(onProgress, { stage: 'warm', done: attached + left.length, total: attached + left.length, ms: ms() });
  }

  return guardApi(
    {
      load: (docs: EngineDoc[], opts: EngineLoadOptions) => {
        generation++;
        words = null;
        built = null;
        core.warm = true;
        return core.load(docs, opts);
      },
      loadFromStore,
      /** Resolves when a staged load has attached every stored feature (rejects if that failed). */
      whenWarm: () => (queried(), warm),
      /** Resolves when a keyword snapshot being written is stored (tests, the bench). */
      whenSaved: () => saving.then(() => undefined),
      /** Writes the keyword snapshot now if anything changed since the last (tests, the bench). */
      saveWords: () => {
        if (words) words.changes = Math.max(words.changes, Number.POSITIVE_INFINITY);
        maybeSaveWords();
        return saving.then(() => undefined);
      },
      /** Writes the engine snapshot now (tests, the bench). */
      saveEngine: () => {
        if (built) built.changes = Number.POSITIVE_INFINITY;
        maybeSaveEngine();
        return saving.then(() => undefined);
      },
      upsert: (doc: EngineDoc) =>
        afterHold(() => {
          touch([doc.id]);
          core.upsert(doc);
        }),
      upsertMany: (docs: EngineDoc[]) =>
        afterHold(() => {
          touch(docs.map((d) => d.id));
          core.upsertMany(docs);
        }),
      remove: (id: MemoryId) =>
        afterHold(() => {
          touch([id]);
          core.remove(id);
        }),
      removeMany: (ids: MemoryId[]) =>
        afterHold(() => {
          touch(ids);
          core.removeMany(ids);
        }),
      search: async (q: HybridQuery, opts: EngineSearchOptions, requestId?: number) => {
        const out = await core.search(q, opts, requestId);
        void sleep(AFTER_FIRST_QUERY_MS).then(queried);
        return out;
      },
      // a plain search's keyword half, computed while its query is embedded (HybridIndex.prepareLexical);
      // an optimisation only: before a load, or on options the search will refuse, it does nothing
      prepareSearch: (text: string, opts: EngineSearchOptions) => {
        const { decayTauDays: _tau, now: _now, ...hybridOpts } = opts;
        if (core.stats().loaded) core.hybrid.prepareLexical(text, hybridOpts);
      },
      // judge, model: careful ranking's judge and the language model for deep search (Comlink proxies from the services), released after the recall
      recall: async (q: EngineRecallQuery, opts: RecallOptionsInput, requestId?: number, judge?: EngineJudgeSource, model?: EngineModelSource) => {
        const warmBefore = core.warm;
        try {
          const out = await core.recall(q, opts, requestId, judge, model);
          void sleep(AFTER_FIRST_QUERY_MS).then(queried);
          return warmBefore ? out : { ...out, partial: true };
        } finally {
          releaseJudge(judge);
          releaseJudge(model);
        }
      },
      divergence: (q: EngineDivergenceQuery) => core.divergence(q),
      recordFeedback: (e: EngineFeedbackEvent) => core.recordFeedback(e),
      setSimilarityConfig: (c: SimilarityConfig) => core.setSimilarityConfig(c),
      setRecallDefaults: (o: RecallOptionsInput) => core.setRecallDefaults(o),
      lateralStatus: () => core.lateralStatus(),
      reEnableLateral: () => core.reEnableLateral(),
      cancel: (requestId: number) => core.cancel(requestId),
      stats: () => core.stats(),
    },
    'WORKER_CRASHED',
  );
}
