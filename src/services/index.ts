// The services API the UI calls. One instance per page, created by initServices(); the
// functions below delegate to it. See README.md for the contract.

import type { Observable } from 'dexie';
import { AppError } from '../core/errors';
import type { HybridConfig } from '../core/hybrid';
import type { Memory, MemoryId, MemoryStatus } from '../core/types';
import { openDb } from '../db/db';
import { countMemories as countRows, getSetting as getSettingRow, listMemories as listRows, liveMemoriesQuery, liveMemoryCountQuery, putSetting } from '../db/repo';
import type { FeedbackRow } from '../db/schema';
import { DB_NAME } from '../db/schema';
import { createDbStatusStore, type DbStatus, type DbStatusStore } from '../db/status';
import { createEngineBridge, type EngineClient, type EngineSnapshot, type EngineStats } from '../bridge/engine-bridge';
import type { Embedder } from '../embed/types';
import { createEmbedBridge, type EmbedBridge } from '../bridge/embed-bridge';
import { createSearchController as makeController, type SearchController } from './search-controller';
import { MnemographServices } from './services';
import type {
  AddMemoryInput,
  DivergenceView,
  FeedbackInput,
  ImportMemoryInput,
  ImportOptions,
  RecallQuery,
  RecallView,
  SearchOptions,
  SearchResultView,
  UpdateMemoryInput,
} from './types';
import type { SpaceFeaturizer } from './featurizer';
import type { LateralStatus, RecallOptionsInput } from '../core/recall';
import type { SimilarityConfig } from '../core/spaces';
import type { SessionState } from './session';

export * from './types';
export { requestPersistence, storageInfo } from './storage';
export type { SearchController, SearchOutcome } from './search-controller';
export type { DbState, DbStatus } from '../db/status';
export type { FeedbackRow } from '../db/schema';
export type { EngineStats } from '../bridge/engine-bridge';
export { MnemographServices, SETTING_KEYS, formatReinforceLine, formatSuppressLine } from './services';
export type { SpaceFeaturizer } from './featurizer';
export type { SessionState } from './session';
export { SESSION_IDLE_MS } from './session';

/** The database's state for the UI: `useSyncExternalStore(dbStatus.subscribe, dbStatus.get)`. */
export const dbStatus: Pick<DbStatusStore, 'get' | 'subscribe'> = createDbStatusStore();
const statusStore = dbStatus as DbStatusStore;

