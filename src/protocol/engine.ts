import type { DeepReportView } from '../core/deep';
// The engine worker's protocol: the messages' payloads, shared by the worker
// (workers/engine-core.ts, workers/engine.worker.ts) and its client (src/bridge/engine-bridge.ts).
// The method signatures are derived from the worker's `typeof api` (EngineApi), not restated.

import type { HybridConfig, HybridSearchOptions, IndexDoc } from '../core/hybrid';
import type { PipelineResult } from '../core/pipeline';
import type { FeedbackEvent, LateralEvaluatorState, LateralStatus, RecallOptionsInput } from '../core/recall';
import type { DivergenceAlert, SerializedFeatures, SimilarityConfig, SpaceSims } from '../core/spaces';
import type { Memory, MemoryId } from '../core/types';
import type { ErrorEnvelope } from '../core/errors';
import { imageRefs } from '../core/images';
import { titleLine } from '../core/text/title';

export type { SerializedFeatures };

/**
 * A memory as the engine takes it: the index fields, the recall fields and, optionally, its spaces.
 * Its vector is its E1 feature, stored and sent like every other space.
 */
export interface EngineDoc extends Omit<IndexDoc, 'vector'> {
  /** Scope of associative hops and of the divergence window. */
  sessionId?: string;
  /** Derived tags (lateral tag overlap counts them). */
  suggestedTags?: string[];
  /**
   * Every current space of the memory, E1 included: they replace the engine's. Absent: the memory
   * keeps the spaces it has (a status or tag change).
   */
  features?: SerializedFeatures;
}

/** The plain search's options: the hybrid's, and decay-aware ranking with the caller's clock. */
export interface EngineSearchOptions extends HybridSearchOptions {
  /** > 0: score x exp(-elapsedDays / (decayTauDays x strength)); 0 / absent = off. */
  decayTauDays?: number;
  /** The clock for decay (epoch ms; the services' clock seam); default Date.now(). */
  now?: number;
}

export interface EngineLoadOptions {
  dim: number;
  /**
   * The id of the encoder that made the vectors: the fusion and blend are calibrated per encoder
   * (`calibrationFor`, src/core/pipeline/calibration.ts); absent = the default encoder's calibration.
   */
  encoder?: string;
  /** Patched over the encoder's calibrated hybrid config. */
  config?: Partial<HybridConfig>;
  similarity?: SimilarityConfig;
  /** Default recall options (validated; applied under every call's own options). */
  recallDefaults?: RecallOptionsInput;
  /** The stored feedback log (malformed events are skipped and counted). */
  feedback?: readonly unknown[];
  /** Persisted evaluator state; null / absent = a fresh evaluator. */
  evaluator?: LateralEvaluatorState | null;
}

/**
 * Where the engine worker reads the memories and their features itself (schema v9's blocks), so
 * nothing big crosses the page's thread: the database's name and the producers whose features are
 * current (the encoder's id for E1 / E5 / E10, the lexical featurizers' id for the rest).
 */
export interface EngineStoreSource {
  dbName: string;
  producers: { encoder: string; lexical: string };
}

/**
 * Everything a fresh engine is filled with on every (re)start: either `docs` (tests, the
 * main-thread fallback) or `store`, which the worker reads in stages (keyword first).
 */
export interface EngineSnapshot extends EngineLoadOptions {
  docs?: EngineDoc[];
  store?: EngineStoreSource;
}

/**
 * A staged load's progress: 'keyword' once every memory is searchable by its words (the load
 * call returns then), 'features' while the stored features are attached (block by block), 'warm'
 * when everything is in. `done` / `total`: memories, then blocks.
 */
export interface EngineLoadProgress {
  stage: 'memories' | 'keyword' | 'features' | 'warm';
  done: number;
  total: number;
  /** ms since the load started (the worker's clock). */
  ms: number;
}

export interface EngineStats {
  loaded: boolean;
  dim: number;
  size: number;
  /** Memories with space features. */
  spaces: number;
  searches: number;
  recalls: number;
  cancelled: number;
  lastSearchMs: number;
  lastRecallMs: number;
  lastLoadMs: number;
  /** Stored feedback events that were malformed and ignored. */
  feedbackSkipped: number;
  /** false while a staged load is still attaching stored features (answers are keyword-first meanwhile). */
  warm: boolean;
}

