// Types of the services API the UI calls (see README.md).

import type { MatchExplanation, MediaRef, Memory, MemoryId, MemoryStatus, RetrievalMode, ScoredHit, SpaceId } from '../core/types';
import type { PipelineResult } from '../core/pipeline';
import type { DivergenceAlert, DivergenceReason, SpaceSims } from '../core/spaces';
import type { NewMemoryInput } from '../core/validate';
import type { LateralStatus, RecallOptionsInput } from '../core/recall';
import type { FeedbackRow } from '../db/schema';
import type { ImageChange, ImageInput } from './images';
import type { ImportFormat, ParseRequest } from '../protocol/io';

/** What a person captures (the core's NewMemoryInput minus the import-only fields). */
export type AddMemoryInput = Omit<NewMemoryInput, 'sessionId'> & {
  /** When it happened (epoch ms; the capture form's "When did this happen?"), default now; the memory is true from it. */
  createdAt?: number;
  /** A picture (prepareImage) and its caption, saved with the memory in its transaction (schema v10). */
  image?: ImageInput;
};

/** A memory imported with its own time and session (the sample collection, backups). */
export type ImportMemoryInput = NewMemoryInput & {
  /** The text's E1 vector when already known (the sample's stored vectors); used only with
   *  `ImportOptions.semanticFrom` naming the encoder now running and the encoder's dimension. */
  semantic?: Float32Array;
};

/** What an import is doing: understanding the texts (the encoder), writing them, indexing them. */
export type ImportPhase = 'embedding' | 'saving' | 'indexing';

export interface ImportOptions {
  signal?: AbortSignal;
  /** After each batch embedded (phase 'embedding'), then once as it starts saving and indexing. */
  onProgress?: (p: { embedded: number; total: number; phase?: ImportPhase }) => void;
  /** Texts per encoder call (default 32). */
  batchSize?: number;
  /**
   * The sample collection: each memory is marked (import key 'sample:'), so removeSample finds them.
   * Absent: true when every input has a session id of the sample's form (`s-2026-05-02-a`).
   */
  sample?: boolean;
  /** The encoder (EmbedderInfo.id) that made the inputs' `semantic` vectors: when it is not the
   *  one running, they are ignored and every text is encoded. */
  semanticFrom?: string;
}

export interface UpdateMemoryInput {
  text?: string;
  tags?: string | string[];
  importance?: number;
  source?: string;
  media?: MediaRef[];
  /** "When it happened" (epoch ms): the memory's time (E2-E4 are recomputed). */
  createdAt?: number;
  /** Valid time: when the fact became true (epoch ms). Default for a new version: the time of the edit. */
  validFrom?: number;
  /** Valid time: when it stopped being true (epoch ms); null = still true (open-ended). */
  validTo?: number | null;
  /**
   * The picture: a new file with its caption, a new caption for the same picture (no `prepared`),
   * or null to take it off. A new version like any edit; the earlier version keeps its picture.
   */
  image?: ImageChange;
}

/** What saveMemory did: wrote a new memory, or found the same text already saved (nothing written). */
export type SaveOutcome = { kind: 'saved'; memory: Memory } | { kind: 'already-saved'; memory: Memory };

/** One version of a memory, as the history lists it (newest first). */
export interface MemoryVersion {
  /** The version's own row: the current version has the memory's id, earlier ones their own ids. */
  memory: Memory;
  current: boolean;
  /** When this content was written (transaction time start). */
  recordedAt: number;
  /** When an edit replaced it (transaction time end); null for the current version. */
  supersededAt: number | null;
}

/** What a delete moved to the trash: hand it to undoDelete to put exactly those back. */
export interface DeleteReceipt {
  /** Every row moved (a memory and its earlier versions). */
  ids: MemoryId[];
  /** The deletedAt stamped on them. */
  at: number;
}

/** Which memories the full list shows. */
export type BrowseStatus = 'current' | 'active' | 'quarantined' | 'archived' | 'trashed' | 'superseded' | 'all';
export type BrowseSort = 'newest' | 'oldest' | 'importance' | 'opened';

export interface BrowseQuery {
  /** Memories carrying every one of these tags (normalised like a memory's tags). */
  tags?: string[];
  /** createdAt ("when it happened") from (inclusive), epoch ms. */
  from?: number;
  /** createdAt before (exclusive), epoch ms. */
  to?: number;
  /** Exact source. */
  source?: string;
  /** Only the sample collection's memories (true) or none of them (false). */
  sample?: boolean;
  importanceMin?: number;
  importanceMax?: number;
  /**
   * 'current' (default): every memory not in the trash and not an earlier version, whatever its
   * status; 'active' / 'quarantined' / 'archived': current ones with that status; 'trashed': the
   * trash; 'superseded': earlier versions (not in the trash); 'all': every row.
   */
  status?: BrowseStatus;
  /** Default 'newest' (createdAt descending); 'opened' = most recently opened first. */
  sort?: BrowseSort;
}

/** One row of the full list: enough to draw it; the full memory comes from getMemories. */
export interface MemoryHeader {
  id: MemoryId;
  /** The text's first line, at most 160 characters. */
  title: string;
  /** Characters of the whole text. */
  length: number;
  createdAt: number;
  updatedAt: number;
  importance: number;
  tags: string[];
  source?: string;
  status: MemoryStatus;
  deletedAt: number | null;
  supersededBy?: MemoryId;
  supersededAt?: number;
  lastAccessedAt?: number;
  validFrom: number;
  validTo: number | null;
  /** From the sample collection. */
  sample: boolean;
  /** The caption of its picture, when it has one (schema v10). */
  picture?: string;
}

