// Types of the services API the UI calls (see README.md).

import type { MatchExplanation, MediaRef, Memory, MemoryId, MemoryStatus, RetrievalMode, ScoredHit } from '../core/types';

export interface AddMemoryInput {
  text: string;
  /** "a, b" or ['a', 'b']; normalised (lowercase, spaces -> '-', deduplicated). */
  tags?: string | string[];
  /** 0..1, default 0.5. */
  importance?: number;
  source?: string;
  media?: MediaRef[];
  /** Valid-time interval (epoch ms); defaults: from now, open-ended. */
  validFrom?: number;
  validTo?: number | null;
}

export interface ImportMemoryInput extends AddMemoryInput {
  /** When it happened (epoch ms); default now. */
  createdAt?: number;
  sessionId?: string;
}

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
  /** -1..1 */
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
