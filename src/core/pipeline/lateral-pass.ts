// Stage 4, lateral pass: the standard top K, plus, when lateral mode is on, up to N memories far
// from the query (L2 > lateralDistanceThreshold) that share its tags (overlap >= lateralMinTagOverlap),
// appended after the standard ones (the lateral-retrieval design), from one pass over every
// recallable memory.

import {
  deriveQueryTags,
  l2FromCosine,
  normalised,
  QUERY_TAG_SOURCE_RESULTS,
  isDerivedProfile,
  recallWithLateral,
  recencyDecay,
  tagOverlap,
  weightByCounts,
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
  /** The same memories with their docs, when the source can visit them without a lookup each (the pipeline's index). */
  forEachDoc?: (fn: (doc: RecallDoc, id: MemoryId) => void) => void;
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
  let queryTags = deriveQueryTags(o.queryTags, pool.slice(0, QUERY_TAG_SOURCE_RESULTS).map((h) => docOf(h.id)!), o.queryTagLimit);
  const derived = isDerivedProfile(queryTags);
  const pooled = new Map(pool.map((h) => [h.id, h]));
  // One pass over every recallable memory, allocation-free (issue 13: at 100k the pass built two
  // objects per memory): count them and each query tag's holders (the derived profile's
  // specificity), and keep only the memories that can come out: the pooled ones (standard
  // heap) and those sharing a query tag (a lateral result needs tag overlap > 0).
  const wanted = queryTags.filter((t) => t.weight > 0).map((t) => t.tag);
  const df = new Map<string, number>();
  // parallel lists, not a pair per memory: the sharers can be a third of a large collection
  const sharerIds: MemoryId[] = [];
  const sharerDocs: RecallDoc[] = [];
  const kept: LateralCandidate[] = [];
  const dist = distancesTo(src.matrix(), src.queryVector);
  let n = 0;
  const visit = (id: MemoryId, d: RecallDoc | undefined) => {
    if (!isRecallable(d, o)) return;
    n++;
    let shares = false;
    for (const t of wanted) {
      if (!d!.tags.includes(t) && !(d!.suggestedTags?.includes(t) ?? false)) continue;
      shares = true;
      if (derived) df.set(t, (df.get(t) ?? 0) + 1);
    }
    if (pooled.has(id)) kept.push(candidate(id, d!, dist(id)));
    else if (shares) {
      sharerIds.push(id);
      sharerDocs.push(d!);
    }
  };
  const candidate = (id: MemoryId, d: RecallDoc, distance: number, tags = tagsOf(d)): LateralCandidate => {
    const h = pooled.get(id);
    const suppressed = feedback?.isSuppressed(id) === true;
    return {
      id,
      score: h ? h.score : 0,
      pooled: h !== undefined,
      distance,
      tags,
      lexicalMatch: h !== undefined && h.why.bm25 > 0,
      importance: d.importance,
      decay: recencyDecay(d.createdAt, src.now, o.decayHalfLifeDays),
      lateralEligible: !suppressed && !isShadowed(d, docOf, o),
      lateralBoost: feedback && !suppressed ? feedback.factor(id) : 1,
      why: h?.why, // lateral-only: recallWithLateral derives the cosine from the distance
    };
  };
  if (src.forEachDoc) src.forEachDoc((d, id) => visit(id, d));
  else for (const id of src.ids()) visit(id, docOf(id));
  if (derived) queryTags = weightByCounts(queryTags, df, n);
  // A memory outside the pool can only be lateral: far (L2 > threshold) and with the tag overlap
  // recallWithLateral asks; the rest would reach neither heap, so no candidate is built for them.
  for (let i = 0; i < sharerIds.length; i++) {
    const distance = dist(sharerIds[i]);
    if (!(distance > o.lateralDistanceThreshold)) continue;
    const tags = tagsOf(sharerDocs[i]);
    const overlap = tagOverlap(queryTags, tags);
    if (overlap < o.lateralMinTagOverlap || overlap <= 0) continue;
    kept.push(candidate(sharerIds[i], sharerDocs[i], distance, tags));
  }
  const candidates = kept;
  const results = recallWithLateral(candidates, queryTags, o, src, true).map((r) => {
    const f = pooled.get(r.id)?.feedbackFactor;
    return r.mode === 'standard' && f !== undefined ? { ...r, feedbackFactor: f } : r;
  });
  src.evaluator?.recordReturned(results.filter((r) => r.mode === 'lateral').map((r) => r.id));
  return { results, queryTags };
}

/** A memory's tags as lateral retrieval reads them: accepted, then suggested. */
function tagsOf(d: RecallDoc): readonly string[] {
  return d.suggestedTags && d.suggestedTags.length > 0 ? [...d.tags, ...d.suggestedTags] : d.tags;
}

/**
 * L2 distance of a memory to the query, from the neighbour matrix (the dense part, kept apart for
 * the vector store): the cosine rounded to f32 as the matrix holds it. No usable query vector
 * (lexical-only search, encoder not ready): NaN, so every hit stays standard and nothing is
 * classed as far — never "everything is lateral".
 */
function distancesTo(m: NeighbourMatrix, queryVector: Float32Array | null): (id: MemoryId) => number {
  const q = normalised(queryVector ?? new Float32Array(0));
  const usable = q.length === m.dim && q.some((x) => x !== 0);
  if (!usable) return () => NaN;
  return (id) => {
    const row = m.indexOf.get(id);
    return row === undefined ? NaN : l2FromCosine(Math.fround(rowDot(m, row, q)));
  };
}