export interface InitServicesOptions {
  /** The sentence encoder. Default: a new embed-worker bridge (createEmbedBridge()); tests pass a fake. */
  embedder?: Embedder;
  /**
   * Computes the thirteen spaces at ingest and for queries. Default: the embedder when it can
   * (the embed bridge does), else E1-E4 only. Tests pass createLocalFeaturizer() (testing.ts).
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
}

let current: MnemographServices | null = null;
let ownedEmbedder: EmbedBridge | null = null;

/**
 * Opens the database, starts the engine and loads every live memory with its E1 vector into it.
 * Rejects with AppError SCHEMA_OUTDATED / DB_BLOCKED / DB_UNAVAILABLE (also shown on dbStatus).
 * Calling it again replaces the previous instance (closing it).
 */
export function initServices(opts: InitServicesOptions = {}): Promise<MnemographServices> {
  // Serialised: a second call (React StrictMode runs effects twice) waits for the first, then
  // replaces it, so no worker or connection is left behind.
  const run = initChain.then(() => doInit(opts));
  initChain = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

let initChain: Promise<void> = Promise.resolve();

async function doInit(opts: InitServicesOptions): Promise<MnemographServices> {
  if (opts.embedder !== undefined && (typeof opts.embedder?.embed !== 'function' || typeof opts.embedder?.info !== 'function'))
    throw new AppError('INVALID_CONFIG', 'initServices: the embedder must have embed() and info().');
  disposeServices();
  const db = await openDb(opts.dbName ?? DB_NAME, { status: statusStore });
  const ownEmbedder = opts.embedder ? null : createEmbedBridge();
  const engine = opts.engine ?? ((source) => createEngineBridge({ source, onCrash: opts.onEngineCrash }));
  const s = new MnemographServices({
    db,
    embedder: opts.embedder ?? ownEmbedder!,
    featurizer: opts.featurizer,
    sessionIdleMs: opts.sessionIdleMs,
    engine,
    hybridConfig: opts.hybridConfig,
    sessionId: opts.sessionId,
    now: opts.now,
    onIndexError: opts.onIndexError,
  });
  if (opts.warm ?? true) {
    try {
      await s.engine.start();
    } catch (e) {
      s.dispose();
      ownEmbedder?.dispose();
      throw e;
    }
  }
  current = s;
  ownedEmbedder = ownEmbedder;
  return s;
}

/** The running instance; rejects-by-throwing if initServices has not finished. */
export function services(): MnemographServices {
  if (!current) throw new AppError('DB_UNAVAILABLE', 'The app is still starting: the database is not open yet.');
  return current;
}

export function disposeServices(): void {
  current?.dispose();
  current = null;
  ownedEmbedder?.dispose();
  ownedEmbedder = null;
  statusStore.set({ state: 'closed', error: null });
}

export const addMemory = (input: AddMemoryInput): Promise<Memory> => services().addMemory(input);
export const importMemories = (inputs: ImportMemoryInput[], opts?: ImportOptions): Promise<Memory[]> =>
  services().importMemories(inputs, opts);
export const featurizeMissing = (opts?: ImportOptions): Promise<number> => services().featurizeMissing(opts);
/** The former name of featurizeMissing. */
export const embedMissing = featurizeMissing;
export const updateMemory = (id: MemoryId, patch: UpdateMemoryInput): Promise<Memory> => services().updateMemory(id, patch);
export const deleteMemory = (id: MemoryId): Promise<void> => services().deleteMemory(id);
export const restoreMemory = (id: MemoryId): Promise<Memory> => services().restoreMemory(id);
export const setStatus = (id: MemoryId, status: MemoryStatus): Promise<Memory> => services().setStatus(id, status);
export const getMemory = (id: MemoryId, opts?: { includeDeleted?: boolean }): Promise<Memory> => services().getMemory(id, opts);
export const search = (query: string, opts?: SearchOptions, signal?: AbortSignal): Promise<SearchResultView[]> =>
  services().search(query, opts, signal);
export const recordFeedback = (input: FeedbackInput): Promise<FeedbackRow> => services().recordFeedback(input);
export const recall = (query: string | RecallQuery, options?: RecallOptionsInput, signal?: AbortSignal): Promise<RecallView[]> =>
  services().recall(query, options, signal);
export const reinforce = (id: MemoryId, valence: number): Promise<string> => services().reinforce(id, valence);
export const suppress = (id: MemoryId, reason?: string): Promise<string> => services().suppress(id, reason);
export const lateralStatus = (): Promise<LateralStatus> => services().lateralStatus();
export const reEnableLateral = (): Promise<LateralStatus> => services().reEnableLateral();
export const getSimilarityConfig = (): Promise<SimilarityConfig> => services().getSimilarityConfig();
export const saveSimilarityConfig = (config: SimilarityConfig): Promise<SimilarityConfig> => services().saveSimilarityConfig(config);
export const resetSimilarityConfig = (): Promise<SimilarityConfig> => services().resetSimilarityConfig();
export const getRecallDefaults = (): Promise<RecallOptionsInput> => services().getRecallDefaults();
export const saveRecallDefaults = (input: RecallOptionsInput): Promise<RecallOptionsInput> => services().saveRecallDefaults(input);
export const acceptSuggestedTag = (id: MemoryId, tag: string): Promise<Memory> => services().acceptSuggestedTag(id, tag);
export const setTags = (id: MemoryId, tags: string | string[]): Promise<Memory> => services().setTags(id, tags);
export const sessionState = (): SessionState => services().sessionState();
/** The divergence of the last capture or recall (null before any, or after clearDivergence()). */
export const latestDivergence = (): DivergenceView | null => services().latestDivergence();
/** useSyncExternalStore(subscribeDivergence, latestDivergence). */
export const subscribeDivergence = (fn: (d: DivergenceView | null) => void): (() => void) => services().subscribeDivergence(fn);
export const clearDivergence = (): void => services().clearDivergence();
export const engineStats = (): Promise<EngineStats> => services().engine.stats();

/** A controller over `search` that aborts the previous request and drops stale answers. */
export function createSearchController(): SearchController {
  return makeController<SearchResultView, SearchOptions>((q, o, signal) => search(q, o, signal));
}

/** The same over `recall` (the full pipeline): `run(text, recallOptions)`. */
export function createRecallController(): SearchController<RecallView, RecallOptionsInput> {
  return makeController<RecallView, RecallOptionsInput>((q, o, signal) => recall(q, o, signal));
}

/** Live list of memories, newest first, tombstones excluded. Wrap with dexie-react-hooks' useObservable / useLiveQuery. */
export function liveMemories(limit = 200): Observable<Memory[]> {
  return liveMemoriesQuery(services().db, limit);
}

/** Live count of non-deleted memories. */
export function liveMemoryCount(): Observable<number> {
  return liveMemoryCountQuery(services().db);
}

/** The same queries as plain promises, for `useLiveQuery(() => listMemories(50))`. */
export const listMemories = (limit = 200): Promise<Memory[]> => listRows(services().db, limit);
export const countMemories = (): Promise<number> => countRows(services().db);

export const getSetting = <T>(key: string): Promise<T | undefined> => getSettingRow<T>(services().db, key);
export const setSetting = (key: string, value: unknown): Promise<void> => putSetting(services().db, key, value);

export type { DbStatusStore };
export type DbStatusSnapshot = DbStatus;
