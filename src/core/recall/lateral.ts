// Lateral retrieval (the lateral-retrieval design): memories far from the query in vector space but
// sharing its tags. A memory is a lateral candidate when its L2 distance to the query is above
// lateralDistanceThreshold (default 1.2) and its tag overlap is at least lateralMinTagOverlap (0.5).
// One pass over the candidates fills two bounded heaps; results = [standard top-K] + [lateral top-N].

import type { MatchExplanation, MemoryId } from '../types';
import { TopKHeap } from './heap';
import type { RecallOptions } from './options';
import type { RecallResult } from './types';

/** 1 / (1 + 1/d) = d / (1 + d): 0 at d = 0, 0.5 at d = 1, -> 1 as d -> infinity. NaN/negative -> 0. */
export function lateralSimilarity(d: number): number {
  if (!(d > 0)) return 0; // also catches NaN
  if (d === Infinity) return 1;
  return d / (1 + d); // algebraically 1/(1+1/d), without the 1/0 at d = 0
}

/**
 * lateralScore = 1/(1+1/d) * tagOverlap * importance * decay, d the L2 distance to the query: the
 * farther, the higher (the lateral-retrieval design's formula; the first factor lies in (0, 1)).
 */
export function lateralScore(d: number, tagOverlap: number, importance: number, decay: number): number {
  const s = lateralSimilarity(d) * tagOverlap * importance * decay;
  return Number.isFinite(s) && s > 0 ? s : 0;
}

/** L2 distance between unit vectors from their cosine: sqrt(2 - 2cos), clamped to [0, 2]. */
export function l2FromCosine(cos: number): number {
  if (!Number.isFinite(cos)) return NaN;
  const c = Math.max(-1, Math.min(1, cos));
  return Math.sqrt(2 - 2 * c);
}

/** Recency decay for the lateral score: 0.5^(ageDays / halfLife); halfLife 0 -> 1 (off). */
export function recencyDecay(createdAt: number, now: number, halfLifeDays: number): number {
  if (!(halfLifeDays > 0)) return 1;
  const ageDays = Math.max(0, now - createdAt) / 86_400_000;
  return Math.pow(0.5, ageDays / halfLifeDays);
}

export interface WeightedTag {
  tag: string;
  weight: number;
  /**
   * True when the tag was derived from the top standard results (deriveQueryTags without explicit
   * tags), not typed or picked by the person. A query whose tags are all derived is a tag PROFILE
   * and is matched by `tagOverlap`'s profile rule; otherwise containment.
   */
  derived?: boolean;
}

/** True when the query tags are a derived profile: non-empty and every entry marked derived. */
export function isDerivedProfile(queryTags: readonly WeightedTag[] | readonly string[]): boolean {
  return queryTags.length > 0 && queryTags.every((q) => typeof q !== 'string' && q.derived === true);
}

/**
 * Tag overlap of a memory with the query's tags, in [0, 1].
 *
 * Explicit query tags (typed or picked; plain strings; any entry not marked `derived`):
 * weighted containment of the query's tags in the memory's tags,
 *   overlap = sum(weight of query tags the memory has) / sum(weight of all query tags),
 * i.e. |Q ∩ M| / |Q| unweighted. Why not Jaccard: Jaccard divides by |Q ∪ M|, so a richly tagged
 * memory is punished for tags the query never mentioned; lateral retrieval asks "does this memory
 * share the query's context?", which containment answers.
 *
 * Derived query tags (every entry `derived`, see deriveQueryTags): the query's tag PROFILE
 * normalised by its strongest tag, and the memory scores the relative weight of the strongest
 * profile tag it shares:
 *   overlap = max(weight of query tags the memory has) / max(weight of all query tags).
 * Why: derived tags are not a conjunction the person asked for but a guess at the query's context,
 * several tags spread over the top results' domains. Containment divides one shared tag by the sum
 * of all of them (1 of 5 derived tags ~ 0.2-0.3), so a memory sharing the query's single most
 * telling tag could never reach lateralMinTagOverlap (0.5) and lateral mode returned nothing unless
 * the person typed the tag (measured on the sample: the 18 designed pairs gave 0 cross-domain
 * hits). Normalising by the strongest tag keeps the 0..1 scale the default minimum overlap (0.5,
 * the lateral-retrieval design's) is set on: sharing the dominant context tag = 1, as sharing a
 * typed tag is; sharing only a weak one scores its relative weight (1/3 for the
 * third-ranked result's tag), so 0.5 still means "at least half as telling as the best tag". The
 * max (a possibility measure over the fuzzy profile), not a capped sum: several weak, incidental
 * tags do not add up to one strong shared context. recallWithLateral first re-weights a derived
 * profile by tag specificity (weightBySpecificity). Empty query tags -> 0 (no lateral results).
 */
