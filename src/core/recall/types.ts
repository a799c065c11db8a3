// Shapes the recall layer reads and writes. Structural on purpose: the engine's HybridIndex satisfies
// RecallIndexLike without this folder importing it.

import type { MemoryId, MemoryStatus, ScoredHit, RetrievalMode } from '../types';

/** What recall needs to know about one memory (a `Memory` satisfies it). */
export interface RecallDoc {
  tags: readonly string[];
  suggestedTags?: readonly string[];
  importance: number; // 0..1
  status: MemoryStatus;
  /** Scope for associative hops (same session preferred); absent = unknown (no preference). */
  sessionId?: string;
  createdAt: number; // epoch ms
  deletedAt?: number | null;
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

/** Hybrid parameters the engine applies for a profile (plain data). */
export interface HybridParams {
  /** How many fused candidates the engine should return (the pool recall ranks from). */
  candidateK: number;
  lexicalWeight: number;
  semanticWeight: number;
  /** Status gates the engine must honour in its candidate lists. */
  includeArchived: boolean;
  includeQuarantined: boolean;
}

/** The engine-side index, seen structurally. */
export interface RecallIndexLike {
  ids(): Iterable<MemoryId>;
  vectorOf(id: MemoryId): Float32Array | undefined;
  doc(id: MemoryId): RecallDoc | undefined;
  /** Standard hybrid search (BM25 + dense fused), best first. */
  search(query: string, queryVector: Float32Array, params: HybridParams): ScoredHit[];
}

/** The engine's HybridIndex as seen structurally (search takes a query object and options). */
export interface HybridIndexLike {
  ids(): Iterable<MemoryId>;
  vectorOf(id: MemoryId): Float32Array | undefined;
  doc(id: MemoryId): RecallDoc | undefined;
  search(
    q: { text: string; vector: Float32Array | null },
    opts: {
      topK: number;
      includeArchived?: boolean;
      includeQuarantined?: boolean;
      config?: { lexicalWeight?: number; semanticWeight?: number; candidateK?: number };
    },
  ): ScoredHit[];
}
