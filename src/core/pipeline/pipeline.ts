// The one read path, shared by the app's engine and the LoCoMo eval. Each stage is a named,
// exported function in its own file:
//
//   gatherCandidates  hybrid (BM25 + E1 fused, depth `ranking.depth`) ∪ SpaceIndex (E5..E13)
//   blend             hybrid + alpha x mean_s(clip(z_s)) + beta x margin relevance (weighted
//                     mean of max(0, sim - high threshold) over the non-temporal spaces)
//   sessionContext    each candidate + a share of its best session neighbour's score (the
//                     encoder's calibration; 0 = off)
//   lateInteraction   the top candidates + weight x token-level MaxSim with the query (the
//                     encoder's calibration; needs token vectors, else a no-op)
//   speakerMatch      + weight when the query names the memory's speaker label ("Caroline: ...")
//   standardPool      status gate, profile (DEBUGGING / CRITICAL), feedback factors, floors
//   applyTime         decay-aware ranking (opt-in) and earlier versions below their successor
//   lateralPass       standard top K [+ lateral top N: far (L2 > threshold) yet sharing the
//                     query's tags]; the evaluator counts laterals
//   (assignGroups)    SYSTEMATIZER grouping of the direct and lateral results
//   mergeAssociative  associative hops (assocHops; 0 = the stage does not run), floor and cap
//   annotate          every result's sims in all thirteen spaces and its relevance (ANY
//                     non-temporal space above its high threshold; the weighted margins)
//
// Pure and deterministic (ties break by id). See README.md for the choices and the figures.

import {
  assignGroups,
  resolveRecallOptions,
  matrixFromStore,
  type NeighbourMatrix,
  type RecallDoc,
  type RecallOptions,
  type RecallOptionsInput,
} from '../recall';
import {
  DEFAULT_SIMILARITY_CONFIG,
  detectFeatureDivergence,
  selectRecentWindow,
  type DivergenceAlert,
  type SimilarityConfig,
  type SpaceFeatures,
} from '../spaces';
import type { MemoryId } from '../types';
import { annotate } from './annotate';
import { mergeAssociative } from './associative';
import { blend } from './blend';
import { gatherCandidates } from './candidates';
import { DEFAULT_DEEP_FUSION, expansionList, fuseExtraLists, queryLists, wantsExtraLists, type ExtraList } from './deep';
import { lateInteraction, speakerMatch } from './late-interaction';
import { lateralPass } from './lateral-pass';
import { memoryTable } from './memory-table';
import { resolveRanking } from './ranking';
import { sessionContext } from './session-context';
import { standardPool } from './standard';
import { applyTime } from './temporal';
import type { PipelineContext, PipelineQuery, PipelineResult } from './types';

const noop = () => {};

/** The validated options of one call (query tags have one route: the `queryTags` option). */
export function pipelineOptions(options: Partial<RecallOptions> | RecallOptionsInput = {}): RecallOptions {
  // resolved options (a builder's output) carry the derived semanticWeight: resolve them again without it
  const { semanticWeight: _derived, ...input } = options as Partial<RecallOptions>;
  return resolveRecallOptions(input as RecallOptionsInput);
}

