// The thirteen embedding spaces: what each one encodes, how two of its vectors are compared, and
// its per-space thresholds and category weight, all from the thirteen-spaces design: a memory is
// relevant in a space strictly above its high threshold, the current item diverges when its best
// similarity to recent memories is below the low threshold, and the category weights are semantic
// 1.0, relational (E8, E11) 0.5, structural (E9) 0.5, temporal (E2-E4) 0: those three encode when,
// not what, and are never used for relevance or divergence.

import type { SpaceId } from '../types';

export type SpaceCategory = 'semantic' | 'relational' | 'structural' | 'temporal';
/**
 * The design's five similarity functions (cosine, Jaccard, Hamming, MaxSim, TransE), plus
 * 'sparse-cosine': the cosine applied to sparse term vectors. The design lists the functions but
 * does not bind the sparse spaces to Jaccard;
 * this registry decides. E7 uses sparse-cosine (weighted Jaccard gave a near-copy of a snippet
 * only 0.66, so nothing ever cleared E7's 0.80); E6 / E13 keep weighted Jaccard for ranking.
 */
export type SimilarityKind = 'cosine' | 'sparse-cosine' | 'jaccard' | 'hamming' | 'maxsim' | 'transe';

export interface SpaceDef {
  id: SpaceId;
  name: string;
  category: SpaceCategory;
  /** Category weight in the relevance score (semantic 1.0, relational / structural 0.5, temporal 0). */
  weight: number;
  /** Strictly above this the memory is relevant in this space. Temporal spaces: 1.0, unused. */
  highThreshold: number;
  /** When even its best similarity to a recent memory is below this, the current item diverges. Temporal: 0.0, unused. */
  lowThreshold: number;
  similarity: SimilarityKind;
  /** Temporal spaces encode WHEN, not WHAT: stored, never used for relevance or divergence. */
  temporal: boolean;
  /** What the featurizer puts in this space. */
  description: string;
}

const def = (
  id: SpaceId,
  name: string,
  category: SpaceCategory,
  weight: number,
  highThreshold: number,
  lowThreshold: number,
  similarity: SimilarityKind,
  description: string,
): SpaceDef => ({
  id,
  name,
  category,
  weight,
  highThreshold,
  lowThreshold,
  similarity,
  temporal: category === 'temporal',
  description,
});

export const SPACES: Readonly<Record<SpaceId, SpaceDef>> = Object.freeze({
  E1: def('E1', 'Semantic', 'semantic', 1.0, 0.75, 0.3, 'cosine', 'sentence-encoder vector of the text'),
  E2: def('E2', 'TempRecent', 'temporal', 0.0, 1.0, 0.0, 'cosine', 'multi-scale encoding of the creation time'),
  E3: def('E3', 'TempPeriodic', 'temporal', 0.0, 1.0, 0.0, 'cosine', 'hour of day / day of week / month, sin-cos'),
  E4: def('E4', 'TempPosition', 'temporal', 0.0, 1.0, 0.0, 'cosine', 'position within the session'),
  E5: def('E5', 'Causal', 'semantic', 1.0, 0.7, 0.25, 'cosine', 'encoder over the cause / effect clauses'),
  E6: def('E6', 'Sparse', 'semantic', 1.0, 0.6, 0.2, 'jaccard', 'BM25-weighted term vector (weighted Jaccard)'),
  E7: def('E7', 'Code', 'semantic', 1.0, 0.8, 0.35, 'sparse-cosine', 'identifiers, keywords, API names and token shingles of code (sparse cosine)'),
  E8: def('E8', 'Emotional', 'relational', 0.5, 0.7, 0.3, 'cosine', 'valence / arousal / polarity features (VADER + AFINN)'),
  E9: def('E9', 'HDC', 'structural', 0.5, 0.7, 0.3, 'hamming', 'hyperdimensional binary vector of positional n-grams'),
  E10: def('E10', 'Multimodal', 'semantic', 1.0, 0.7, 0.3, 'cosine', 'encoder over attached media captions / alt text'),
  E11: def('E11', 'Entity', 'relational', 0.5, 0.7, 0.3, 'transe', 'entity set (Jaccard) + TransE-style relation triples'),
  E12: def('E12', 'LateInteract', 'semantic', 1.0, 0.7, 0.3, 'maxsim', 'per-token word vectors (MaxSim)'),
  E13: def('E13', 'SPLADE', 'semantic', 1.0, 0.6, 0.2, 'jaccard', 'BM25 terms expanded with related terms (weighted Jaccard)'),
});

export const SPACE_IDS: readonly SpaceId[] = Object.freeze([
  'E1', 'E2', 'E3', 'E4', 'E5', 'E6', 'E7', 'E8', 'E9', 'E10', 'E11', 'E12', 'E13',
] as SpaceId[]);

/** E1, E5..E13: the ten spaces used for relevance and divergence. */
export const NON_TEMPORAL_SPACES: readonly SpaceId[] = Object.freeze(SPACE_IDS.filter((s) => !SPACES[s].temporal));
export const TEMPORAL_SPACES: readonly SpaceId[] = Object.freeze(SPACE_IDS.filter((s) => SPACES[s].temporal));

export function isSpaceId(x: unknown): x is SpaceId {
  return typeof x === 'string' && Object.prototype.hasOwnProperty.call(SPACES, x);
}

/** "E1 (Semantic)". */
export function spaceLabel(id: SpaceId): string {
  return `${id} (${SPACES[id].name})`;
}
