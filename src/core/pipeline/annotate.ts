// Stage 6, annotate: what the explanation panel shows beside each result.

import type { RecallResult } from '../recall';
import { DEFAULT_SIMILARITY_CONFIG, isHighlyRelevant, relevanceScore, spaceSimilarities } from '../spaces';
import type { ScoredHit } from '../types';
import type { PipelineContext, PipelineQuery, PipelineResult } from './types';

const noop = () => {};

/**
 * Each result with its similarity to the query in all thirteen spaces, its relevanceScore (the
 * category-weighted mean of its margins above each space's high threshold), `relevant` (ANY
 * non-temporal space strictly above its high threshold), `highlyRelevant` (at least three such
 * spaces) and its fused hybrid score before the blend (0 = only a space found it).
 */
export function annotate(ctx: PipelineContext, q: PipelineQuery, results: readonly RecallResult[], hybridHits: readonly ScoredHit[]): PipelineResult[] {
  const config = ctx.similarity ?? DEFAULT_SIMILARITY_CONFIG;
  const warn = ctx.warn ?? noop;
  const hybridOf = new Map(hybridHits.map((h) => [h.id, h.score]));
  return results.map((res): PipelineResult => {
    const f = ctx.spaces.features(res.id);
    const sims = f ? spaceSimilarities(q.features, f, { warn }) : {};
    const relevance = relevanceScore(sims, config, warn);
    return {
      ...res,
      spaces: { sims, relevance, relevant: relevance.relevantSpaces.length >= 1, highlyRelevant: isHighlyRelevant(sims, config, warn) },
      hybridScore: hybridOf.get(res.id) ?? 0,
    };
  });
}