export interface EngineRecallQuery {
  text: string;
  features: SerializedFeatures;
  /** The divergence window ends here (epoch ms; default: the engine's clock). */
  now?: number;
  /** The asking tab's session: the divergence window prefers it (default: none). */
  sessionId?: string;
  /** multiQuery: the query transformer's reworded queries, each with its vector (E1) or null. */
  variants?: { text: string; vector: Float32Array | null }[];
  /** hyde: the embedding of the model's hypothetical answer. */
  hyde?: Float32Array | null;
  /** Iterative search: the reformulations to try, in order, each with its vector (E1) or null. */
  reformulations?: { text: string; vector: Float32Array | null }[];
  /** Learned space weights (feedback to the scorer, src/core/deep/learn.ts) over the ranking's. */
  spaceWeights?: Partial<Record<import('../core/types').SpaceId, number>>;
  /**
   * Late interaction at query time (the services' refinement): the query's token matrix and the
   * first pass's candidates' (`lateCandidates` of its outcome); the pipeline reads them through
   * ctx.tokensOf. Absent: the stage is a no-op.
   */
  tokens?: { query: import('../core/pipeline').TokenMatrix; memories: Record<MemoryId, import('../core/pipeline').TokenMatrix> };
  /**
   * true: a query already answered, asked again for the same answer (a refinement whose token
   * matrices failed). Like a refinement (tokens given) it counts nothing its first pass counted:
   * no escalation, no lateral results counted by the evaluator, no recall in the stats.
   */
  repeat?: boolean;
}

/** Iterative search's record (seed 001): each pass, the stop, the abstention, the explanation. */
export interface EngineIterativeReport {
  hard: boolean;
  abstained: boolean;
  stoppedBy: import('../core/deep').IterativeStop;
  explanation: string[];
  passes: { pass: number; action: 'retrieve' | 'reformulate' | 'widen'; query: string; added: number; bestGrade: number }[];
}

/**
 * Careful ranking's judge for deep search's reader (docs/ARCHITECTURE.md, "Deep search with the
 * judge"): the services hand the engine this function (a Comlink proxy across the worker boundary)
 * when careful ranking is on and its judge is ready; the engine calls it only when a query
 * escalates, inside the escalation's timeout, with the pool's ids. It answers with the judge's
 * vector of the query and the stored vectors of those members that have one (a member without is
 * read without the judge part), or null when the judge cannot answer (then the offline reader).
 */
export type EngineJudgeSource = (ids: MemoryId[]) => Promise<EngineJudgeVectors | null>;

export interface EngineJudgeVectors {
  /** The judge's vector of the query text. */
  query: Float32Array;
  /** The stored judge vectors of the pool's members that have a current one. */
  vectors: Record<MemoryId, Float32Array>;
  /** What the judge's query vector cost the services (0 when it was cached). */
  queryMs: number;
}

/**
 * The language model on this computer as deep search's reader (docs/ARCHITECTURE.md, "Deep search
 * with the language model"): the services hand the engine this function (a Comlink proxy) when the
 * person configured a model and let it read deeper searches; the engine calls it only when a query
 * escalates, inside the escalation's timeout, once, with the pool trimmed to the token budget (ids
 * and texts). The services send them to the model and answer with its parsed scores (reasons as
 * the model wrote them), or null when it failed (429, unreachable, unreadable; the services log
 * why): then the engine reads as it would without the model (the judge's or the offline reader).
 */
export type EngineModelSource = (pool: { id: MemoryId; text: string }[]) => Promise<EngineModelScores | null>;

export interface EngineModelScores {
  scores: { id: MemoryId; score: number; reasons: string[] }[];
  /** The model's round trip, as the services measured it. */
  ms: number;
}

/** How a reason the language model gave is shown on a deep hit (the model's words follow). */
export const MODEL_REASON_PREFIX = 'the language model on this computer: ';

/**
 * The escalation's report; when the judge read the pool: how many of its members it had vectors
 * for, and its cost; when the language model read it: how many members it scored of the pool, and
 * its round trip.
 */
export type EngineDeepReport = DeepReportView & { judge?: { read: number; of: number; ms: number }; model?: { read: number; of: number; ms: number } };