export function tagOverlap(
  queryTags: readonly WeightedTag[] | readonly string[],
  memoryTags: ReadonlySet<string> | readonly string[],
): number {
  if (queryTags.length === 0) return 0;
  const has = memoryTags instanceof Set ? (t: string) => memoryTags.has(t) : (t: string) => (memoryTags as readonly string[]).includes(t);
  const profile = isDerivedProfile(queryTags);
  let total = 0;
  let shared = 0;
  for (const q of queryTags) {
    const tag = typeof q === 'string' ? q : q.tag;
    const w = typeof q === 'string' ? 1 : q.weight;
    if (!(w > 0)) continue;
    if (profile) {
      if (w > total) total = w;
      if (w > shared && has(tag)) shared = w;
    } else {
      total += w;
      if (has(tag)) shared += w;
    }
  }
  return total > 0 ? shared / total : 0;
}

/** How many of the top standard results feed the derived query tags. */
export const QUERY_TAG_SOURCE_RESULTS = 5;
/** Suggested (derived) tags count half of accepted ones. */
export const SUGGESTED_TAG_WEIGHT = 0.5;

/**
 * The query's tags. Explicit tags win (each weight 1; an explicit empty list means "no tags").
 * Otherwise: the union of the tags of the top QUERY_TAG_SOURCE_RESULTS standard results, the result
 * at rank r (0-based) contributing 1/(r+1) per accepted tag and half that per suggested-only tag;
 * sorted by weight desc then tag asc, capped at `limit`. Derived tags are marked `derived: true`:
 * they are a profile of the query's context, matched by tagOverlap's profile rule and weighed by
 * specificity in recallWithLateral; explicit tags are not marked and keep containment.
 */
export function deriveQueryTags(
  explicit: readonly string[] | null,
  rankedDocs: readonly { tags: readonly string[]; suggestedTags?: readonly string[] }[],
  limit: number,
): WeightedTag[] {
  if (explicit) return explicit.map((tag) => ({ tag, weight: 1 }));
  const w = new Map<string, number>();
  const n = Math.min(rankedDocs.length, QUERY_TAG_SOURCE_RESULTS);
  for (let r = 0; r < n; r++) {
    const base = 1 / (r + 1);
    const d = rankedDocs[r];
    const accepted = new Set(d.tags);
    for (const t of accepted) w.set(t, (w.get(t) ?? 0) + base);
    for (const t of new Set(d.suggestedTags ?? [])) {
      if (!accepted.has(t)) w.set(t, (w.get(t) ?? 0) + base * SUGGESTED_TAG_WEIGHT);
    }
  }
  return [...w]
    .map(([tag, weight]) => ({ tag, weight, derived: true }))
    .sort((a, b) => b.weight - a.weight || (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0))
    .slice(0, limit);
}

/**
 * How specific a tag is in the collection: ln(1 + N / df), df = memories carrying it (at least 1).
 * A tag on 3 of 323 memories weighs ln(108.7) = 4.69, one on 50 of them ln(7.46) = 2.01.
 */
export function tagSpecificity(df: number, n: number): number {
  return Math.log(1 + Math.max(1, n) / Math.max(1, df));
}

/**
 * A derived profile re-weighted by specificity: weight × tagSpecificity(df(tag), N) over the
 * candidates (the recallable memories). Why: the tags the top results share most are their
 * DOMAIN tags (garden, running, finance ...), carried by dozens of memories and close to the query
 * anyway, so a far memory sharing only one of them is the same domain, not a lateral link; the
 * tags that connect domains (patience, layering, race-condition) are rare. Used for derived
 * profiles only: explicit tags are what the person asked for and keep weight 1.
 */
