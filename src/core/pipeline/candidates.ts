// Stage 1, candidates: the hybrid's fused list (BM25 + E1) united with every ranking space's own
// top k, so a memory only one space can see (same code identifiers, same entity) is ranked too.

import { hybridPatch, type RecallOptions } from '../recall';
import type { MemoryId, ScoredHit, SpaceId } from '../types';
import { DEFAULT_SIMILARITY_CONFIG, type SimilarityConfig } from '../spaces';
import { blendWeight, resolveRanking, scoringSpaces } from './ranking';
import { FULL_SCAN_SPACES } from './space-index';
import type { PipelineContext, PipelineQuery, RankingConfig } from './types';

export interface CandidateRow {
  id: MemoryId;
  /** The fused hybrid score (0 when only a space found it). */
  hybrid: number;
  /** The hybrid's hit, when the hybrid found it. */
  hit?: ScoredHit;
}

export interface Candidates {
  /** The hybrid's fused hits, best first. */
  hits: ScoredHit[];
  /** The union of the hybrid's hits and the spaces' candidates, id ascending. */
  rows: CandidateRow[];
  /** The ranking spaces that score in the blend ([] = the hybrid alone). */
  scoring: SpaceId[];
}

/**
 * The ranking spaces that look for candidates of their own: every scoring space, except the
 * spaces SpaceIndex can only search by a pass over every memory (FULL_SCAN_SPACES: E8, E9) when
 * they cannot move the ranking (blend weight 0 and no margin term). Such a space's top 20 entered
 * the pool with hybrid 0 and nothing of their own to score: at 100k memories E9's Hamming pass was
 * a fifth of a recall (issue 13). Inverted spaces (E6, E13: weight 0 too) keep finding
 * candidates: their lists are bounded by the query's terms, and a memory only their synonyms reach
 * is meant to get in (README, "Blend weights").
 */
export function findingSpaces(scoring: readonly SpaceId[], r: RankingConfig, config: SimilarityConfig): SpaceId[] {
  if (r.beta > 0) return [...scoring];
  return scoring.filter((s) => !FULL_SCAN_SPACES.includes(s) || blendWeight(s, r, config) > 0);
}

const byId = (a: CandidateRow, b: CandidateRow) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The hybrid's `max(depth, candidateK)` best (its own candidate depth keeps the min-max floors it
 * was tuned with) with the options' lexical weight, and per ranking space its `spaceCandidates`
 * best. Both lists pass the status gate (status, tombstone and asOf), before any top k is taken.
 */
export function gatherCandidates(
  ctx: PipelineContext,
  q: PipelineQuery,
  o: RecallOptions,
  r: RankingConfig = resolveRanking(ctx.ranking),
): Candidates {
  const hits = ctx.hybrid.search(
    { text: q.text, vector: q.features.E1 ?? null },
    {
      topK: Math.max(r.depth, o.candidateK),
      includeArchived: o.includeArchived,
      includeQuarantined: o.includeQuarantined,
      // asOf where the candidates are produced: both lists (BM25, E1) and the spaces' below
      ...(o.asOf !== null ? { asOf: o.asOf } : {}),
      // the encoder's calibration, then the options' weights, then the deep options' patch
      // (fusion, candidateTopK), which is empty unless the person set them
      config: { ...ctx.hybridConfig, lexicalWeight: o.lexicalWeight, semanticWeight: o.semanticWeight, ...hybridPatch(o) },
    },
  );
  const rows = new Map<MemoryId, CandidateRow>();
  for (const h of hits) rows.set(h.id, { id: h.id, hybrid: h.score, hit: h });
  const scoring = scoringSpaces(r);
  const finding = findingSpaces(scoring, r, ctx.similarity ?? DEFAULT_SIMILARITY_CONFIG);
  if (finding.length > 0 && r.spaceCandidates > 0) {
    const accept = (id: MemoryId) => ctx.hybrid.recallable(id, o);
    for (const c of ctx.spaces.candidates(q.features, r.spaceCandidates, { spaces: finding, accept, warn: ctx.warn })) {
      if (!rows.has(c.id)) rows.set(c.id, { id: c.id, hybrid: 0 });
    }
  }
  return { hits, rows: [...rows.values()].sort(byId), scoring };
}
