// The shapes the pipeline's stages pass along. Plain data and interfaces only.

import type { EntityLookup } from '../entities';
import type { HybridConfig, HybridIndex } from '../hybrid';
import type { FeedbackState, LateralEvaluator, NeighbourMatrix, RecallResult } from '../recall';
import type { relevanceScore, SimilarityConfig, SpaceFeatures } from '../spaces';
import type { MemoryId, SpaceId } from '../types';
import type { SpaceIndex } from './space-index';

/** How the multi-space blend ranks (plain data; DEFAULT_RANKING is the shipped one). */
export interface RankingConfig {
  /** Content spaces besides E1 that find candidates and score them ([] = the hybrid alone). */
  spaces: readonly SpaceId[];
  /**
   * Weight of each space in the blend (absent = its category weight: semantic 1.0, relational /
   * structural 0.5). 0 = the space still
   * finds candidates and explains results, but does not move the ranking (see README: spaces that
   * restate the hybrid's lexical evidence would count it twice).
   */
  spaceWeights: Partial<Record<SpaceId, number>>;
  /** Fused hybrid hits re-ranked (at least the options' candidateK). */
  depth: number;
  /** Per space, the top k the SpaceIndex adds to the candidates. */
  spaceCandidates: number;
  /** Weight of the z-normalised raw-similarity signal (hybrid scores lie in [0, 1]). */
  alpha: number;
  /** Weight of the margin relevance (relevanceScore: category-weighted mean of max(0, sim - high threshold)). */
  beta: number;
  /** z-scores are clipped to [0, zCap] so one outlier space cannot swamp the hybrid. */
  zCap: number;
  /**
   * The spaces' signal follows the query's lexical evidence: alpha is multiplied by
   * (the best candidate's idf coverage)^evidencePower (0 = off: alpha as is). See README.
   */
  evidencePower: number;
  /**
   * Session context (session-context.ts): each candidate gains this share of the best score among
   * its neighbours in its session (the memories right before and after it); 0 = off.
   */
  sessionContext: number;
  /**
   * Late interaction (late-interaction.ts): the top `lateDepth` candidates gain this weight x the
   * idf-weighted MaxSim of the query's and the memory's token vectors (idf among the top
   * `lateIdfDepth`); 0 = off, and a no-op without token matrices (ctx.tokensOf, query.tokens).
   */
  lateInteraction: number;
  lateDepth: number;
  lateIdfDepth: number;
  /** A memory whose speaker label ("Caroline: ...") the query names gains this much; 0 = off. */
  speakerLabel: number;
  /** Associative merge: a hop result enters only when its score >= assocFloor x the best standard score. */
  assocFloor: number;
  /** At most this many associative results among the returned ones (the rest are dropped). */
  assocMaxResults: number;
}

export interface PipelineContext {
  hybrid: HybridIndex;
  spaces: SpaceIndex;
  similarity?: SimilarityConfig;
  /** The engine's cached neighbour matrix; built on demand for lateral / hops otherwise. */
  matrix?: NeighbourMatrix;
  feedback?: FeedbackState;
  /** When given: lateral mode follows its auto-tuning, and returned lateral results are recorded in it. */
  evaluator?: LateralEvaluator;
  /** Clock for the lateral recency decay (epoch ms); default Date.now(). */
  now?: number;
  /** Scope of associative hops (same session preferred); absent = no preference. */
  sessionOf?: (id: MemoryId) => string | undefined;
  /** Overrides of DEFAULT_RANKING (the encoder's calibration, ablations, tuning). */
  ranking?: Partial<RankingConfig>;
  /**
   * Overrides of the hybrid index's own config for this call (tuning, ablations); the options'
   * lexical / semantic weights still win. The engine builds its index with the encoder's
   * calibration instead (`calibrationFor`).
   */
  hybridConfig?: Partial<HybridConfig>;
  /** Similarity warnings (NaN in a stored vector...); default: ignored. */
  warn?: (message: string) => void;
  /** Each memory's neighbours in its session (sessionNeighbours); absent = the session-context stage is a no-op. */
  neighboursOf?: (id: MemoryId) => readonly MemoryId[];
  /** Each memory's token vectors (the encoder's un-pooled outputs, special tokens removed); absent = no late interaction. */
  tokensOf?: import('./late-interaction').TokensOf;
  /**
   * Told the candidates late interaction reads (the top max(lateDepth, lateIdfDepth), best first,
   * before the stage), on every run where the stage may act: the app's query-time refinement asks
   * for exactly these memories' token matrices, then recalls again with them (tokensOf).
   */
  lateCandidates?: (ids: readonly MemoryId[]) => void;
  /** The memory-entity graph (expandHops 1); absent = the expansion is a no-op. */
  entities?: EntityLookup;
  /** How the deep options' extra lists are fused (default DEFAULT_DEEP_FUSION; eval ablations). */
  deepFusion?: import('./deep').DeepFusion;
}

export interface PipelineQuery {
  text: string;
  features: SpaceFeatures; // E1 = the query vector; query tags travel as the option `queryTags`
  /** The query's token vectors (late interaction); absent = the stage is a no-op. */
  tokens?: import('./late-interaction').TokenMatrix;
  /** multiQuery: reworded queries with their vectors (the query transformer's output). */
  variants?: readonly { text: string; vector: Float32Array | null }[];
  /** hyde: the embedding of a hypothetical answer (absent = no model: a no-op). */
  hyde?: Float32Array | null;
}

export interface PipelineResult extends RecallResult {
  spaces: {
    sims: Partial<Record<SpaceId, number>>;
    relevance: ReturnType<typeof relevanceScore>;
    relevant: boolean;
    highlyRelevant: boolean;
  };
  /** The fused hybrid score before the space blend (0 when only a space found it). */
  hybridScore: number;
  /**
   * Found only by an extra list (seed 001): a query variant, the HyDE answer, or the entity
   * expansion (then `via`: the first-pass results it shares entities with, E11 hashes).
   */
  foundBy?: { lists: ('variant' | 'hyde' | 'expansion')[]; via?: { seed: MemoryId; entities: number[] }[] };
  /**
   * Deep search escalation (seed 003, active mode): the reader's score and reasons, how the pool
   * found it (absent ways = a primary result), and whether the merge placed it by the primary
   * score, the reader's, or as a relevant constraint.
   */
  deep?: {
    readerScore: number;
    reasons: string[];
    via: { strategy: 'temporal' | 'entity' | 'community' | 'meaning' | 'rule'; seed: MemoryId; detail: string }[];
    source: 'primary' | 'deep' | 'constraint';
    /** The judge's cosine with the query, when careful ranking's judge read it (judge-reader.ts). */
    judge?: number;
  };
  /** Iterative search (seed 001): the pass that added it (2..5), how, the reader's grade, in words. */
  iterative?: { pass: number; action: 'reformulate' | 'widen'; query: string; grade: number; words: string };
}
