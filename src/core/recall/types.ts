// Shapes the recall layer reads and writes. Structural on purpose: the engine's index docs
// satisfy RecallDoc without this folder importing the index.

import type { MemoryId, MemoryStatus, ScoredHit, RetrievalMode } from '../types';

/** What recall needs to know about one memory (a `Memory` satisfies it). */
export interface RecallDoc {
  tags: readonly string[];
  suggestedTags?: readonly string[];
  importance: number; // 0..1
  status: MemoryStatus;
  createdAt: number; // epoch ms
  deletedAt?: number | null;
  /** Valid time (asOf): validFrom <= asOf < validTo, null = open-ended. */
  validFrom?: number;
  validTo?: number | null;
  /** An earlier version of a memory: the memory that replaced it. */
  supersededBy?: string;
  /** The text, when the caller has it (the engine's docs do): an earlier version with its memory's text is not listed. */
  text?: string;
  /** Decay-aware ranking: last access (absent = createdAt) and strength (absent = 1). */
  lastAccessedAt?: number;
  strength?: number;
}

/** One link of an associative chain: query -> m1 (hop 0) -> m2 (hop 1) -> ... */
export interface ChainLink {
  id: MemoryId;
  hop: number;
  /** cosine to the previous link (for hop 0: to the query, when known). */
  cosine: number;
}

export interface RecallResult extends ScoredHit {
  mode: RetrievalMode;
  chain?: ChainLink[];
  lateralScore?: number;
  /** L2 distance to the query vector (unit vectors: sqrt(2 - 2cos)). */
  distance?: number;
  tagOverlap?: number;
  /** Multiplier the feedback state applied (absent = 1). */
  feedbackFactor?: number;
  /** SYSTEMATIZER grouping key (primary tag), when grouping is on. */
  group?: string;
}
