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
// Output order: fused score descending, then id ascending (deterministic).

import { AppError } from './errors';
import type { MemoryId } from './types';
import { compareRanked } from './topk';

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
): FusedItem[] {
  const n = lists.length;
  const fused = new Map<MemoryId, FusedItem>();
  for (let li = 0; li < n; li++) {
    const list = lists[li];
    const values = perList(list, li);
    for (let j = 0; j < list.length; j++) {
      const { id } = list[j];
      let f = fused.get(id);
      if (!f) {
        f = { id, score: 0, contributions: new Array<number>(n).fill(0) };
        fused.set(id, f);
      }
      f.contributions[li] += values[j];
    }
  }
  const out = [...fused.values()];
  for (const f of out) f.score = f.contributions.reduce((a, b) => a + b, 0);
  return out.sort(compareRanked);
}

/**
 * Weighted min-max fusion: score(d) = sum_i w_i * minmax_i(s_i(d)). With weights summing to 1
 * the fused score lies in [0, 1].
 */
export function fuseWeighted(lists: readonly (readonly FusionInput[])[], weights?: readonly number[]): FusedItem[] {
  const w = checkWeights(lists.length, weights);
  const clean = lists.map(dedupe);
  return accumulate(clean, (list, li) => minMaxNormalize(list.map((x) => x.score)).map((v) => v * w[li]));
}

export interface RrfOptions {
  /** The rank constant k of Cormack et al. (2009); default 60. Must be finite and >= 0. */
  k?: number;
  weights?: readonly number[];
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
  return accumulate(clean, (list, li) => list.map((_, j) => w[li] / (k + j + 1)));
}
