// Stage 1, candidates: the hybrid's fused list (BM25 + E1) united with every ranking space's own
// top k, so a memory only one space can see (same code identifiers, same entity) is ranked too.

import { isRecallable } from '../status';
import { hybridPatch, type RecallOptions } from '../recall';
import type { MemoryId, ScoredHit, SpaceId } from '../types';
import { resolveRanking, scoringSpaces } from './ranking';
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
  if (scoring.length > 0 && r.spaceCandidates > 0) {
    const accept = (id: MemoryId) => isRecallable(ctx.hybrid.doc(id), o);
    for (const c of ctx.spaces.candidates(q.features, r.spaceCandidates, { spaces: scoring, accept, warn: ctx.warn })) {
      if (!rows.has(c.id)) rows.set(c.id, { id: c.id, hybrid: 0 });
    }
  }
  return { hits, rows: [...rows.values()].sort(byId), scoring };
}
