// Stage 4, lateral pass: the standard top K, plus, when lateral mode is on, up to N memories far
// from the query (L2 > lateralDistanceThreshold) that share its tags (overlap >= lateralMinTagOverlap),
// appended after the standard ones (the lateral-retrieval design), from one pass over every
// recallable memory.

import {
  BOOST_CAP,
  deriveQueryTags,
  l2FromCosine,
  lateralScore,
  normalised,
  QUERY_TAG_SOURCE_RESULTS,
  isDerivedProfile,
  recallWithLateral,
  recencyDecay,
  tagOverlap,
  weightByCounts,
  rowDot,
  TopKHeap,
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
import type { MemoryTable } from './memory-table';
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
  /** The same memories as columns (the pipeline's index: `memoryTable`); absent = the visit above. */
  table?: () => MemoryTable | null;
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
  const pooled = new Map(pool.map((h) => [h.id, h]));
  const matrix = src.matrix();
  const pass: Pass = {
    o,
    src,
    pooled,
    dist: distancesTo(matrix, src.queryVector),
    candidate: (id, d, distance, tags = tagsOf(d)) => {
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
    },
  };
  const table = queryTags.length <= MAX_MASK_TAGS ? (src.table?.() ?? null) : null;
  const { kept, tags } = table ? fromTable(table, matrix, queryTags, pass) : byVisit(queryTags, pass);
  const results = recallWithLateral(kept, tags, o, src, true).map((r) => {
    const f = pooled.get(r.id)?.feedbackFactor;
    return r.mode === 'standard' && f !== undefined ? { ...r, feedbackFactor: f } : r;
  });
  src.evaluator?.recordReturned(results.filter((r) => r.mode === 'lateral').map((r) => r.id));
  return { results, queryTags: tags };
}

interface Pass {
  o: RecallOptions;
  src: LateralSource;
  pooled: ReadonlyMap<MemoryId, PooledHit>;
  dist: QueryDistance;
  candidate: (id: MemoryId, d: RecallDoc, distance: number, tags?: readonly string[]) => LateralCandidate;
}

interface Kept {
  /** The candidates that can come out: every pooled memory, and the lateral sharers that can win. */
  kept: LateralCandidate[];
  /** The query tags, a derived profile weighed by specificity. */
  tags: WeightedTag[];
}

/**
 * The reference pass (any source; also the path for more than MAX_MASK_TAGS query tags): one visit
 * of every recallable memory, allocation-free per memory (issue 13: at 100k the pass built two
 * objects per memory): count them and each query tag's holders (the derived profile's
 * specificity), and keep only the memories that can come out: the pooled ones (standard heap) and
 * those sharing a query tag (a lateral result needs tag overlap > 0).
 */
function byVisit(queryTags: WeightedTag[], { o, src, pooled, dist, candidate }: Pass): Kept {
  const derived = isDerivedProfile(queryTags);
  const wanted = queryTags.filter((t) => t.weight > 0).map((t) => t.tag);
  const df = new Map<string, number>();
  // parallel lists, not a pair per memory: the sharers can be a third of a large collection
  const sharerIds: MemoryId[] = [];
  const sharerDocs: RecallDoc[] = [];
  const kept: LateralCandidate[] = [];
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
    if (pooled.has(id)) kept.push(candidate(id, d!, dist.of(id)));
    else if (shares) {
      sharerIds.push(id);
      sharerDocs.push(d!);
    }
  };
  if (src.forEachDoc) src.forEachDoc((d, id) => visit(id, d));
  else for (const id of src.ids()) visit(id, src.docOf(id));
  const tags = derived ? weightByCounts(queryTags, df, n) : queryTags;
  // A memory outside the pool can only be lateral: far (L2 > threshold) and with the tag overlap
  // recallWithLateral asks; the rest would reach neither heap, so no candidate is built for them.
  for (let i = 0; i < sharerIds.length; i++) {
    const distance = dist.of(sharerIds[i]);
    if (!(distance > o.lateralDistanceThreshold)) continue;
    const memoryTags = tagsOf(sharerDocs[i]);
    const overlap = tagOverlap(tags, memoryTags);
    if (overlap < o.lateralMinTagOverlap || overlap <= 0) continue;
    kept.push(candidate(sharerIds[i], sharerDocs[i], distance, memoryTags));
  }
  return { kept, tags };
}

/** Query tags a bit mask can carry (bit i = the memory holds queryTags[i]); more go by byVisit. */
const MAX_MASK_TAGS = 30;
/** lateralSimilarity(d) <= 2/3 for d <= 2 (the largest L2 between unit vectors), with room for rounding. */
const SIMILARITY_BOUND = (2 / 3) * (1 + 1e-9);

/**
 * byVisit's outcome from the memory table (the pipeline's way): the same visit over typed columns
 * (the gate, the tags as interned ids folded into a bit mask of the query tags they hold), then
 * for the tag sharers only what can win the lateral top N. A sharer's overlap depends on its mask
 * alone (computed once per mask by tagOverlap); its lateral score is at most 2/3 × overlap ×
 * importance × decay × the largest feedback boost, so once N sharers are held, one whose bound is
 * below the N-th score is passed over without its distance. The others are scored exactly as
 * recallWithLateral scores them, and only the N best (score desc, id asc) become candidates: the
 * lateral heap's outcome over all of them is the same (tested against byVisit).
 */