export interface BrowsePage {
  /** Memories matching the query (the list's length). */
  total: number;
  /** Position of items[0] in the list. */
  offset: number;
  items: MemoryHeader[];
}

export interface TagCount {
  tag: string;
  count: number;
}

export interface SearchOptions {
  /** 1..200, default 20. */
  topK?: number;
  includeQuarantined?: boolean;
  includeArchived?: boolean;
  /** Only memories valid at this time (epoch ms, or an ISO 8601 date / date-time string): validFrom <= asOf < validTo. */
  asOf?: number | string;
  /** Decay-aware ranking: score x exp(-elapsedDays / (decayTauDays x strength)); absent or 0 = off. */
  decayTauDays?: number;
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

/** Recall options as the services take them: the core's, with asOf also as an ISO 8601 date string. */
export type RecallRequestOptions = Omit<RecallOptionsInput, 'asOf'> & {
  asOf?: number | string | null;
  /**
   * Answer by the words alone (no query features, so no encoder): while the search model loads
   * after a start, the first answer does not wait for it. The outcome is `partial`. A recall
   * made while the engine's staged start is not warm yet is answered this way too.
   */
  keywordsOnly?: boolean;
  /**
   * Late interaction at query time (./late-refine.ts): recall again with the token matrices of
   * the first pass's candidates (the answer of a `refinable` outcome, refined). On any failure
   * but an abort the first answer comes back unrefined.
   */
  refine?: boolean;
};

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
  /**
   * Tell the person? Only when the evidence is strong (the core's divergenceVerdict) and the
   * person has not dismissed an alert about the same recent topic (`reason` 'dismissed').
   */
  show: boolean;
  reason: DivergenceReason;
  /** The semantic spaces that agree the topic changed. */
  agreeing: SpaceId[];
  /** Best similarity to the recent window per content space (for "details"). */
  best: SpaceSims;
  /** The recent work in a few words ("sourdough and fermentation"), and how many hours the window spans. */
  topic: string;
  windowHours: number;
  /** The lines "details" shows where the engine moved them to its encoder's cosine scale (else the settings' low thresholds). */
  lines?: Partial<Record<SpaceId, number>>;
  /** The meaning's line for the gate on that scale (else its low threshold minus the gate's margin). */
  meaningLine?: number;
}

/** Everything a recall shows, from one engine call: the view needs no further read. */
export interface RecallOutcomeView {
  results: RecallView[];
  /** The query's divergence from the recent window (null for an empty query or when it failed: reported). */
  divergence: DivergenceView | null;
  /** The lateral evaluator's status after this recall. */
  lateralStatus: LateralStatus;
  /**
   * true: keyword results while the rest loads (asked `keywordsOnly`, or the engine was still
   * attaching the stored features after a start); run it again once warm for the full answer.
   */
  partial?: boolean;
  /** true: late interaction can refine this answer; run it again with `refine` (the view does, after showing it). */
  refinable?: boolean;
  /** true: this answer was refined by late interaction (token matrices of the first pass's candidates). */
  refined?: boolean;
  /** How long the refinement took (token matrices + the second engine call), ms. */
  refineMs?: number;
  /** Careful ranking on a refined answer: applied (the judge's figures) or why not ("still reading: 34 %"). */
  careful?: import('./judge-refine').CarefulNote;
  /** First lines of the chain members and recent memories that are not among the results. */
  labels: Record<MemoryId, string>;
  /** Why the language model's help (multiQuery / hyde) was left out of this recall, when it failed. */
  modelNotice?: string;
  /** The entity nodes the results' `foundBy.via` names (expandHops 1), by hash. */
  entities?: Record<number, { name: string; aliases: string[]; mentionCount: number }>;
  /**
   * Deep search escalation (seed 003), when this recall escalated or a bound stopped it: the mode,
   * the status (shadow: logged only; merged; timeout / error: the primary results, marked;
   * rate-limited), the confidence against the threshold, the pool and the reader's scores; `judge`
   * when careful ranking's judge read the pool.
   */
  deepSearch?: import('../protocol/engine').EngineDeepReport;
  /** Iterative search (seed 001), when the option was on: each pass, the stop, the abstention, the explanation. */
  iterative?: import('../protocol/engine').EngineIterativeReport;
}

/** What reinforce / suppress did: the stored row, and whether the memory was a lateral result. */
export interface FeedbackOutcome {
  row: FeedbackRow;
  wasLateral: boolean;
}

/** A memory the person pushed away (suppressed) and has not taken back. */
export interface HiddenMemory {
  memory: Memory;
  /** When it was pushed away (the latest suppression). */
  at: number;
  reason?: string;
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
  /** Backup: of the rows `fresh` counts, the earlier versions (history) and the memories in the trash, so a person can tell them from their current memories. */
  backupParts?: {
    earlier: number;
    trashed: number;
    /** Of the memories already here, those the backup holds a later version of and the copy here as its earlier version: brought up to date. */
    updated?: number;
    /** Of the memories already here, those changed otherwise in the backup (the copies went apart): the restore keeps the copy here (said in the preview). */
    changed?: number;
  };
}

export interface ImportOutcome {
  written: number;
  skipped: number;
  batches: number;
  cancelled: boolean;
  /** A restored backup's written rows by what a person calls them (written = their sum): the memories in their list, earlier versions, the trash. */
  kinds?: { current: number; earlier: number; trashed: number };
  /** A restored backup: memories already here brought up to the backup's later version (not in `written` nor `skipped`). */
  updated?: number;
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
  /** Every memory row written (a backup: earlier versions and the trash too). */
  memories: number;
  /** A backup's rows by what a person calls them: the memories in their list, earlier versions, the trash (memories = their sum). */
  kinds?: { current: number; earlier: number; trashed: number };
}
