// Stage 2, blend: every candidate's score = its hybrid score + a small signal from the spaces
// where it is unusually similar to the query (README "Choices, and why").

import { compareRanked } from '../recall';
import { DEFAULT_SIMILARITY_CONFIG, relevanceScore, type SimilarityConfig, type SpaceSims } from '../spaces';
import type { MatchExplanation, MemoryId, ScoredHit, SpaceId } from '../types';
import { dot, normalize } from '../vector';
import type { Candidates } from './candidates';
import { blendWeight, resolveRanking } from './ranking';
import { unitTokens } from './unit-tokens';
import type { PipelineContext, PipelineQuery, RankingConfig } from './types';

const noop = () => {};

/**
 * score = hybrid + alpha x signal + beta x relevanceScore(sims).score, where per ranking space s
 * z_s = (sim - mean_s) / sd_s over the candidates holding s (spaces on fewer than 2 candidates or
 * with sd 0 give 0), clipped to [0, zCap], and signal = sum_s w_s z_s / sum_s w_s. Clipping at 0:
 * being unusually dissimilar in one space is no evidence against relevance (a memory is relevant when
 * it is similar in ANY non-temporal space, not in all of them).
 */
export function blendScores(
  rows: readonly { id: MemoryId; hybrid: number; sims: SpaceSims }[],
  spaces: readonly SpaceId[],
  r: RankingConfig,
  config: SimilarityConfig,
  warn: (m: string) => void = noop,
): Map<MemoryId, number> {
  const out = new Map<MemoryId, number>();
  const weightOf = (s: SpaceId) => blendWeight(s, r, config);
  const stats = new Map<SpaceId, { mean: number; sd: number }>();
  let weightSum = 0;
  for (const s of spaces) {
    if (config.excluded[s]) continue;
    const xs: number[] = [];
    for (const row of rows) {
      const v = row.sims[s];
      if (v !== undefined && Number.isFinite(v)) xs.push(v);
    }
    if (xs.length < 2) continue;
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) * (b - mean), 0) / xs.length);
    if (!(sd > 1e-12)) continue;
    stats.set(s, { mean, sd });
    weightSum += weightOf(s);
  }
  for (const row of rows) {
    let z = 0;
    if (weightSum > 0) {
      for (const [s, st] of stats) {
        const v = row.sims[s];
        if (v === undefined || !Number.isFinite(v)) continue;
        z += weightOf(s) * Math.min(r.zCap, Math.max(0, (v - st.mean) / st.sd));
      }
      z /= weightSum;
    }
    const margin = r.beta > 0 ? relevanceScore(row.sims, config, warn).score : 0;
    out.set(row.id, row.hybrid + r.alpha * z + r.beta * margin);
  }
  return out;
}

/** The query's lexical evidence: the best idf coverage among the hybrid's hits (0 when none matched a word). */
export function lexicalEvidence(hits: readonly ScoredHit[]): number {
  let best = 0;
  for (const h of hits) if ((h.why.coverage ?? 0) > best) best = h.why.coverage ?? 0;
  return best;
}

const noMatch = (cosine: number): MatchExplanation => ({ lexical: 0, semantic: 0, bm25: 0, cosine, matchedTerms: [] });

/**
 * The candidates as scored hits, best first (score desc, id asc). With no scoring space the
 * hybrid's hits come back untouched. A candidate only a space found keeps an explanation with
 * just its cosine to the query.
 */
export function blend(ctx: PipelineContext, q: PipelineQuery, c: Candidates, r: RankingConfig = resolveRanking(ctx.ranking)): ScoredHit[] {
  if (c.scoring.length === 0) return c.hits;
  const config = ctx.similarity ?? DEFAULT_SIMILARITY_CONFIG;
  const warn = ctx.warn ?? noop;
  // similarities only where they can move the ranking: a weight-0 space is not computed here
  // (all ranking spaces when the margin term needs them)
  const weighted = r.beta > 0 ? c.scoring : c.scoring.filter((s) => blendWeight(s, r, config) > 0);
  const qTokens = q.features.E12 && weighted.includes('E12') ? unitTokens(q.features.E12) : undefined;
  const rows = c.rows.map((row) => ({
    ...row,
    sims: weighted.length > 0 ? ctx.spaces.similarities(q.features, row.id, weighted, qTokens, warn) : {},
  }));
  const blended = blendScores(rows, weighted, { ...r, alpha: r.alpha * lexicalEvidence(c.hits) ** r.evidencePower }, config, warn);
  const qv = q.features.E1;
  const qUnit = qv ? normalize(qv) : null;
  const scored = rows.map((row): ScoredHit => {
    const score = blended.get(row.id)!;
    if (row.hit) return { ...row.hit, score };
    const v = qUnit ? ctx.hybrid.vectorOf(row.id) : undefined;
    return { id: row.id, score, mode: 'standard', why: noMatch(v && qUnit ? dot(qUnit, v) : 0) };
  });
  return scored.sort(compareRanked);
}
