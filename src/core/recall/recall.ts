// recall(): the whole read path over an index-like source, in one call the engine can make.
//
//   hybrid hits (engine, profile weights) -> status filter -> DEBUGGING lexical gate
//   -> importance weighting (CRITICAL) -> feedback factors -> score floors
//   -> dual-heap pass (standard top-K [+ lateral top-N]) -> evaluator bookkeeping
//   -> associative hops -> SYSTEMATIZER grouping.

import type { MemoryId, ScoredHit } from '../types';
import { associate } from './assoc';
import { compareRanked } from './heap';
import type { LateralEvaluator } from './evaluator';
import type { FeedbackState } from './feedback';
import { assignGroups } from './group';
import {
  deriveQueryTags,
  l2FromCosine,
  recallWithLateral,
  recencyDecay,
  type LateralCandidate,
  type LateralHooks,
  type WeightedTag,
} from './lateral';
import { buildNeighbourMatrix, normalised, rowDot, type NeighbourMatrix } from './matrix';
import { hybridParams, resolveRecallOptions, type RecallOptions, type RecallOptionsInput } from './options';
import type { HybridIndexLike, RecallDoc, RecallIndexLike, RecallResult } from './types';

export interface RecallContext extends LateralHooks {
  feedback?: FeedbackState | null;
  /** When given: lateral mode follows its auto-tuning, and returned lateral results are recorded in it. */
  evaluator?: LateralEvaluator | null;
  /** Clock for the lateral recency decay (epoch ms). Default Date.now(). */
  now?: number;
  /** The engine's cached matrix of all vectors; built on demand when lateral or associative needs it. */
  matrix?: NeighbourMatrix;
  /** Precomputed hybrid hits (skip index.search). */
  hits?: readonly ScoredHit[];
}

export interface RecallReport {
  results: RecallResult[];
  options: RecallOptions;
  /** The query tags lateral retrieval used ([] when lateral was off). */
  queryTags: WeightedTag[];
  /** Associative scans performed. */
  expanded: number;
}

/** Status gate shared by every mode: deleted never; archived / quarantined only when asked. */
export function isRecallable(d: RecallDoc | undefined, o: Pick<RecallOptions, 'includeArchived' | 'includeQuarantined'>): boolean {
  if (!d || (d.deletedAt !== undefined && d.deletedAt !== null)) return false;
  if (d.status === 'active') return true;
  if (d.status === 'archived') return o.includeArchived;
  if (d.status === 'quarantined') return o.includeQuarantined;
  return false;
}

function toOptions(o: RecallOptionsInput | RecallOptions): RecallOptions {
  if ('semanticWeight' in o) {
    const { semanticWeight: _derived, ...rest } = o;
    return resolveRecallOptions(rest);
  }
  return resolveRecallOptions(o);
}

/** The standard pool after filters, weighting, feedback and floors; best first. */
export function prepareStandard(
  hits: readonly ScoredHit[],
  docOf: (id: MemoryId) => RecallDoc | undefined,
  o: RecallOptions,
  feedback?: FeedbackState | null,
): (ScoredHit & { feedbackFactor?: number })[] {
  let pool = hits.filter((h) => Number.isFinite(h.score) && isRecallable(docOf(h.id), o));
  if (o.requireLexicalMatch && pool.some((h) => h.why.bm25 > 0)) pool = pool.filter((h) => h.why.bm25 > 0);
  const w = o.importanceWeight;
  const out = pool.map((h) => {
    let score = h.score;
    if (w > 0) score *= 1 - w + w * (docOf(h.id)?.importance ?? 0);
    const f = feedback ? feedback.factor(h.id) : 1;
    if (f !== 1) return { ...h, score: score * f, feedbackFactor: f };
    return score === h.score ? h : { ...h, score };
  });
  out.sort(compareRanked);
  const best = out.length > 0 ? out[0].score : 0;
  const floor = Math.max(o.minScore, o.minRelativeScore * best);
  return floor > 0 ? out.filter((h) => h.score >= floor) : out;
}

