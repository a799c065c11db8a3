// Stage 3, the standard pool: the blended hits the profile and the person's feedback keep, in
// the order they rank.

import { compareRanked, type FeedbackState, type RecallDoc, type RecallOptions } from '../recall';
import { isRecallable } from '../status';
import type { MemoryId, ScoredHit } from '../types';

export type PooledHit = ScoredHit & { feedbackFactor?: number };

/**
 * In order: the status gate; DEBUGGING's lexical gate (requireLexicalMatch: when any hit matched
 * a word of the query, only those stay); CRITICAL's importance weighting (score x (1 - w + w x
 * importance)); the feedback factor (reinforced up to x1.5, suppressed x0.2); the score floors
 * (max(minScore, minRelativeScore x best)). Best first.
 */
export function standardPool(
  hits: readonly ScoredHit[],
  docOf: (id: MemoryId) => RecallDoc | undefined,
  o: RecallOptions,
  feedback?: FeedbackState | null,
): PooledHit[] {
  let pool = hits.filter((h) => Number.isFinite(h.score) && isRecallable(docOf(h.id), o));
  if (o.requireLexicalMatch && pool.some((h) => h.why.bm25 > 0)) pool = pool.filter((h) => h.why.bm25 > 0);
  const w = o.importanceWeight;
  const out = pool.map((h): PooledHit => {
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
