// The services the UI calls: one instance per page, created by initServices() and reached with
// services(), which returns the typed API built by createServices (see README.md for the
// contract). `services().recall(...)`, `services().addMemory(...)`: no per-method restatement.

import { createJudgeBridge, type JudgeClient } from '../bridge/judge-bridge';
import { AppError, toAppError } from '../core/errors';
import type { HybridConfig } from '../core/hybrid';
import type { RecallOptionsInput } from '../core/recall';
import { openDb } from '../db/db';
import { DB_NAME } from '../db/schema';
import { createDbStatusStore, type DbStatus, type DbStatusStore } from '../db/status';
import { createEngineBridge, spawnEngineWorker, type EngineClient, type EngineSnapshot } from '../bridge/engine-bridge';
import type { WorkerHandle } from '../bridge/worker-lifecycle';
import type { Embedder } from '../embed/types';
import { createEmbedBridge } from '../bridge/embed-bridge';
import { createSearchController as makeController, type SearchController } from './search-controller';
import { createServices, type Services } from './create';
import { logError } from './context';
import type { SpaceFeaturizer } from './featurizer';
import type { ImportParser } from '../protocol/io';
import type { RecallOutcomeView, SearchOptions, SearchResultView } from './types';
import { storeEncoder } from '../db/encoder-vectors';
import { BUNDLED_ENCODERS, DEFAULT_ENCODER_ID } from '../embed/catalogue';
import { browserCacheStorage, modelsBaseUrl } from '../embed/model-store';
import type { EncoderFactory, EncoderRuntime } from './active-encoder';
import { findEncoderEntry, type ModelFilesDeps } from './models';
import type { EmbedBridgeOptions } from '../bridge/embed-bridge';

export * from './types';
export { requestPersistence, storageInfo } from './storage';
export type { SearchController, SearchOutcome } from './search-controller';
export type { DbState, DbStatus } from '../db/status';
export type { FeedbackRow } from '../db/schema';
export type { EngineStats } from '../bridge/engine-bridge';
export { createServices, type Services, type ServiceDeps } from './create';
export { SETTING_KEYS } from './settings';
export { backupStatus } from './backup';
export { parseAsOf } from './retrieval';
export { TRASH_DAYS } from './trash';
export type { PreparedImage, ImageInput, ImageChange } from './images';
export type { ImageRow as StoredImage } from '../db/images';
export type { ImportParser } from '../protocol/io';
export type { SpaceFeaturizer } from './featurizer';
export type { SessionState } from './session';
export { SESSION_IDLE_MS } from './session';
export type { EncoderChoice, ModelFilesDeps } from './models';
export type { EncoderSwitchStatus, EncoderSwitchState } from './encoder-switch';
export type { EncoderFactory, EncoderRuntime } from './active-encoder';

/** The database's state for the UI: `useSyncExternalStore(dbStatus.subscribe, dbStatus.get)`. */
export const dbStatus: Pick<DbStatusStore, 'get' | 'subscribe'> = createDbStatusStore();
const statusStore = dbStatus as DbStatusStore;

import type { ImageCodec } from './image-codec';

export interface InitServicesOptions {
  /** The sentence encoder. Default: a new embed-worker bridge (createEmbedBridge()); tests pass a fake. */
  embedder?: Embedder;
  /**
   * Computes the thirteen spaces at ingest and for queries. Default: the embedder when it can
   * (the embed bridge does), else E1-E4 only. Tests pass createLocalFeaturizer() (src/testing/encoder.ts).
   */
  featurizer?: SpaceFeaturizer;
  /** A session ends after this long without a capture or recall (default 30 min). */
  sessionIdleMs?: number;
  /** Default 'mnemograph'; tests pass a fresh name. */
  dbName?: string;
  /** Default: the engine worker. Tests pass e.g. a bridge over a MessageChannel. */
  engine?: (source: () => Promise<EngineSnapshot>) => EngineClient;
  hybridConfig?: Partial<HybridConfig>;
  sessionId?: string;
  now?: () => number;
  /** Start and fill the engine now (default true) rather than on the first search. */
  warm?: boolean;
  onIndexError?: (e: AppError) => void;
  onEngineCrash?: (e: AppError) => void;
  /** Reads import files. Default: the import worker (createIoBridge). Tests pass the same parsing in-process. */
  parser?: ImportParser;
  /**
   * Starts an encoder of the catalogue: the one stored as in use (setting `encoder`, else the
   * default) when no `embedder` is given, and the target of a switch. Default: a new embed
   * worker per encoder (bridgeEncoderFactory).
   */
  encoders?: EncoderFactory;
  /** Decodes pictures and draws thumbnails. Default: the browser's (createImageBitmap + OffscreenCanvas); tests pass their own. */
  imageCodec?: ImageCodec;
  /** Where downloaded / picked model files are kept. Default in a page: Cache Storage and `${BASE_URL}models/`. */
  modelFiles?: ModelFilesDeps;
  /** Memories per batch of an encoder switch (default 16). */
  switchBatchSize?: number;
  /** Careful ranking's judge. Default in a page: its own worker (createJudgeBridge), started only by startCarefulRanking(); null = none. */
  judge?: (() => JudgeClient) | null;
}

/** Each encoder in an embed worker of its own (the bridge's `ready` / `onProgress` feed the model status). */
export function bridgeEncoderFactory(extra: EmbedBridgeOptions = {}): EncoderFactory {
  return (entry) => {
    const init = { ...extra.init, encoder: entry.id, ...(entry.source === 'bundled' ? {} : { entry, fallbackEncoder: null }) };
    const b = createEmbedBridge({ ...extra, init });
    return { embedder: b, featurizer: b, dispose: () => b.dispose() };
  };
}