export function recallDetailed(
  index: RecallIndexLike,
  query: string,
  queryVector: Float32Array,
  options: RecallOptionsInput | RecallOptions = {},
  ctx: RecallContext = {},
): RecallReport {
  let o = toOptions(options);
  if (ctx.evaluator) o = ctx.evaluator.apply(o);
  const docOf = (id: MemoryId) => index.doc(id);
  const hits = ctx.hits ?? index.search(query, queryVector, hybridParams(o));
  const pool = prepareStandard(hits, docOf, o, ctx.feedback);
  let matrix = ctx.matrix;
  const getMatrix = (): NeighbourMatrix =>
    (matrix ??= buildNeighbourMatrix(index.ids(), (id) => index.vectorOf(id), (id) => index.doc(id)?.sessionId));

  let results: RecallResult[];
  let queryTags: WeightedTag[] = [];
  if (!o.lateralMode || o.lateralMaxResults <= 0) {
    // No lateral work at all: the pool is already ranked (score desc, id asc), take its top K.
    results = pool.slice(0, o.topK).map((h) => ({ ...h, mode: 'standard' as const }));
  } else {
    queryTags = deriveQueryTags(o.queryTags, pool.slice(0, 5).map((h) => docOf(h.id)!), o.queryTagLimit);
    const m = getMatrix();
    const q = normalised(queryVector);
    // No usable query vector (lexical-only search, encoder not ready): distances are unknown, so
    // every hit stays standard and nothing is classed as far — never "everything is lateral".
    const usable = q.length === m.dim && q.some((x) => x !== 0);
    // one tight pass over the contiguous matrix for every row's cosine to the query
    const cosRow = new Float32Array(usable ? m.ids.length : 0);
    for (let r = 0; r < cosRow.length; r++) cosRow[r] = rowDot(m, r, q);
    const dist = (id: MemoryId): number => {
      const row = usable ? m.indexOf.get(id) : undefined;
      return row === undefined ? NaN : l2FromCosine(cosRow[row]);
    };
    const now = ctx.now ?? Date.now();
    const pooled = new Map(pool.map((h) => [h.id, h]));
    const candidates: LateralCandidate[] = [];
    for (const id of index.ids()) {
      const d = docOf(id);
      if (!isRecallable(d, o)) continue;
      const h = pooled.get(id);
      const suppressed = ctx.feedback?.isSuppressed(id) === true;
      const distance = dist(id);
      candidates.push({
        id,
        score: h ? h.score : 0,
        pooled: h !== undefined,
        distance,
        tags: d!.suggestedTags && d!.suggestedTags.length > 0 ? [...d!.tags, ...d!.suggestedTags] : d!.tags,
        lexicalMatch: h !== undefined && h.why.bm25 > 0,
        importance: d!.importance,
        decay: recencyDecay(d!.createdAt, now, o.decayHalfLifeDays),
        lateralEligible: !suppressed,
        lateralBoost: ctx.feedback && !suppressed ? ctx.feedback.factor(id) : 1,
        why: h?.why, // lateral-only: recallWithLateral derives the cosine from the distance
      });
    }
    results = recallWithLateral(candidates, queryTags, o, ctx).map((r) => {
      const f = pooled.get(r.id)?.feedbackFactor;
      return r.mode === 'standard' && f !== undefined ? { ...r, feedbackFactor: f } : r;
    });
    ctx.evaluator?.recordReturned(results.filter((r) => r.mode === 'lateral').map((r) => r.id));
  }

  let expanded = 0;
  if (o.assocHops > 0) {
    const outcome = associate(
      results,
      {
        matrix: getMatrix(),
        eligible: (id) => isRecallable(docOf(id), o) && ctx.feedback?.isSuppressed(id) !== true,
        pool: new Map(pool.map((h) => [h.id, h])),
        queryVector,
      },
      o,
    );
    results = outcome.results;
    expanded = outcome.expanded;
  }
  if (o.groupBy === 'tag') results = assignGroups(results, docOf);
  return { results, options: o, queryTags, expanded };
}

/** recall(index, query, queryVector, options, ctx) -> standard [+ lateral] [+ associative] results. */
export function recall(
  index: RecallIndexLike,
  query: string,
  queryVector: Float32Array,
  options: RecallOptionsInput | RecallOptions = {},
  ctx: RecallContext = {},
): RecallResult[] {
  return recallDetailed(index, query, queryVector, options, ctx).results;
}

/**
 * Adapt the engine's HybridIndex (search(q, opts) with a config patch) to RecallIndexLike, so the
 * engine can call recall(recallSourceFromHybrid(index), ...). The pool is requested with
 * topK = candidateK and the profile's weights; status gates are passed through.
 */
export function recallSourceFromHybrid(index: HybridIndexLike): RecallIndexLike {
  return {
    ids: () => index.ids(),
    vectorOf: (id) => index.vectorOf(id),
    doc: (id) => index.doc(id),
    search: (query, queryVector, p) =>
      index.search(
        { text: query, vector: queryVector.length > 0 ? queryVector : null },
        {
          topK: p.candidateK,
          includeArchived: p.includeArchived,
          includeQuarantined: p.includeQuarantined,
          config: { lexicalWeight: p.lexicalWeight, semanticWeight: p.semanticWeight, candidateK: p.candidateK },
        },
      ),
  };
}
