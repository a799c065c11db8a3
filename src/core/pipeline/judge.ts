// Stage 2d, a second opinion ("more careful ranking", opt-in; docs/research/quality.md, "Fourth
// pass"): a stronger sentence encoder than the one that built the index judges the top `depth` of
// the finished ranking. Each of them is compared with the query in the judge's own space (cosine
// of the two unit vectors, both computed at query time by the judge), and
//
//   score'(m) = (score(m) + weight x max(0, cos_judge(q, m))) / (1 + weight)   for the top `depth`
//   score'(m) = score(m) / (1 + weight)                                      below them
//
// then the top `depth` is re-sorted: the same form as late interaction, so the scores stay on the
// 0..1 scale the strong / good / weak words read, and nothing below the depth can rise above it
// (the judge's cosine is clamped at 0). A hit the judge has no vector for keeps its score (scaled).
// Weight 0, depth 0 or no judge vectors = a no-op (the same array).

import { compareRanked } from '../recall';
import { cosine } from '../spaces/similarity';
import type { MemoryId, ScoredHit } from '../types';

export interface JudgeOptions {
  /** How many of the best hits the judge reads (its cost: one judge pass per text). */
  depth: number;
  /** The judge's cosine's weight against the ranking's score. */
  weight: number;
}

/** The judge's defaults, chosen on one half of each dev file and read on the other (quality.md, "Fourth pass"). */
export const DEFAULT_JUDGE: JudgeOptions = { depth: 30, weight: 0.25 };

/** Cosine of two vectors (0 when either is all zeros or the lengths differ): the spaces' own. */
export { cosine };

/** Re-scores the top `opts.depth` of `hits` (best first) with the judge's cosine; see the header. */
export function judgeRerank<T extends ScoredHit>(hits: T[], query: ArrayLike<number> | undefined, vectorOf: (id: MemoryId) => ArrayLike<number> | undefined, opts: JudgeOptions): T[] {
  if (!(opts.weight > 0) || !(opts.depth > 0) || !query || query.length === 0 || hits.length === 0) return hits;
  const scale = 1 / (1 + opts.weight);
  const head = hits.slice(0, opts.depth).map((h) => {
    const v = vectorOf(h.id);
    const c = v ? Math.max(0, cosine(query, v)) : 0;
    return { ...h, score: (h.score + opts.weight * c) * scale };
  });
  return [...head.sort(compareRanked), ...hits.slice(opts.depth).map((h) => ({ ...h, score: h.score * scale }))];
}