export function weightBySpecificity(
  queryTags: readonly WeightedTag[],
  candidates: readonly Pick<LateralCandidate, 'tags'>[],
): WeightedTag[] {
  const wanted = new Set(queryTags.map((q) => q.tag));
  const df = new Map<string, number>();
  for (const c of candidates) {
    for (const t of new Set(c.tags)) if (wanted.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  }
  return weightByCounts(queryTags, df, candidates.length);
}

/** weightBySpecificity from counts already taken: `df` per query tag over `n` candidates. */
export function weightByCounts(queryTags: readonly WeightedTag[], df: ReadonlyMap<string, number>, n: number): WeightedTag[] {
  return queryTags.map((q) => ({ ...q, weight: q.weight * tagSpecificity(df.get(q.tag) ?? 0, n) }));
}

/** One memory as the dual-heap pass sees it. */
export interface LateralCandidate {
  id: MemoryId;
  /** Standard (fused, feedback-adjusted) score. */
  score: number;
  /** False for memories outside the engine's standard candidate pool: lateral-only. Default true. */
  pooled?: boolean;
  /** L2 distance to the query vector. */
  distance: number;
  /** The memory's tags (accepted ∪ suggested, normalised). */
  tags: ReadonlySet<string> | readonly string[];
  importance: number;
  decay: number;
  /** The hybrid found the query's words in it (bm25 > 0): a pooled lexical match is never "far". */
  lexicalMatch?: boolean;
  /** False excludes the memory from the lateral heap (e.g. suppressed). Default true. */
  lateralEligible?: boolean;
  /** Multiplier on the lateral score (feedback). Default 1. */
  lateralBoost?: number;
  why?: MatchExplanation;
}

export type LateralPassOptions = Pick<
  RecallOptions,
  'topK' | 'lateralMode' | 'lateralDistanceThreshold' | 'lateralMaxResults' | 'lateralMinTagOverlap'
>;

export interface LateralHooks {
  /** Called each time a candidate enters lateral classification (tests count it). */
  onLateralCheck?: (id: MemoryId) => void;
}

/** No hybrid explanation: only the cosine, recovered from the L2 distance (cos = 1 - d²/2). */
const noMatch = (d?: number): MatchExplanation => ({
  lexical: 0,
  semantic: 0,
  bm25: 0,
  cosine: d !== undefined && Number.isFinite(d) ? 1 - (d * d) / 2 : 0,
  matchedTerms: [],
});

function standardResult(c: LateralCandidate, withDistance: boolean): RecallResult {
  const r: RecallResult = { id: c.id, score: c.score, mode: 'standard', why: c.why ?? noMatch() };
  if (withDistance) r.distance = c.distance;
  return r;
}

/** lateralMode off: the standard heap only. Reads id, score, pooled and why; never distance or tags. */
function standardOnly(candidates: Iterable<LateralCandidate>, topK: number): RecallResult[] {
  const heap = new TopKHeap<LateralCandidate>(topK);
  for (const c of candidates) if (c.pooled !== false) heap.push(c);
  return heap.sorted().map((c) => standardResult(c, false));
}

/**
 * The dual-heap pass. Lateral on: a candidate with distance <= threshold (or a pooled lexical
 * match) goes to the standard heap (if pooled); one with distance > threshold goes to the lateral
 * heap when its tag overlap >= min
 * (far candidates that fail the overlap are dropped: the lateral-retrieval design sends a memory to
 * the standard heap when L2 <= threshold and to the lateral heap only when L2 > threshold and
 * overlap >= minOverlap, so a far memory without the overlap reaches neither). Lateral off: a
 * separate path with no distance, tag or lateral work at all. Derived query tags (isDerivedProfile)
 * are re-weighted by specificity over all candidates first (a second pass; a one-shot iterable is
 * materialised), then matched by the profile rule; explicit tags go straight to containment.
 */
export function recallWithLateral(
  candidates: Iterable<LateralCandidate>,
  queryTags: readonly WeightedTag[] | readonly string[],
  opts: LateralPassOptions,
  hooks: LateralHooks = {},
  /** True when a derived profile's weights already are weightBySpecificity's (the caller counted). */
  weighed = false,
): RecallResult[] {
  if (!opts.lateralMode || opts.lateralMaxResults <= 0) return standardOnly(candidates, opts.topK);
  // a derived profile is weighed by how specific each tag is in this collection (two passes)
  let pass: Iterable<LateralCandidate> = candidates;
  if (!weighed && isDerivedProfile(queryTags)) {
    const all = Array.isArray(candidates) ? (candidates as LateralCandidate[]) : [...candidates];
    pass = all;
    queryTags = weightBySpecificity(queryTags as readonly WeightedTag[], all);
  }

  type Lat = { id: MemoryId; score: number; c: LateralCandidate; overlap: number };
  const standard = new TopKHeap<LateralCandidate>(opts.topK);
  const lateral = new TopKHeap<Lat>(opts.lateralMaxResults);
  const t = opts.lateralDistanceThreshold;
  const minOverlap = opts.lateralMinTagOverlap;
  const check = hooks.onLateralCheck;
  const anyQueryTags = queryTags.length > 0;
  for (const c of pass) {
    const d = c.distance;
    // Near, or no distance known (NaN: e.g. a memory still waiting for its vector), or a pooled
    // lexical match -> standard only. The lateral-retrieval design classifies by vector distance
    // alone (L2 <= threshold -> standard); in our hybrid a memory that contains
    // the query's words is close in the lexical space, and lateral mode must ADD cross-domain
    // memories, not take away the ones the query literally names.
    if (!(d > t) || (c.lexicalMatch === true && c.pooled !== false)) {
      if (c.pooled !== false) standard.push(c);
      continue;
    }
    check?.(c.id);
    if (!anyQueryTags || c.lateralEligible === false) continue;
    const overlap = tagOverlap(queryTags, c.tags);
    if (overlap < minOverlap || overlap <= 0) continue;
    const s = lateralScore(d, overlap, c.importance, c.decay) * (c.lateralBoost ?? 1);
    if (s > 0) lateral.push({ id: c.id, score: s, c, overlap });
  }
  const out = standard.sorted().map((c) => standardResult(c, true));
  for (const l of lateral.sorted()) {
    out.push({
      id: l.id,
      score: l.score,
      mode: 'lateral',
      why: l.c.why ?? noMatch(l.c.distance),
      lateralScore: l.score,
      distance: l.c.distance,
      tagOverlap: l.overlap,
      ...(l.c.lateralBoost !== undefined && l.c.lateralBoost !== 1 ? { feedbackFactor: l.c.lateralBoost } : {}),
    });
  }
  return out;
}