/** Everything one recall shows, in one message (results, divergence, evaluator status, labels). */
export interface EngineRecallOutcome {
  results: PipelineResult[];
  /** The evaluator's new state when this recall changed it (lateral results returned), else null. */
  evaluator: LateralEvaluatorState | null;
  /** The query's divergence from the recent window; null when it failed (then `divergenceError`). */
  divergence: EngineDivergenceOutcome | null;
  /** Why the divergence could not be computed: reported by the services, never fails the recall. */
  divergenceError?: ErrorEnvelope;
  /** The lateral evaluator's status after this recall. */
  lateralStatus: LateralStatus;
  /**
   * First lines of the memories the view names that are not results themselves: chain members
   * and the recent window (so the view needs no read per memory).
   */
  labels: Record<MemoryId, string>;
  /** Deep search escalation (seed 003), when the recall escalated (or was stopped by a bound). */
  deepSearch?: EngineDeepReport;
  /** Iterative search, when the option was on. */
  iterative?: EngineIterativeReport;
  /** true: answered while a staged load was still attaching the stored features (keyword-first). */
  partial?: boolean;
  /**
   * The first pass's candidates late interaction reads (best first: the top lateDepth are
   * re-scored, the top lateIdfDepth weigh the query's tokens), when the calibration turns the stage
   * on and no token matrices came with the query: the services fetch theirs and recall again.
   */
  lateCandidates?: MemoryId[];
}

export interface EngineDivergenceQuery {
  features: SerializedFeatures;
  now: number;
  sessionId: string;
  /** Leave this memory out of the recent window (the one just captured). */
  excludeId?: MemoryId;
}

export interface EngineDivergenceOutcome {
  alerts: DivergenceAlert[];
  /** The best similarity to the recent window per content space (the alert's "details"). */
  best: SpaceSims;
  /** What the recent work is about: a few words, and the unit centroid of its meaning vectors. */
  topic: { words: string; centroid: Float32Array | null };
  /** The window's length in hours (the similarity settings' recentWindowHours). */
  hours: number;
  /** The recent window compared against, newest first. */
  recent: { id: MemoryId; text: string; createdAt: number; sessionId: string }[];
  /**
   * The gate's meaning line on the encoder's cosine scale (DivergenceEvidence.meaningLine), when
   * the engine moved the encoder spaces' lines there; absent = USE-lite's scale.
   */
  meaningLine?: number;
  /** The encoder spaces' low thresholds the alerts used, when moved to the encoder's scale (for "details"). */
  lines?: Partial<Record<import('../core/types').SpaceId, number>>;
}

export type EngineFeedbackEvent = FeedbackEvent;

export interface EngineFeedbackOutcome {
  /** The memory was among the remembered lateral results (the evaluator counted it). */
  wasLateral: boolean;
  evaluator: LateralEvaluatorState;
}

export type { LateralStatus };

/**
 * A memory's label as the engine and the services hand it out: its first non-empty line, at
 * most `max` characters (the view shortens it further where it must).
 */
export function firstLine(text: string, max = 80): string {
  return titleLine(text, max);
}

/** The text keyword search reads: the memory's text, then its pictures' captions (one per line). */
export function withCaptions(m: Pick<Memory, 'text' | 'media'>): string {
  const captions = imageRefs(m.media).flatMap((r) => (r.caption ? [r.caption] : []));
  return captions.length ? `${m.text}\n${captions.join('\n')}` : m.text;
}

/**
 * The engine's doc for a memory. `features` (every space, E1 included, serialised) replace the
 * engine's spaces of the memory; undefined leaves them as they are (a status or tag change).
 */
export function toIndexDoc(m: Memory, features?: SerializedFeatures): EngineDoc {
  return {
    id: m.id,
    // a picture's caption is searched by its words too (E10 reads its meaning); the first line stays the text's
    text: withCaptions(m),
    tags: m.tags,
    importance: m.importance,
    createdAt: m.createdAt,
    validFrom: m.validFrom,
    validTo: m.validTo,
    status: m.status,
    deletedAt: m.deletedAt,
    sessionId: m.sessionId,
    suggestedTags: m.suggestedTags,
    ...(m.supersededBy !== undefined ? { supersededBy: m.supersededBy } : {}),
    ...(m.lastAccessedAt !== undefined ? { lastAccessedAt: m.lastAccessedAt } : {}),
    ...(m.strength !== undefined ? { strength: m.strength } : {}),
    ...(features ? { features } : {}),
  };
}

