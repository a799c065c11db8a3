// Stage 1b, the extra candidate lists of the search-options design (seed 001), fused with the
// hybrid's list before the ranking:
//   variants   multiQuery: each reworded query retrieved like the original (lexical + vector)
//   hyde       the vector neighbours of a hypothetical answer's embedding
//   expansion  expandHops 1: the first pass's best (the seeds) followed by the memories sharing a
//              canonical entity with them
// All lists, the original first, are fused by reciprocal rank (RRF, k = 60, equal weights); the
// fused score, divided by its largest possible value, becomes the candidate's hybrid score, so the
// blend and every later stage run unchanged. With none of them asked, this stage does not run and
// the output is the same, byte for byte, as without it.

import { expandByEntities, type ExpansionHit } from '../entities';
import { fuseRRF, type FusionInput } from '../fusion';
import { hybridPatch, type RecallOptions } from '../recall';
import type { MemoryId, ScoredHit } from '../types';
import type { CandidateRow, Candidates } from './candidates';
import type { PipelineContext, PipelineQuery, RankingConfig } from './types';

export const DEEP_RRF_K = 60;

/**
 * How the extra lists join the hybrid's: 'rrf' = all lists by reciprocal rank (the seed's
 * wording); 'anchored' = the hybrid's own score plus `weight` x the extra lists' RRF over its
 * maximum (so rank 1 in every extra list adds `weight`).
 */
export type DeepFusion = { mode: 'rrf' } | { mode: 'anchored'; weight: number };
export const DEFAULT_DEEP_FUSION: DeepFusion = { mode: 'rrf' };
/**
 * Seeds of the entity expansion: the first pass's best half (ceil(topK / 2), at most this many).
 * The seeds lead the expansion list, so the neighbours can enter the lower half of the results
 * but never push a seed down.
 */
export const EXPANSION_SEEDS = 10;
export const EXPANSION_LIMIT = 50;

export type ExtraListName = 'variant' | 'hyde' | 'expansion';

export interface ExtraList {
  name: ExtraListName;
  hits: readonly FusionInput[];
}

/** Whether the options / query ask for any extra list (false = the stage is skipped). */
export function wantsExtraLists(ctx: PipelineContext, q: PipelineQuery, o: RecallOptions): boolean {
  return (o.multiQuery > 1 && (q.variants?.length ?? 0) > 0) || (o.hyde && !!q.hyde) || (o.expandHops === 1 && !!ctx.entities);
}

/** The lists of the variants (at most multiQuery - 1) and of the HyDE vector. */
export function queryLists(ctx: PipelineContext, q: PipelineQuery, o: RecallOptions, r: RankingConfig): ExtraList[] {
  const out: ExtraList[] = [];
  const search = (text: string, vector: Float32Array | null) =>
    ctx.hybrid.search(
      { text, vector },
      {
        topK: Math.max(r.depth, o.candidateK),
        includeArchived: o.includeArchived,
        includeQuarantined: o.includeQuarantined,
        // the same list as the first pass's (gatherCandidates): asOf, the encoder's calibration
        ...(o.asOf !== null ? { asOf: o.asOf } : {}),
        config: { ...ctx.hybridConfig, lexicalWeight: o.lexicalWeight, semanticWeight: o.semanticWeight, ...hybridPatch(o) },
      },
    );
  if (o.multiQuery > 1) for (const v of (q.variants ?? []).slice(0, o.multiQuery - 1)) out.push({ name: 'variant', hits: search(v.text, v.vector) });
  if (o.hyde && q.hyde) out.push({ name: 'hyde', hits: search('', q.hyde) });
  return out;
}

/** The entity expansion of the first pass (`firstPass` best first), or null when off. */
export function expansionList(ctx: PipelineContext, o: RecallOptions, firstPass: readonly ScoredHit[]): { list: ExtraList; hits: ExpansionHit[] } | null {
  if (o.expandHops !== 1 || !ctx.entities) return null;
  const seeds = firstPass.slice(0, Math.min(Math.ceil(o.topK / 2), EXPANSION_SEEDS)).map((h) => h.id);
  const hits = expandByEntities(ctx.entities, seeds, {
    maxSeeds: EXPANSION_SEEDS,
    limit: EXPANSION_LIMIT,
    accept: (id) => ctx.hybrid.recallable(id, o),
  });
  // the expansion of the seed set: the seeds first (in their order), then their neighbours, so the
  // fused order keeps the first pass's best on top and the neighbours enter below them
  const list = [...seeds.map((id, i) => ({ id, score: 2 + seeds.length - i })), ...hits.map((h, i) => ({ id: h.id, score: 1 + 1 / (i + 2) }))];
  return { list: { name: 'expansion', hits: list }, hits };
}

/**
 * The candidates with the extra lists fused in: hybrid score = RRF(original, extras...) / its
 * maximum (every list ranking the memory first), so it stays in [0, 1]. A memory only an extra
 * list found becomes a candidate row without a hybrid hit (the blend explains it by its cosine).
 */
export function fuseExtraLists(c: Candidates, extras: readonly ExtraList[], fusion: DeepFusion = DEFAULT_DEEP_FUSION): Candidates {
  if (extras.length === 0) return c;
  const lists = [c.hits, ...extras.map((e) => e.hits)];
  let score: Map<MemoryId, number>;
  let fused: { id: MemoryId }[];
  if (fusion.mode === 'rrf') {
    const f = fuseRRF(lists, { k: DEEP_RRF_K });
    const max = lists.length / (DEEP_RRF_K + 1);
    score = new Map<MemoryId, number>(f.map((x) => [x.id, x.score / max]));
    fused = f;
  } else {
    // anchored: the hybrid's own score, plus weight x the extra lists' RRF (each rank 1 = 1)
    const f = fuseRRF(extras.map((e) => e.hits), { k: DEEP_RRF_K });
    const scale = (DEEP_RRF_K + 1) / extras.length;
    score = new Map<MemoryId, number>(c.hits.map((h) => [h.id, h.score]));
    for (const row of c.rows) if (!score.has(row.id)) score.set(row.id, row.hybrid);
    for (const x of f) score.set(x.id, (score.get(x.id) ?? 0) + fusion.weight * x.score * scale);
    fused = f;
  }
  const hits = c.hits.map((h) => ({ ...h, score: score.get(h.id) ?? 0 }));
  const rows = new Map<MemoryId, CandidateRow>(c.rows.map((row) => [row.id, { ...row, hybrid: score.get(row.id) ?? 0 }]));
  const hitOf = new Map(hits.map((h) => [h.id, h]));
  for (const row of rows.values()) row.hit = hitOf.get(row.id);
  for (const f of fused) if (!rows.has(f.id)) rows.set(f.id, { id: f.id, hybrid: score.get(f.id)! });
  hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { hits, rows: [...rows.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)), scoring: c.scoring };
}
