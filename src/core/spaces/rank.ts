// Multi-space re-ranking: blend the hybrid retrieval score (BM25 + dense fusion) with the
// thirteen-space signal over the union of candidates, so a memory that only one space finds
// (same code, same entities, same cause) can rise. Pure; the caller computes `sims` per
// candidate (spaceSimilarities) and passes the hybrid scores it has.
//
// score = (1 - alpha) x hybrid / max(hybrid) + alpha x spaces / max(spaces)
// where `spaces` is relevanceScore (the category-weighted mean of margins above the high thresholds) or
// weightedSimilarity (raw similarities, useful when few candidates clear the thresholds),
// plus `anyBonus` for candidates relevant in ANY non-temporal space. Both maxima may be 0
// (empty lists, nothing relevant): that term is then 0, never NaN.

import { DEFAULT_SIMILARITY_CONFIG, type SimilarityConfig } from './config';
import { SPACE_IDS } from './registry';
import { relevanceScore, weightedSimilarity, type SpaceSims } from './relevance';
import type { SpaceId } from '../types';

export interface SpaceCandidate {
  id: string;
  /** Score from the hybrid retriever; absent when only the space search found it. */
  hybrid?: number;
  sims: SpaceSims;
}

export interface BlendOptions {
  /** Weight of the space signal, 0..1 (0 = hybrid only, same order as before). Default 0.3. */
  alpha?: number;
  signal?: 'relevance' | 'weighted';
  /** Added (before normalisation to the final order) when a candidate is relevant in ANY space. Default 0. */
  anyBonus?: number;
  config?: SimilarityConfig;
}

export interface BlendedHit {
  id: string;
  score: number;
  hybrid: number; // normalised, 0..1
  spaces: number; // normalised, 0..1
  relevantSpaces: SpaceId[];
}

/** A config in which only `weights`' spaces take part, with those weights. */
export function spaceSubsetConfig(weights: Partial<Record<SpaceId, number>>, base: SimilarityConfig = DEFAULT_SIMILARITY_CONFIG): SimilarityConfig {
  const c: SimilarityConfig = {
    highThresholds: { ...base.highThresholds },
    lowThresholds: { ...base.lowThresholds },
    weights: { ...base.weights },
    recentWindowHours: base.recentWindowHours,
    excluded: { ...base.excluded },
  };
  for (const id of SPACE_IDS) {
    const w = weights[id];
    c.excluded[id] = w === undefined;
    if (w !== undefined) c.weights[id] = w;
  }
  return c;
}

/**
 * Measured on LoCoMo dev (5 conversations, 760 queries; candidates = hybrid top 50 + top 50 by
 * weighted similarity; hybrid alone R@10 66.3, nDCG@10 51.7, MRR@10 49.4):
 * - `relevance`: the weighted margin score over all ten non-temporal spaces, alpha 0.3, +0.1 for ANY-relevant:
 *   66.0 / 52.3 / 50.5;
 * - `lateInteraction`: raw E12 MaxSim, alpha 0.5: 67.4 / 53.9 / 52.1 (alpha 0.6: 67.7 / 54.1 / 52.2).
 * Adding E1, E5, E9, E10 or E13 to the E12 blend did not help (within +-0.5).
 */
export const BLEND_PRESETS = {
  relevance: { alpha: 0.3, signal: 'relevance', anyBonus: 0.1 },
  lateInteraction: { alpha: 0.5, signal: 'weighted', config: spaceSubsetConfig({ E12: 1 }) },
} satisfies Record<string, BlendOptions>;

export function blendSpaceScores(candidates: readonly SpaceCandidate[], options: BlendOptions = {}): BlendedHit[] {
  const alpha = options.alpha ?? 0.3;
  if (!(alpha >= 0 && alpha <= 1)) throw new RangeError(`alpha must be in [0, 1], got ${alpha}`);
  const config = options.config ?? DEFAULT_SIMILARITY_CONFIG;
  const signal = options.signal ?? 'relevance';
  const rows = candidates.map((c) => {
    const r = relevanceScore(c.sims, config, () => {});
    const s = signal === 'relevance' ? r.score : weightedSimilarity(c.sims, config, () => {});
    const h = c.hybrid !== undefined && Number.isFinite(c.hybrid) ? Math.max(0, c.hybrid) : 0;
    return { id: c.id, h, s, relevant: r.relevantSpaces };
  });
  const maxH = Math.max(0, ...rows.map((r) => r.h));
  const maxS = Math.max(0, ...rows.map((r) => r.s));
  const bonus = options.anyBonus ?? 0;
  return rows
    .map((r) => {
      const hybrid = maxH > 0 ? r.h / maxH : 0;
      const spaces = maxS > 0 ? r.s / maxS : 0;
      const score = (1 - alpha) * hybrid + alpha * spaces + (r.relevant.length > 0 ? bonus : 0);
      return { id: r.id, score, hybrid, spaces, relevantSpaces: r.relevant };
    })
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
