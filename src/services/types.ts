// Types of the services API the UI calls (see README.md).

import type { MatchExplanation, MediaRef, Memory, MemoryId, MemoryStatus, RetrievalMode, ScoredHit } from '../core/types';
import type { PipelineResult } from '../core/pipeline';
import type { DivergenceAlert } from '../core/spaces';
import type { NewMemoryInput } from '../core/validate';
import type { LateralStatus } from '../core/recall';
import type { FeedbackRow } from '../db/schema';
import type { ImportFormat, ParseRequest } from '../protocol/io';

/** What a person captures (the core's NewMemoryInput minus the import-only fields). */
export type AddMemoryInput = Omit<NewMemoryInput, 'createdAt' | 'sessionId'>;

/** A memory imported with its own time and session (the sample collection, backups). */
export type ImportMemoryInput = NewMemoryInput;

export interface ImportOptions {
  signal?: AbortSignal;
  onProgress?: (p: { embedded: number; total: number }) => void;
  /** Texts per encoder call (default 32). */
  batchSize?: number;
}

export interface UpdateMemoryInput {
  text?: string;
  tags?: string | string[];
  importance?: number;
  source?: string;
  media?: MediaRef[];
  validFrom?: number;
  validTo?: number | null;
}

export interface SearchOptions {
  /** 1..200, default 20. */
  topK?: number;
  includeQuarantined?: boolean;
  includeArchived?: boolean;
  /** Only memories valid at this time (epoch ms). */
  asOf?: number;
  /** false: keywords only, no encoder call (e.g. while the model is still loading). Default true. */
  semantic?: boolean;
}

export interface SearchResultView {
  hit: ScoredHit;
  memory: Memory;
  /** One line for people: which words matched and how much each signal contributed. */
  explanation: string;
}

export interface FeedbackInput {
  memoryId: MemoryId;
  kind: 'reinforce' | 'suppress';
  /**
   * -100 (strongly against) .. 100 (strongly for), the scale of the lateral-retrieval design's
   * reinforce reply ("valence=50"); the design names no range, the bounds are ours.
   */
  valence?: number;
  reason?: string;
  mode?: RetrievalMode;
}

export interface StorageInfo {
  supported: boolean;
  usage: number | null;
  quota: number | null;
  persisted: boolean | null;
}

export type { MatchExplanation, Memory, MemoryId, MemoryStatus };

/** A recall query: the text, and optionally explicit tags for lateral overlap. */
export interface RecallQuery {
  text: string;
  tags?: string[];
}

/** One recall result with its memory. */
export interface RecallView {
  /**
   * mode ('standard' | 'lateral' | 'associative'), score, why (hybrid explanation), chain,
   * distance / tagOverlap / lateralScore, feedbackFactor, group, spaces.{sims, relevance,
   * relevant, highlyRelevant}, hybridScore.
   */
  result: PipelineResult;
  memory: Memory;
  /** One line for people (words matched, keyword / meaning shares). */
  explanation: string;
  /**
   * Added by the entity expansion (expandHops 1): the first-pass results it shares named entities
   * with, the entities named (the graph's entity nodes and expansion edges).
   */
  via?: { seed: MemoryId; entities: { hash: number; name: string }[] }[];
}

/** The divergence of the last capture or recall from the recent window. */
export interface DivergenceView {
  trigger: 'capture' | 'search';
  at: number;
  /** The memory just captured (trigger 'capture'). */
  memoryId?: MemoryId;
  /** The query (trigger 'search'). */
  query?: string;
  /** One per content space whose best similarity to the recent window is below its low threshold; [] = no divergence. */
  alerts: DivergenceAlert[];
  /** The recent window compared against, newest first ([] = nothing recent: no alerts). */
  recentIds: MemoryId[];
  recent: { id: MemoryId; label: string; createdAt: number }[];
}

/** Everything a recall shows, from one engine call: the view needs no further read. */
export interface RecallOutcomeView {
  results: RecallView[];
  /** The query's divergence from the recent window (null for an empty query or when it failed: reported). */
  divergence: DivergenceView | null;
  /** The lateral evaluator's status after this recall. */
  lateralStatus: LateralStatus;
  /** First lines of the chain members and recent memories that are not among the results. */
  labels: Record<MemoryId, string>;
  /** Why the language model's help (multiQuery / hyde) was left out of this recall, when it failed. */
  modelNotice?: string;
  /** The entity nodes the results' `foundBy.via` names (expandHops 1), by hash. */
  entities?: Record<number, { name: string; aliases: string[]; mentionCount: number }>;
  /**
   * Deep search escalation (seed 003), when this recall escalated or a bound stopped it: the mode,
   * the status (shadow: logged only; merged; timeout / error: the primary results, marked;
   * rate-limited), the confidence against the threshold, the pool and the reader's scores.
   */
  deepSearch?: import('../core/deep').DeepReportView;
}

/** What reinforce / suppress did: the stored row, and whether the memory was a lateral result. */
export interface FeedbackOutcome {
  row: FeedbackRow;
  wasLateral: boolean;
}

// ---- import, export, backup (issue 10) -----------------------------------------------------

export type { ImportFile, ImportFormat } from '../protocol/io';

/** What to import: the files and the person's choices in the preview. */
export interface ImportRequest extends ParseRequest {
  /** Land as status 'quarantined' (reviewed later). A backup keeps each memory's own status. */
  quarantine?: boolean;
}

export interface ImportPreviewProblem {
  /** "notes.csv, line 4", "memories[3].createdAt", … */
  where: string;
  message: string;
  severity: 'skipped' | 'note';
}

export interface ImportPreview {
  planId: string;
  format: ImportFormat;
  /** Items found. */
  total: number;
  /** Would be written. */
  fresh: number;
  /** Already stored (same dedupe key / same id): skipped. */
  existing: number;
  /** Repeated inside the file(s): skipped. */
  repeated: number;
  problems: ImportPreviewProblem[];
  /** The first few drafts. */
  samples: { text: string; tags: string[]; createdAt?: number }[];
  /** CSV: the header, for the mapping. */
  csvColumns?: string[];
  /** An encrypted backup and no passphrase given (a wrong one rejects WRONG_PASSPHRASE). */
  needsPassphrase?: boolean;
  /** Backup: memories whose stored vectors all match the current encoder and featurizers (not recomputed). */
  vectorsReused?: number;
}

export interface ImportOutcome {
  written: number;
  skipped: number;
  batches: number;
  cancelled: boolean;
}

export interface RunImportOptions {
  signal?: AbortSignal;
  onProgress?: (p: { written: number; total: number }) => void;
  /** Memories per write transaction (default 200). */
  batchSize?: number;
}

export interface BackupStatus {
  lastBackupAt: number | null;
  /** null = no reminder (the default). */
  reminderDays: number | null;
  /** A reminder is set and there was no backup yet, or the last one is older than reminderDays. */
  due: boolean;
}

export interface ExportedFile {
  blob: Blob;
  fileName: string;
  memories: number;
}
