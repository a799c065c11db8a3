// Stage 4, lateral pass: the standard top K, plus, when lateral mode is on, up to N memories far
// from the query (L2 > lateralDistanceThreshold) that share its tags (overlap >= lateralMinTagOverlap),
// appended after the standard ones (the lateral-retrieval design), from one pass over every
// recallable memory.

import {
  deriveQueryTags,
  l2FromCosine,
  normalised,
  QUERY_TAG_SOURCE_RESULTS,
  recallWithLateral,
  recencyDecay,
  rowDot,
  type FeedbackState,
  type LateralCandidate,
  type LateralEvaluator,
  type LateralHooks,
  type NeighbourMatrix,
  type RecallDoc,
  type RecallOptions,
  type RecallResult,
  type WeightedTag,
} from '../recall';
import { isRecallable } from '../status';
import { isShadowed } from './temporal';
import type { MemoryId } from '../types';
import type { PooledHit } from './standard';

export interface LateralSource extends LateralHooks {
  /** Every memory the index holds (lateral candidates come from all of them, not only the pool). */
  ids: () => Iterable<MemoryId>;
  docOf: (id: MemoryId) => RecallDoc | undefined;
  /** The query vector; null or all-zero = unknown distances. */
  queryVector: Float32Array | null;
  /** The neighbour matrix (only read when lateral mode is on). */
  matrix: () => NeighbourMatrix;
  feedback?: FeedbackState | null;
  /** Told which lateral results were returned (the auto-tuning counts them). */
  evaluator?: LateralEvaluator | null;
  /** Clock for the recency decay (epoch ms). */
  now: number;
}

export interface LateralOutcome {
  results: RecallResult[];
  /** The query tags lateral retrieval used ([] when lateral was off). */
  queryTags: WeightedTag[];
}

/**
 * Lateral off (or no lateral slot): the pool's top K, nothing else is read. Lateral on: the query
 * tags (explicit, else derived from the pool's top five), then the dual-heap pass over every
 * recallable memory: near ones (or pooled lexical matches) compete for the standard top K, far
 * ones sharing the tags for the lateral top N. A suppressed memory is never lateral; feedback
 * scales lateral scores as it scales standard ones.
 */
export function lateralPass(pool: readonly PooledHit[], o: RecallOptions, src: LateralSource): LateralOutcome {
  if (!o.lateralMode || o.lateralMaxResults <= 0) {
    // the pool is already ranked (score desc, id asc): take its top K
    return { results: pool.slice(0, o.topK).map((h) => ({ ...h, mode: 'standard' as const })), queryTags: [] };
  }
  const { docOf, feedback } = src;
  const queryTags = deriveQueryTags(o.queryTags, pool.slice(0, QUERY_TAG_SOURCE_RESULTS).map((h) => docOf(h.id)!), o.queryTagLimit);
  const m = src.matrix();
  const q = normalised(src.queryVector ?? new Float32Array(0));
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
  const pooled = new Map(pool.map((h) => [h.id, h]));
  const candidates: LateralCandidate[] = [];
  for (const id of src.ids()) {
    const d = docOf(id);
    if (!isRecallable(d, o)) continue;
    const h = pooled.get(id);
    const suppressed = feedback?.isSuppressed(id) === true;
    candidates.push({
      id,
      score: h ? h.score : 0,
      pooled: h !== undefined,
      distance: dist(id),
      tags: d!.suggestedTags && d!.suggestedTags.length > 0 ? [...d!.tags, ...d!.suggestedTags] : d!.tags,
      lexicalMatch: h !== undefined && h.why.bm25 > 0,
      importance: d!.importance,
      decay: recencyDecay(d!.createdAt, src.now, o.decayHalfLifeDays),
      lateralEligible: !suppressed && !isShadowed(d, docOf, o),
      lateralBoost: feedback && !suppressed ? feedback.factor(id) : 1,
      why: h?.why, // lateral-only: recallWithLateral derives the cosine from the distance
    });
  }
  const results = recallWithLateral(candidates, queryTags, o, src).map((r) => {
    const f = pooled.get(r.id)?.feedbackFactor;
    return r.mode === 'standard' && f !== undefined ? { ...r, feedbackFactor: f } : r;
  });
  src.evaluator?.recordReturned(results.filter((r) => r.mode === 'lateral').map((r) => r.id));
  return { results, queryTags };
}
