// The escalation trigger of the deep-search design (seed 003, A): after the primary ranking, a
// confidence in [0, 1] from three signals; below the threshold (default 0.3) the query escalates.
//
//   top    the best score, clipped to [0, 1] (the pipeline's scores are hybrid-scale, ~0..1)
//   gap    (s1 - s2) / s1, the rank-1 to rank-2 gap relative to the best (1 with one result)
//   count  min(n, expected) / expected (expected = the topK asked; default 10)
//   confidence = 0.5 x top + 0.3 x gap + 0.2 x count; no result at all = 0.
// Weights: the top score says most (a weak best match is the clearest sign of a miss), the gap
// says whether one result stands out, the count only whether there was anything to rank.

export const CONFIDENCE_WEIGHTS = { top: 0.5, gap: 0.3, count: 0.2 } as const;

export interface Confidence {
  value: number;
  top: number;
  gap: number;
  count: number;
}

const clip01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/** The confidence of a primary ranking (`scores` best first). */
export function confidenceOf(scores: readonly number[], expected = 10): Confidence {
  if (scores.length === 0) return { value: 0, top: 0, gap: 0, count: 0 };
  const s1 = scores[0];
  const top = clip01(s1);
  const gap = scores.length < 2 ? 1 : s1 > 0 ? clip01((s1 - scores[1]) / s1) : 0;
  const count = clip01(Math.min(scores.length, Math.max(1, expected)) / Math.max(1, expected));
  const w = CONFIDENCE_WEIGHTS;
  return { value: w.top * top + w.gap * gap + w.count * count, top, gap, count };
}

/** Escalate only when the confidence is strictly below the threshold. */
export function shouldEscalate(confidence: number, threshold: number): boolean {
  return confidence < threshold;
}
