// Score fusion of several ranked candidate lists (lexical, dense, ...) into one ranking.
//
// Both strategies return, for every fused item, the contribution of each input list, so the
// UI can say why a hit matched (contributions always sum to the fused score).
//
// Edge cases, decided once here (Orama's fusion divides by a max that can be zero; ours never does):
// - empty input, or only empty lists -> [];
// - items with a non-finite score (NaN, +-Infinity) are dropped from their list;
// - an id repeated within one list keeps its best score (and best rank);
// - min-max on a list whose scores are all equal (including a single-item list): every item
//   normalises to 1 when the common score is > 0 and to 0 otherwise (a list of zero scores
//   carries no evidence, and a one-item list is still that list's best match);
// - an item missing from a list gets 0 from that list;
// - weights must be finite and >= 0 (missing weights default to 1); otherwise INVALID_CONFIG.
// Output order: fused score descending, then id ascending (deterministic); `limit` keeps the
// best `limit` items only (a bounded heap, not a full sort).

import { AppError } from './errors';
import type { MemoryId } from './types';
import { compareRanked, TopK } from './topk';

export interface FusionInput {
  id: MemoryId;
  score: number;
}

export interface FusedItem {
  id: MemoryId;
  score: number;
  /** contributions[i] = what list i added to `score`. */
  contributions: number[];
}

function checkWeights(n: number, weights: readonly number[] | undefined): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const w = weights?.[i] ?? 1;
    if (!Number.isFinite(w) || w < 0) {
      throw new AppError('INVALID_CONFIG', `Fusion weight ${i} must be a finite number >= 0 (got ${w}).`);
    }
    out.push(w);
  }
  return out;
}

/** Best finite score per id, in first-seen order. */
function dedupe(list: readonly FusionInput[]): FusionInput[] {
  const best = new Map<MemoryId, number>();
  for (const { id, score } of list) {
    if (!Number.isFinite(score)) continue;
    const prev = best.get(id);
    if (prev === undefined || score > prev) best.set(id, score);
  }
  return [...best].map(([id, score]) => ({ id, score }));
}

/**
 * Min-max normalise scores to [0, 1]: (s - min) / (max - min). All-equal lists follow the
 * rule in the file header (1 when the common score > 0, else 0), so there is no 0 / 0.
 */
export function minMaxNormalize(scores: readonly number[]): number[] {
  if (scores.length === 0) return [];
  let min = Infinity;
  let max = -Infinity;
  for (const s of scores) {
    if (s < min) min = s;
    if (s > max) max = s;
  }
  const span = max - min;
  if (!(span > 0)) return scores.map(() => (max > 0 ? 1 : 0));
  return scores.map((s) => (s - min) / span);
}

function accumulate(
  lists: readonly FusionInput[][],
  perList: (list: FusionInput[], listIndex: number) => number[],
  limit: number | undefined,
): FusedItem[] {
  const n = lists.length;
  // Flat layout: item ix's contribution from list li is contrib[ix * n + li].
  const index = new Map<MemoryId, number>();
  const ids: MemoryId[] = [];
  const contrib = new Float64Array(lists.reduce((a, l) => a + l.length, 0) * n);
  for (let li = 0; li < n; li++) {
    const list = lists[li];
    const values = perList(list, li);
    for (let j = 0; j < list.length; j++) {
      const id = list[j].id;
      let ix = index.get(id);
      if (ix === undefined) {
        ix = ids.length;
        index.set(id, ix);
        ids.push(id);
      }
      contrib[ix * n + li] += values[j];
    }
  }
  const heap = new TopK<number>(limit === undefined ? ids.length : limit);
  for (let ix = 0; ix < ids.length; ix++) {
    let score = 0;
    for (let li = 0; li < n; li++) score += contrib[ix * n + li];
    heap.push(ids[ix], score, ix);
  }
  return heap.sorted().map(({ id, score, item: ix }) => ({
    id,
    score,
    contributions: Array.from(contrib.subarray(ix * n, ix * n + n)),
  }));
}

/**
 * Weighted min-max fusion: score(d) = sum_i w_i * minmax_i(s_i(d)). With weights summing to 1
 * the fused score lies in [0, 1].
 */
export function fuseWeighted(
  lists: readonly (readonly FusionInput[])[],
  weights?: readonly number[],
  opts: { limit?: number; normalise?: readonly ListNormalisation[] } = {},
): FusedItem[] {
  const w = checkWeights(lists.length, weights);
  const clean = lists.map(dedupe);
  return accumulate(
    clean,
    (list, li) => {
      const scores = list.map((x) => x.score);
      return (opts.normalise?.[li] === 'none' ? scores : minMaxNormalize(scores)).map((v) => v * w[li]);
    },
    opts.limit,
  );
}

/**
 * How weighted fusion puts a list on [0, 1]: 'minmax' (the default; the list's best is 1 whatever
 * its absolute strength) or 'none' (the scores already are absolute evidence in [0, 1], e.g.
 * `idfCoverage`, so a weak best match stays weak).
 */
export type ListNormalisation = 'minmax' | 'none';

/**
 * Lexical evidence of one document as an absolute share: (idf mass of the query terms it holds /
 * idf mass of all the query's terms)^power, in [0, 1]. The query's mass counts its terms no
 * document holds (at the highest idf): a query worded unlike every note has little lexical
 * evidence to give. Min-max would instead give the best lexical match 1 even when that match is
 * one everyday word of five; here it gets its share (and power > 1 shrinks partial matches
 * further while a full match keeps 1). 0 when the query has no term (nothing to cover).
 */
export function idfCoverage(matchedIdf: number, queryIdf: number, power = 1): number {
  if (!(queryIdf > 0) || !(matchedIdf > 0)) return 0;
  return Math.min(1, matchedIdf / queryIdf) ** power;
}

export interface RrfOptions {
  /** The rank constant k of Cormack et al. (2009); default 60. Must be finite and >= 0. */
  k?: number;
  weights?: readonly number[];
  /** Return only the best `limit` items (default: all). */
  limit?: number;
}

export const DEFAULT_RRF_K = 60;

/**
 * Reciprocal rank fusion: score(d) = sum_i w_i / (k + rank_i(d)), rank 1-based within list i
 * after sorting it by score descending (ties: id ascending). Scores only decide the order, so
 * RRF is immune to the scale of each list.
 */
export function fuseRRF(lists: readonly (readonly FusionInput[])[], opts: RrfOptions = {}): FusedItem[] {
  const k = opts.k ?? DEFAULT_RRF_K;
  if (!Number.isFinite(k) || k < 0) throw new AppError('INVALID_CONFIG', `RRF k must be a finite number >= 0 (got ${k}).`);
  const w = checkWeights(lists.length, opts.weights);
  const clean = lists.map((l) => dedupe(l).sort(compareRanked));
  // k = 0 with rank >= 1 never divides by zero.
  return accumulate(clean, (list, li) => list.map((_, j) => w[li] / (k + j + 1)), opts.limit);
}
