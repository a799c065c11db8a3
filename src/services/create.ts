// createServices(deps): builds each domain module over the shared deps and returns the one API
// object the UI calls (through services() in index.ts). Each module has one job:
//   stored-features  E1 and the other spaces as stored; engine docs; the engine's snapshot
//   sync             the engine follows the database; the other tabs follow over a channel
//   session          session ids and E4 positions
//   ingest / edits   writing new memories ("already saved") / changing stored ones (versions)
//   trash            delete, undo, restore, purge (30 days, empty trash), delete all, the sample
//   review           quarantine, validate, discard; opening and citing (access, for decay)
//   browse           the full list: a count and windows of headers, tag counts
//   retrieval        recall (one engine call per recall) and the plain search
//   divergence       the latest divergence from the recent window, for the banner
//   feedback         reinforce / suppress and the lateral evaluator
//   settings         similarity config, recall defaults (also as live queries), other keys
//   import / restore previewImport / runImport: files parsed in the import worker, written in batches
//   backup           exportBackup / exportMarkdown, the backup reminder
//   models           the model manager: encoders on offer, the opt-in hub download, picked folders
//   encoder-switch   re-embedding every memory with another encoder, then the flip
//   judge            careful ranking: the judge's worker after warm, its background fill, its setting

import type { Observable } from 'dexie';
import type { Memory, MemoryId } from '../core/types';
import { countMemories, listMemories, liveMemoriesQuery, liveMemoryCountQuery } from '../db/repo';
import type { EngineLoadProgress, EngineStats } from '../protocol/engine';
import { createIoBridge } from '../bridge/io-bridge';
import { createBackup } from './backup';
import { createContext, type ServiceDeps } from './context';
import { createDivergence } from './divergence';
import { createBrowse } from './browse';
import { createEdits } from './edits';
import { createFeedback } from './feedback';
import { createImport } from './import';
import { createIngest } from './ingest';
import { createRetrieval } from './retrieval';
import { createDeepRecall } from './deep-recall';
import { createReview } from './review';
import { createSession } from './session';
import { createSettings } from './settings';
import { createStoredFeatures } from './stored-features';
import { createEngineSync } from './sync';
import { createTrash } from './trash';
import { createActiveEncoder, runtimeOf } from './active-encoder';
import { createEncoderSwitch } from './encoder-switch';
import { createModels } from './models';
import { ENCODER_SETTING } from '../db/schema';
import { createEntityIndex } from './entities';
import { createLanguageModel } from './language-model';
import { createImages } from './images';
import { browserImageCodec } from './image-codec';
import { createCarefulRanking } from './judge';

export type { ServiceDeps };