/** In a page: model files in Cache Storage, under the app's own models folder. */
function pageModelFiles(): ModelFilesDeps | undefined {
  if (typeof location === 'undefined') return undefined;
  const base = (import.meta as { env?: { BASE_URL?: string } }).env?.BASE_URL ?? '/';
  return { storage: browserCacheStorage(), modelsBase: modelsBaseUrl(location.origin, base) };
}

let current: Services | null = null;

/**
 * Opens the database, starts the engine and loads every live memory with its spaces into it.
 * Rejects with AppError SCHEMA_OUTDATED / DB_BLOCKED / DB_UNAVAILABLE (also shown on dbStatus).
 * Calling it again replaces the previous instance (closing it).
 */
export function initServices(opts: InitServicesOptions = {}): Promise<Services> {
  // Serialised: a second call (React StrictMode runs effects twice) waits for the first, then
  // replaces it, so no worker or connection is left behind.
  const run = initChain.then(() => doInit(opts));
  initChain = run.then(
    () => undefined,
    () => undefined, // the caller of this run gets its rejection; the chain only orders the runs
  );
  return run;
}

let initChain: Promise<void> = Promise.resolve();

async function doInit(opts: InitServicesOptions): Promise<Services> {
  if (opts.embedder !== undefined && (typeof opts.embedder?.embed !== 'function' || typeof opts.embedder?.info !== 'function'))
    throw new AppError('INVALID_CONFIG', 'initServices: the embedder must have embed() and info().');
  disposeServices();
  // the engine worker's script loads and compiles while this thread opens the database and reads
  // the store's encoder (issue 13: the first keyword answer waits on both); its first start takes it
  let early: WorkerHandle | undefined = !opts.engine && typeof Worker !== 'undefined' ? spawnEngineWorker() : undefined;
  const spawn = (): WorkerHandle => {
    const h = early ?? spawnEngineWorker();
    early = undefined;
    return h;
  };
  try {
    return await initWith(opts, spawn);
  } catch (e) {
    early?.terminate(); // not taken: the start failed before the engine's
    throw e;
  }
}

async function initWith(opts: InitServicesOptions, spawn: () => WorkerHandle): Promise<Services> {
  const db = await openDb(opts.dbName ?? DB_NAME, { status: statusStore });
  const encoders = opts.encoders ?? bridgeEncoderFactory();
  let own: EncoderRuntime | undefined;
  if (!opts.embedder) {
    // the encoder the stored vectors came from (recorded by the last switch, else found from the
    // vectors), else the default: a store moves to another encoder only through a switch
    const id = (await storeEncoder(db)).id || DEFAULT_ENCODER_ID;
    const entry = (await findEncoderEntry(db, id)) ?? BUNDLED_ENCODERS.find((e) => e.id === DEFAULT_ENCODER_ID)!;
    own = encoders(entry);
    // start loading the model now, beside the engine's start (whoever awaits it sees a failure)
    (own.embedder as { ready?: () => Promise<unknown> }).ready?.().catch(() => undefined);
  }
  const engine = opts.engine ?? ((source) => createEngineBridge({ source, onCrash: opts.onEngineCrash, spawn }));
  const s = createServices({
    db,
    embedder: opts.embedder ?? own!.embedder,
    encoder: own,
    encoders,
    modelFiles: opts.modelFiles ?? pageModelFiles(),
    switchBatchSize: opts.switchBatchSize,
    featurizer: opts.featurizer,
    sessionIdleMs: opts.sessionIdleMs,
    engine,
    hybridConfig: opts.hybridConfig,
    sessionId: opts.sessionId,
    now: opts.now,
    onIndexError: opts.onIndexError,
    parser: opts.parser,
    imageCodec: opts.imageCodec,
    judge: opts.judge === null ? undefined : (opts.judge ?? (typeof Worker !== 'undefined' ? () => createJudgeBridge() : undefined)),
  });
  if (opts.warm ?? true) {
    try {
      await s.engine.start();
    } catch (e) {
      s.dispose();
      throw e;
    }
  }
  // the trash keeps memories TRASH_DAYS days (by the services' clock): older ones are purged now
  await s.purgeTrash().catch((e: unknown) => (opts.onIndexError ? opts.onIndexError(toAppError(e)) : logError(e, 'could not purge the trash')));
  current = s;
  return s;
}

/** The running services (the typed API); throws NOT_READY until initServices has finished. */
export function services(): Services {
  if (!current) throw new AppError('NOT_READY', 'The app is still starting: the database is not open yet.');
  return current;
}

export function disposeServices(): void {
  current?.dispose(); // disposes the encoder in use when the services started it
  current = null;
  statusStore.set({ state: 'closed', error: null });
}

/** A controller over `search` that aborts the previous request and drops stale answers. */
export function createSearchController(): SearchController {
  return makeController<SearchResultView[], SearchOptions>((q, o, signal) => services().search(q, o, signal));
}

/** The same over `recall` (the full pipeline): `run(text, recallOptions)` answers the whole outcome. */
export function createRecallController(): SearchController<RecallOutcomeView, RecallOptionsInput & { keywordsOnly?: boolean; refine?: boolean }> {
  return makeController<RecallOutcomeView, RecallOptionsInput & { keywordsOnly?: boolean; refine?: boolean }>((q, o, signal) => services().recall(q, o, signal));
}

export type { DbStatusStore };
export type DbStatusSnapshot = DbStatus;
