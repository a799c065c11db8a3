// The escalation trigger of the deep-search design (seed 003, A): after the primary ranking, a
// confidence in [0, 1] from the primary scores; below the threshold (default 0.3) the query escalates.
//
//   top    the best score, clipped to [0, 1] (the pipeline's scores are hybrid-scale, ~0..1)
//   gap    (s1 - s2) / s1, the rank-1 to rank-2 gap relative to the best (1 with one result)
//   count  min(n, expected) / expected (expected = the topK asked; default 10)
//   spread (s1 - sK) / s1, how far the last of the top K falls below the best (0 with one result):
//          a flat top K, where nothing stands out, is the commonest sign of a miss; the calibrated
//          model reads it (it lifts the fit's AUC from 0.62 to 0.72 on the dev files), the seed's
//          fixed blend does not
//
// Two ways to combine them:
// - a calibrated model (`ConfidenceModel`, shipped per encoder in src/core/pipeline/calibration.ts):
//   confidence = sigmoid(bias + wTop x top + wGap x gap + wCount x count + wSpread x spread), an
//   estimated probability that the primary top K holds everything the question needs (every
//   evidence memory of a dev question), fitted by logistic regression on the
//   dev labels of both dev files (src/core/pipeline/README.md, "Deep search trigger"). Then the
//   threshold means something: 0.3 = escalate when the estimated chance that the top K holds
//   everything asked for is below 30%;
// - without one (an encoder never calibrated, tests): the seed's fixed blend
//   0.5 x top + 0.3 x gap + 0.2 x count (the top score says most, the gap whether one result
//   stands out, the count only whether there was anything to rank). Its scale is not a
//   probability: on the dev files every query landed at 0.48-0.81, so threshold 0.3 never fired.
// No result at all = 0 either way.

export const CONFIDENCE_WEIGHTS = { top: 0.5, gap: 0.3, count: 0.2 } as const;

/** A logistic model of P(the top K holds everything asked for) over the four signals (see above). */
export interface ConfidenceModel {
  bias: number;
  top: number;
  gap: number;
  count: number;
  spread: number;
}

export interface Confidence {
  value: number;
  top: number;
  gap: number;
  count: number;
  spread: number;
}

const clip01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/** 1 / (1 + e^-z), without overflow for large |z|. */
export function sigmoid(z: number): number {
  if (!Number.isFinite(z)) return z > 0 ? 1 : 0;
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

/** The confidence of a primary ranking (`scores` best first), by `model` when given. */
export function confidenceOf(scores: readonly number[], expected = 10, model?: ConfidenceModel): Confidence {
  if (scores.length === 0) return { value: 0, top: 0, gap: 0, count: 0, spread: 0 };
  const s1 = scores[0];
  const top = clip01(s1);
  const gap = scores.length < 2 ? 1 : s1 > 0 ? clip01((s1 - scores[1]) / s1) : 0;
  const count = clip01(Math.min(scores.length, Math.max(1, expected)) / Math.max(1, expected));
  const last = scores[Math.min(scores.length, Math.max(1, expected)) - 1];
  const spread = s1 > 0 ? clip01((s1 - last) / s1) : 0;
  if (model) return { value: sigmoid(model.bias + model.top * top + model.gap * gap + model.count * count + model.spread * spread), top, gap, count, spread };
  const w = CONFIDENCE_WEIGHTS;
  return { value: w.top * top + w.gap * gap + w.count * count, top, gap, count, spread };
}

/** Escalate only when the confidence is strictly below the threshold. */
export function shouldEscalate(confidence: number, threshold: number): boolean {
  return confidence < threshold;
}