export function createServices(deps: ServiceDeps) {
  // the encoder in use, replaced when a switch of encoders finishes (every module reads it through ctx)
  const active = createActiveEncoder(deps.encoder ?? runtimeOf(deps.embedder, deps.featurizer));
  const ctx = createContext({ ...deps, embedder: active.embedder, featurizer: active.featurizer });
  // the services dispose the encoder they started (deps.encoder, or one a switch brought in)
  let ownsEncoder = !!deps.encoder;
  active.subscribe(() => (ownsEncoder = true));
  const { db } = ctx;
  const stored = createStoredFeatures(ctx);
  // the engine fills itself from the database on every (re)start
  const engine = deps.engine(() => stored.snapshot());
  const entities = createEntityIndex(ctx);
  const languageModel = createLanguageModel(db);
  // careful ranking's fill pauses while a search or capture runs and looks again after every write
  const judge = createCarefulRanking(ctx, { client: deps.judge ?? null });
  const { hold, written, noteAnswer: _noteAnswer, wanted: _wanted, prepare: _judgePrepare, deepJudge: _deepJudge, disposeCarefulRanking, ...careful } = judge;
  /** Runs `fn` with careful ranking's fill paused (a search or a capture). */
  const held = <A extends unknown[], R>(fn: (...a: A) => Promise<R>) => async (...a: A): Promise<R> => {
    const release = hold();
    try {
      return await fn(...a);
    } finally {
      release();
    }
  };
  const sync = createEngineSync(ctx, engine, stored, {
    crossTab: deps.crossTab,
    afterWrite: (ids, known) => {
      written();
      return entities.reindexEntities(ids, known);
    },
  });
  const session = createSession(ctx, { sessionId: deps.sessionId, idleMs: deps.sessionIdleMs });
  const divergence = createDivergence(ctx, engine, session);
  const deepRecall = createDeepRecall(ctx);
  // a reinforcement refreshes and strengthens the memory (decay), and a deep-search hit trains the scorer
  const feedback = createFeedback(ctx, engine, sync, async (id) => {
    await review.reinforced(id);
    await deepRecall.noteOpened(id);
  });
  const images = createImages(ctx, deps.imageCodec ?? browserImageCodec);
  const ingestAll = createIngest(ctx, { images, engine, stored, sync, session, divergence });
  const ingest = { ...ingestAll, saveMemory: held(ingestAll.saveMemory), addMemory: held(ingestAll.addMemory) };
  const trash = createTrash(ctx, { engine, stored, sync });
  const review = createReview(ctx, { engine, stored, sync, deleteMemories: trash.deleteMemories });
  const { disposeBrowse, ...browse } = createBrowse(ctx);
  const { reinforced: _reinforced, openMemory, ...reviewApi } = review;
  const { prepare: _prepare, after: _after, noteOpened, ...deepRecallApi } = deepRecall;
  // the import worker starts on the first preview, not before
  const parser = deps.parser ?? createIoBridge();
  // the modules' hooks for each other (recall tells feedback the modes it returned; capture and
  // recall feed the divergence store) stay out of the API
  const { noteReturned: _internal, ...feedbackApi } = feedback;
  const { afterCapture: _capture, afterRecall: _recall, dispose: disposeDivergence, ...divergenceApi } = divergence;
  const activeId = () => active.current().embedder.info().id;
  const models = createModels(ctx, deps.modelFiles ?? { storage: null, modelsBase: 'http://localhost/models/' }, activeId);
  const { disposeEncoderSwitch, followEncoderChange, ...encoderSwitch } = createEncoderSwitch(ctx, {
    engine,
    sync,
    active,
    factory: deps.encoders,
    findEntry: models.findEntry,
    batchSize: deps.switchBatchSize,
  });
  sync.onSetting(ENCODER_SETTING, followEncoderChange);

  return {
    db,
    engine,
    embedder: ctx.embedder,
    featurizer: ctx.featurizer,
    ...ingest,
    ...createEdits(ctx, { images, engine, stored, sync, session }),
    prepareImage: images.prepareImage,
    getImages: images.getImages,
    ...trash,
    ...reviewApi,
    /** The memory, its access recorded; a deep-search hit opened trains the scorer (seed 003 F). */
    async openMemory(id: MemoryId, opts: { includeDeleted?: boolean } = {}): Promise<Memory> {
      const m = await openMemory(id, opts);
      await noteOpened(id);
      return m;
    },
    ...deepRecallApi,
    ...browse,
    ...heldRetrieval(createRetrieval(ctx, { engine, stored, session, divergence, feedback, languageModel, deep: deepRecall, onEncoderChange: active.subscribe, careful: judge }), held),
    ...careful,
    ...languageModel,
    ...divergenceApi,
    ...feedbackApi,
    ...createSettings(db, engine, sync),
    ...heldImport(createImport(ctx, { engine, stored, sync, session, parser }), held),
    ...createBackup(ctx, { io: parser }),
    ...entities,
    sessionState: session.sessionState,
    ...models,
    ...encoderSwitch,
    /** The encoder in use (its embedder's load progress, for the model status) and its changes. */
    currentEncoder: active.current,
    onEncoderChange: active.subscribe,

    /** Live list of memories, newest first, tombstones excluded (useObservable / useLiveQuery). */
    liveMemories: (limit = 200): Observable<Memory[]> => liveMemoriesQuery(db, limit),
    /** Live count of non-deleted memories. */
    liveMemoryCount: (): Observable<number> => liveMemoryCountQuery(db),
    /** The same queries as plain promises, for `useLiveQuery(() => services().listMemories(50))`. */
    listMemories: (limit = 200): Promise<Memory[]> => listMemories(db, limit),
    countMemories: (): Promise<number> => countMemories(db),
    engineStats: (): Promise<EngineStats> => engine.stats(),
    /** The engine's staged start (keyword searchable, features attached, warm): the last step told, and every next one. */
    engineLoad: (): EngineLoadProgress | null => engine.loadProgress(),
    onEngineLoad: (listener: (p: EngineLoadProgress) => void): (() => void) => engine.onLoadProgress(listener),
    /**
     * Call once the encoder is ready: when it is not the one the engine was filled for (the
     * default's files were absent and the fallback runs), the engine is refilled from the
     * database for it. Resolves true when it reloaded. featurizeMissing() then embeds what the
     * running encoder has no vectors for.
     */
    async syncEncoder(): Promise<boolean> {
      if (!stored.engineEncoderStale()) return false;
      await engine.reload();
      return true;
    },

    /** The engine's snapshot as read from the database (what a fresh engine is filled with). */
    snapshot: stored.snapshot,
    /** Another tab changed these memories: re-read them into this tab's engine. */
    syncFromDb: sync.syncFromDb,
    /** Resolves when the changes announced by other tabs so far are in this tab's engine (tests). */
    whenSynced: sync.whenSynced,

    dispose(): void {
      disposeDivergence(); // first: it follows a setting by a live query on the database
      disposeBrowse();
      disposeEncoderSwitch();
      disposeCarefulRanking();
      if (ownsEncoder) active.current().dispose();
      sync.close();
      engine.dispose();
      parser.dispose();
      db.close();
    },
  };
}

type Held = <A extends unknown[], R>(fn: (...a: A) => Promise<R>) => (...a: A) => Promise<R>;
/** Recall and search pause careful ranking's fill while they run. */
function heldRetrieval<T extends { recall: (...a: never[]) => Promise<unknown>; search: (...a: never[]) => Promise<unknown> }>(r: T, held: Held): T {
  return { ...r, recall: held(r.recall), search: held(r.search) };
}
/** So does an import. */
function heldImport<T extends { runImport: (...a: never[]) => Promise<unknown> }>(r: T, held: Held): T {
  return { ...r, runImport: held(r.runImport) };
}

/** The services API: everything the UI calls, as built by createServices. */
export type Services = ReturnType<typeof createServices>;
