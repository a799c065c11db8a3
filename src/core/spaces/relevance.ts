// Multi-space relevance (the thirteen-spaces design). Input: the similarity of a query to a memory
// in each space that both of them have (`sims`); a missing key means the space is absent.
// The rules: a memory is relevant when its similarity is strictly above the space's high threshold
// in ANY non-temporal space (E2-E4 encode when, not what, and never count); its relevance score
// sums weight x max(0, sim - high) over the spaces and divides by the weights (semantic 1.0,
// relational E8 / E11 and structural E9 0.5, temporal 0).
//
// The design contradicts itself in two places and is silent on a third; this file decides, once:
//  1. Its relevance algorithm and its examples (0.9 in E7 against E7's 0.80 threshold is enough)
//     call a memory relevant when ANY non-temporal space is strictly above its high threshold,
//     while a note under that algorithm asks for at least 3 spaces. Both are kept: `isRelevant`
//     = ANY (>= 1 space), `isHighlyRelevant` = a second tier with >= HIGHLY_RELEVANT_MIN_SPACES
//     (3) spaces.
//  2. Its score formula text says weighted_sum / active_space_count (10), its code divides
//     by the sum of the weights, and the summary gives "Total active weight = 8.5". We divide
//     by the sum of ACTIVE weights (8.5 with all ten non-temporal spaces present), which keeps
//     the score a weighted mean of margins in [0, 1 - threshold].
//  3. "Active" = not excluded AND present: an absent space (a memory without code has no E7)
//     drops out of both sums, so missing modalities do not dilute the score.
// The per-space contribution (weight x margin, before the division) is exposed so the design's
// example "0.95 in E1 (weight 1.0, threshold 0.75): the score includes 0.20 from E1" is checkable.

import type { SpaceId } from '../types';
import { DEFAULT_SIMILARITY_CONFIG, type SimilarityConfig } from './config';
import { SPACE_IDS, spaceLabel } from './registry';

export type SpaceSims = Partial<Record<SpaceId, number>>;

export const HIGHLY_RELEVANT_MIN_SPACES = 3;

export interface RelevanceResult {
  /** sum(weight x margin) / sum(active weights); 0 when no space is active. */
  score: number;
  /** weight x max(0, sim - high) per space, before the division; 0 for excluded / absent. */
  contributions: Record<SpaceId, number>;
  /** Sum of the weights of the spaces that took part (8.5 with all ten present). */
  activeWeight: number;
  /** Non-excluded spaces whose similarity is strictly above their high threshold. */
  relevantSpaces: SpaceId[];
  /** Spaces excluded by config (E2-E4 by default), whatever their similarity. */
  excluded: SpaceId[];
  /** Non-excluded spaces with no similarity given. */
  absent: SpaceId[];
}

export interface RelevanceOptions {
  config?: SimilarityConfig;
  warn?: (message: string) => void;
}

/** A non-finite similarity counts as 0 with a warning (the design's rule): never relevant in that space. */
function clean(sim: number, id: SpaceId, warn: (m: string) => void): number {
  if (Number.isFinite(sim)) return sim;
  warn(`Invalid embedding value in ${spaceLabel(id)}`);
  return 0;
}

export function relevanceScore(sims: SpaceSims, config: SimilarityConfig = DEFAULT_SIMILARITY_CONFIG, warn: (m: string) => void = (m) => console.warn(m)): RelevanceResult {
  const contributions = {} as Record<SpaceId, number>;
  const relevantSpaces: SpaceId[] = [];
  const excluded: SpaceId[] = [];
  const absent: SpaceId[] = [];
  let weighted = 0;
  let activeWeight = 0;
  for (const id of SPACE_IDS) {
    contributions[id] = 0;
    if (config.excluded[id]) {
      excluded.push(id);
      continue;
    }
    const raw = sims[id];
    if (raw === undefined) {
      absent.push(id);
      continue;
    }
    const sim = clean(raw, id, warn);
    const high = config.highThresholds[id];
    const weight = config.weights[id];
    if (sim > high) relevantSpaces.push(id);
    const contribution = weight * Math.max(0, sim - high);
    contributions[id] = contribution;
    weighted += contribution;
    activeWeight += weight;
  }
  return {
    score: activeWeight > 0 ? weighted / activeWeight : 0,
    contributions,
    activeWeight,
    relevantSpaces,
    excluded,
    absent,
  };
}

/** ANY(): relevant when at least one non-excluded space is strictly above its high threshold. */
export function isRelevant(sims: SpaceSims, config: SimilarityConfig = DEFAULT_SIMILARITY_CONFIG, warn?: (m: string) => void): boolean {
  return relevanceTier(relevanceScore(sims, config, warn)) !== 'none';
}

/** The second tier: relevant in at least 3 non-excluded spaces. */
export function isHighlyRelevant(sims: SpaceSims, config: SimilarityConfig = DEFAULT_SIMILARITY_CONFIG, warn?: (m: string) => void): boolean {
  return relevanceTier(relevanceScore(sims, config, warn)) === 'highly-relevant';
}

export type RelevanceTier = 'none' | 'relevant' | 'highly-relevant';

/**
 * The two tiers as one rule: relevant when the memory is above its threshold in at least one
 * space, highly relevant when it is in at least HIGHLY_RELEVANT_MIN_SPACES of them.
 */
export function relevanceTier(r: Pick<RelevanceResult, 'relevantSpaces'>): RelevanceTier {
  const n = r.relevantSpaces.length;
  return n >= HIGHLY_RELEVANT_MIN_SPACES ? 'highly-relevant' : n >= 1 ? 'relevant' : 'none';
}

/**
 * The design's category-weighted similarity: SUM(w_i x sim_i) / SUM(w_i) over the active
 * (non-excluded, present) spaces, on raw similarities rather than margins. Unlike
 * relevanceScore it is non-zero below the thresholds, so it can rank a whole candidate list.
 * Negative similarities (opposite emotion) count as 0.
 */
export function weightedSimilarity(sims: SpaceSims, config: SimilarityConfig = DEFAULT_SIMILARITY_CONFIG, warn: (m: string) => void = (m) => console.warn(m)): number {
  let sum = 0;
  let weight = 0;
  for (const id of SPACE_IDS) {
    if (config.excluded[id]) continue;
    const raw = sims[id];
    if (raw === undefined) continue;
    const w = config.weights[id];
    sum += w * Math.max(0, clean(raw, id, warn));
    weight += w;
  }
  return weight > 0 ? sum / weight : 0;
}
