// Shared domain types of the scoring core. Pure data: no DOM, storage, worker or model runtime.

export type MemoryId = string;
export type MemoryStatus = 'active' | 'quarantined' | 'archived';

/** The thirteen embedding spaces E1..E13 (SPACES in spaces/registry.ts): E2-E4 encode when, the other ten what. */
export type SpaceId =
  | 'E1' | 'E2' | 'E3' | 'E4' | 'E5' | 'E6' | 'E7'
  | 'E8' | 'E9' | 'E10' | 'E11' | 'E12' | 'E13';

export interface MediaRef {
  caption?: string;
  alt?: string;
  mime?: string;
  /** Since schema v10: the stored picture (row of `images`) this entry shows; its caption is its alt text. */
  imageId?: string;
}

/** A stored memory as the core sees it (the database row minus storage details). */
export interface Memory {
  id: MemoryId;
  text: string;
  tags: string[];
  /** Tags derived at ingest (key phrases, entities), offered as suggestions. */
  suggestedTags: string[];
  importance: number; // 0..1
  source?: string;
  createdAt: number; // epoch ms
  updatedAt: number;
  validFrom: number;
  validTo: number | null; // null = open-ended
  sessionId: string;
  status: MemoryStatus;
  deletedAt: number | null; // tombstone
  media?: MediaRef[];
  /** True when the text was longer than the encoder's bounded prefix. */
  embedTruncated: boolean;
  /**
   * Since schema v6 (versions). Set only on an EARLIER version of a memory: the id of the memory
   * (its current version, which keeps the memory's id) whose edit replaced this content.
   */
  supersededBy?: MemoryId;
  /** Since v6: when this version was replaced (the end of its transaction time). Set with supersededBy. */
  supersededAt?: number;
  /** Since v6: when this version's content was written (the start of its transaction time). */
  recordedAt?: number;
  /** Since v6: the last time the memory was opened, reinforced or cited (decay-aware ranking). */
  lastAccessedAt?: number;
  /** Since v6: >= 1; each reinforcement adds 1 (up to 10) and stretches the decay's time constant. */
  strength?: number;
}

/** Why a hit matched: per-signal contributions to the fused score. */
export interface MatchExplanation {
  lexical: number; // contribution of BM25 to the fused score
  semantic: number; // contribution of the dense encoder to the fused score
  bm25: number; // raw BM25 score
  cosine: number; // raw cosine similarity
  matchedTerms: string[];
  /** Share of the query's idf mass the memory holds, in [0, 1] (`idfCoverage`, power 1); absent = not computed. */
  coverage?: number;
}

export type RetrievalMode = 'standard' | 'lateral' | 'associative';

export interface ScoredHit {
  id: MemoryId;
  score: number;
  mode: RetrievalMode;
  why: MatchExplanation;
}