/** The ranked, annotated results for `q`. Invalid options throw AppError('INVALID_OPTION'). */
export function runPipeline(ctx: PipelineContext, q: PipelineQuery, options: Partial<RecallOptions> | RecallOptionsInput = {}): PipelineResult[] {
  const asked = pipelineOptions(options);
  const r = resolveRanking(ctx.ranking);
  // the auto-tuning may turn lateral mode off or tighten its distance threshold
  const o = ctx.evaluator ? ctx.evaluator.apply(asked) : asked;
  const hybrid = ctx.hybrid;
  // suggestedTags ride along on the engine's docs (lateral overlap and grouping count them)
  // the stored docs, not copies: every stage only reads them
  const docOf = (id: MemoryId): RecallDoc | undefined => hybrid.peek(id);
  let matrix: NeighbourMatrix | undefined = ctx.matrix;
  const getMatrix = () => (matrix ??= matrixFromStore(hybrid.vectors, ctx.sessionOf ?? (() => undefined)));
  const queryVector = q.features.E1 ?? null;

  let found = gatherCandidates(ctx, q, o, r);
  let scored = blend(ctx, q, found, r);
  let extras: ExtraList[] = [];
  let via: ReturnType<typeof expansionList> = null;
  let firstTop: readonly { id: MemoryId }[] = [];
  if (wantsExtraLists(ctx, q, o)) {
    // seed 001: the first pass seeds the expansion; every extra list is fused in before the ranking
    extras = queryLists(ctx, q, o, r);
    via = expansionList(ctx, o, scored);
    if (via) extras.push(via.list);
    const first = found;
    firstTop = scored.slice(0, o.topK);
    found = fuseExtraLists(found, extras, ctx.deepFusion);
    scored = blend(ctx, q, found, r);
    found = { ...found, hits: first.hits };
  }
  // session context reads hybrid-scale scores (0..1, the weakest candidates near 0); RRF-fused extra
  // lists score by rank (1/(60 + rank): every candidate near 0.01-0.016), where a 0.1 share of a
  // neighbour's score would outweigh several ranks, so the stage steps aside for them (README)
  const rankFused = extras.length > 0 && (ctx.deepFusion ?? DEFAULT_DEEP_FUSION).mode === 'rrf';
  if (!rankFused) scored = sessionContext(ctx, q, scored, r.sessionContext);
  // late interaction and speaker labels add absolute amounts to hybrid-scale scores: likewise off under RRF
  if (!rankFused) {
    ctx.lateCandidates?.(scored.slice(0, Math.max(r.lateDepth, r.lateIdfDepth)).map((h) => h.id));
    scored = lateInteraction(scored, q.tokens, ctx.tokensOf, { weight: r.lateInteraction, depth: r.lateDepth, idfDepth: r.lateIdfDepth });
    scored = speakerMatch(scored, q.text, (id) => hybrid.peek(id)?.text, r.speakerLabel);
  }
  const now = ctx.now ?? Date.now();
  // time: decay (opt-in) and earlier versions below the memories that replaced them; untouched otherwise
  const pool = applyTime(standardPool(scored, docOf, o, ctx.feedback), docOf, o, now);
  let results = lateralPass(pool, o, {
    ids: () => hybrid.ids(),
    forEachDoc: (fn) => hybrid.forEachDoc(fn),
    docOf,
    queryVector,
    matrix: getMatrix,
    feedback: ctx.feedback,
    evaluator: ctx.evaluator,
    now,
    table: () => memoryTable(hybrid),
  }).results;
  // SYSTEMATIZER: grouped before the hops, so associative results carry no group
  if (o.groupBy === 'tag') results = assignGroups(results, docOf);
  if (o.assocHops > 0) results = mergeAssociative(results, { matrix: getMatrix(), docOf, scored, queryVector, feedback: ctx.feedback, table: memoryTable(hybrid) }, o, r);
  const annotated = annotate(ctx, q, results, found.hits);
  return extras.length > 0 ? markFoundBy(annotated, firstTop, extras, via?.hits ?? []) : annotated;
}

/**
 * Results the first pass did not return (outside its top K), marked with the extra lists that hold
 * them (for the expansion: as a neighbour, with the seeds and entities it shares).
 */
function markFoundBy(
  results: PipelineResult[],
  firstTop: readonly { id: MemoryId }[],
  extras: readonly ExtraList[],
  expansion: readonly { id: MemoryId; via: { seed: MemoryId; entities: number[] }[] }[],
): PipelineResult[] {
  const orig = new Set(firstTop.map((h) => h.id));
  const viaOf = new Map(expansion.map((h) => [h.id, h.via]));
  return results.map((res) => {
    if (orig.has(res.id)) return res;
    const v = viaOf.get(res.id);
    const lists = [...new Set(extras.filter((e) => (e.name === 'expansion' ? !!v : e.hits.some((h) => h.id === res.id))).map((e) => e.name))];
    if (lists.length === 0) return res;
    return { ...res, foundBy: v ? { lists, via: v } : { lists } };
  });
}

export interface RecentMemory {
  id: MemoryId;
  text: string;
  createdAt: number;
  sessionId: string;
}

/**
 * Divergence of `current` from recent activity: an alert for each non-temporal space where even
 * its best similarity to a recent memory is below that space's low threshold. Recent = the smaller
 * of `recentWindowHours` and the current session (the time window alone when nothing in it is from
 * the current session); the alert carries the max-over-recent similarity and a recent-activity
 * summary from the newest text. Memories without stored features are skipped.
 */
export function divergenceAlerts(
  ctx: PipelineContext,
  current: SpaceFeatures,
  recent: readonly RecentMemory[],
  opts: { now?: number; currentSessionId?: string; config?: SimilarityConfig } = {},
): DivergenceAlert[] {
  const config = opts.config ?? ctx.similarity ?? DEFAULT_SIMILARITY_CONFIG;
  const now = opts.now ?? ctx.now ?? Date.now();
  const window = selectRecentWindow(recent, now, opts.currentSessionId ?? '', config);
  const rows: { features: SpaceFeatures; text: string }[] = [];
  for (const m of window) {
    const f = ctx.spaces.features(m.id);
    if (f) rows.push({ features: f, text: m.text });
  }
  return detectFeatureDivergence(current, rows, { config, warn: ctx.warn ?? noop, log: noop });
}