function fromTable(t: MemoryTable, matrix: NeighbourMatrix, queryTags: WeightedTag[], { o, src, pooled, dist, candidate }: Pass): Kept {
  const derived = isDerivedProfile(queryTags);
  const nq = queryTags.length;
  const bitOf = t.tagBits;
  let wantedMask = 0;
  for (let i = 0; i < nq; i++) {
    const k = t.tagIndex.get(queryTags[i].tag);
    if (k !== undefined) bitOf[k] |= 1 << i;
    if (queryTags[i].weight > 0) wantedMask |= 1 << i;
  }
  for (const id of pooled.keys()) {
    const r = t.rowOf.get(id);
    if (r !== undefined) t.marks[r] = 1;
  }
  const { tagStart, tagEnd, tagIds, marks, scratchA: sharerRow, scratchB: sharerMask } = t;
  const rows = t.matrixRows(matrix);
  const df = new Int32Array(nq);
  const kept: LateralCandidate[] = [];
  let n = 0;
  let ns = 0;
  for (let r = 0; r < t.size; r++) {
    if (!t.recallable(r, o)) continue;
    n++;
    let mask = 0;
    for (let j = tagStart[r]; j < tagEnd[r]; j++) mask |= bitOf[tagIds[j]];
    const shared = mask & wantedMask;
    if (derived) for (let b = shared; b !== 0; b &= b - 1) df[31 - Math.clz32(b & -b)]++;
    if (marks[r] === 1) kept.push(candidate(t.ids[r], t.docs[r], dist.ofRow(rows[r])));
    else if (shared !== 0) {
      sharerRow[ns] = r;
      sharerMask[ns++] = mask;
    }
  }
  // the scratch back to zero for the next query
  for (let i = 0; i < nq; i++) {
    const k = t.tagIndex.get(queryTags[i].tag);
    if (k !== undefined) bitOf[k] = 0;
  }
  for (const id of pooled.keys()) {
    const r = t.rowOf.get(id);
    if (r !== undefined) t.marks[r] = 0;
  }
  let tags = queryTags;
  if (derived) {
    const counts = new Map<string, number>();
    for (let i = 0; i < nq; i++) if (df[i] > 0) counts.set(queryTags[i].tag, df[i]);
    tags = weightByCounts(queryTags, counts, n);
  }
  if (ns === 0 || !dist.usable) return { kept, tags };

  const overlapOf = new Map<number, number>();
  const feedback = src.feedback;
  const maxBoost = feedback && feedback.size > 0 ? 1 + BOOST_CAP : 1;
  const best = new TopKHeap<{ id: MemoryId; score: number; r: number; distance: number }>(o.lateralMaxResults);
  for (let i = 0; i < ns; i++) {
    const mask = sharerMask[i];
    let overlap = overlapOf.get(mask);
    if (overlap === undefined) overlapOf.set(mask, (overlap = tagOverlap(tags, tags.filter((_, b) => (mask & (1 << b)) !== 0).map((q) => q.tag))));
    if (overlap < o.lateralMinTagOverlap || overlap <= 0) continue;
    const r = sharerRow[i];
    // the bound first without the decay (at most 1), then with it
    const worst = best.size === best.capacity ? best.worst!.score : -Infinity;
    const bound = SIMILARITY_BOUND * overlap * t.importance[r] * maxBoost;
    if (bound < worst) continue;
    const decay = recencyDecay(t.createdAt[r], src.now, o.decayHalfLifeDays);
    if (bound * decay < worst) continue;
    const distance = dist.ofRow(rows[r]);
    if (!(distance > o.lateralDistanceThreshold)) continue;
    const id = t.ids[r];
    const d = t.docs[r];
    const suppressed = feedback?.isSuppressed(id) === true;
    if (suppressed || isShadowed(d, src.docOf, o)) continue;
    const score = lateralScore(distance, overlap, d.importance, decay) * (feedback ? feedback.factor(id) : 1);
    if (score > 0) best.push({ id, score, r, distance });
  }
  for (const b of best.sorted()) kept.push(candidate(b.id, t.docs[b.r], b.distance));
  return { kept, tags };
}

/** A memory's tags as lateral retrieval reads them: accepted, then suggested. */
function tagsOf(d: RecallDoc): readonly string[] {
  return d.suggestedTags && d.suggestedTags.length > 0 ? [...d.tags, ...d.suggestedTags] : d.tags;
}

interface QueryDistance {
  /** False: no usable query vector, every distance NaN. */
  readonly usable: boolean;
  of(id: MemoryId): number;
  /** By the matrix's row (-1: none = NaN). */
  ofRow(row: number): number;
}

/**
 * L2 distance of a memory to the query, from the neighbour matrix (the dense part, kept apart for
 * the vector store): the cosine rounded to f32 as the matrix holds it. No usable query vector
 * (lexical-only search, encoder not ready): NaN, so every hit stays standard and nothing is
 * classed as far — never "everything is lateral".
 */
function distancesTo(m: NeighbourMatrix, queryVector: Float32Array | null): QueryDistance {
  const q = normalised(queryVector ?? new Float32Array(0));
  const usable = q.length === m.dim && q.some((x) => x !== 0);
  const ofRow = (row: number) => (usable && row >= 0 ? l2FromCosine(Math.fround(rowDot(m, row, q))) : NaN);
  return { usable, ofRow, of: (id) => ofRow(m.indexOf.get(id) ?? -1) };
}
