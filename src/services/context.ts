// What every services module is built over: the database, the encoder, the featurizer, the
// clock, the id maker and the error reporter, resolved once from the deps by createServices.

import { toAppError, type AppError } from '../core/errors';
import type { HybridConfig } from '../core/hybrid';
import { uuidv7, uuidv7At } from '../core/ids';
import type { MnemographDb } from '../db/db';
import type { EngineClient } from '../bridge/engine-bridge';
import type { EngineSnapshot } from '../protocol/engine';
import type { Embedder } from '../embed/types';
import type { ImportParser } from '../protocol/io';
import { embedderFeaturizer, isSpaceFeaturizer, type SpaceFeaturizer } from './featurizer';
import type { EncoderFactory, EncoderRuntime } from './active-encoder';
import type { ModelFilesDeps } from './models';
import type { ImageCodec } from './image-codec';
import type { JudgeClient } from '../bridge/judge-bridge';

export interface ServiceDeps {
  db: MnemographDb;
  embedder: Embedder;
  /** Computes the thirteen spaces. Default: the embedder itself when it can (the embed bridge), else E1-E4 only. */
  featurizer?: SpaceFeaturizer;
  /** A session ends after this long without a capture or recall (default 30 min). */
  sessionIdleMs?: number;
  /** Built by the services with `source` (fills a fresh engine from the database). */
  engine: (source: () => Promise<EngineSnapshot>) => EngineClient;
  hybridConfig?: Partial<HybridConfig>;
  sessionId?: string;
  now?: () => number;
  /** New ids; `atMs` is given for memories with a past createdAt (imports). */
  newId?: (atMs?: number) => string;
  /** Told about an index update that failed after the memory was safely stored (the index catches up on restart). */
  onIndexError?: (e: AppError) => void;
  /** Follow other tabs' writes over a BroadcastChannel (default true). */
  crossTab?: boolean;
  /** Reads import files: default the import worker (createIoBridge, disposed with the services); tests pass the same parsing in-process. */
  parser?: ImportParser;
  /** The encoder in use as a runtime (overrides embedder / featurizer; disposed when a switch replaces it). */
  encoder?: EncoderRuntime;
  /** Starts another encoder for a switch (the app: a new embed worker). Absent: switching is refused. */
  encoders?: EncoderFactory;
  /** Where downloaded and picked model files are kept, and the hub. Absent: bundled encoders only. */
  modelFiles?: ModelFilesDeps;
  /** Decodes pictures and draws their thumbnails (default: the browser's createImageBitmap + OffscreenCanvas). */
  imageCodec?: ImageCodec;
  /** Memories per batch of an encoder switch (default 16). */
  switchBatchSize?: number;
  /** Starts careful ranking's judge (the app: its own worker, createJudgeBridge). Absent: no careful ranking. */
  judge?: () => JudgeClient;
}

export interface ServiceContext {
  readonly db: MnemographDb;
  readonly embedder: Embedder;
  readonly featurizer: SpaceFeaturizer;
  readonly now: () => number;
  readonly newId: (atMs?: number) => string;
  readonly hybridConfig?: Partial<HybridConfig>;
  /**
   * A failure nobody is waiting for (the index after a committed write, a divergence, a
   * persisted side state): handed to onIndexError with its code, never dropped.
   */
  report(e: unknown): void;
}

/** Logs a failure with its code: for what the person cannot act on. */
export function logError(e: unknown, why?: string): void {
  const err = toAppError(e);
  console.error('[mnemograph]', err.code, ...(why ? [why] : []), err);
}

export function createContext(deps: ServiceDeps): ServiceContext {
  const onIndexError = deps.onIndexError ?? ((e: AppError) => logError(e, 'index update failed; it will be rebuilt on restart'));
  return {
    db: deps.db,
    embedder: deps.embedder,
    featurizer: deps.featurizer ?? (isSpaceFeaturizer(deps.embedder) ? deps.embedder : embedderFeaturizer(deps.embedder)),
    now: deps.now ?? Date.now,
    newId: deps.newId ?? ((at) => (at === undefined ? uuidv7() : uuidv7At(at))),
    hybridConfig: deps.hybridConfig,
    report: (e) => onIndexError(toAppError(e)),
  };
}
