// Feedback to the scorer (seed 003, F): a deep-search hit the person opens or reinforces makes a
// training pair, and the pair nudges the primary ranking's weights within bounds, so the primary
// ranking learns to place such memories itself and the trigger fires less often.
//
// A pair: positive = the memory deep search found (the primary ranking missed it), negative = the
// lowest primary result of the same recall (the one it should have outranked). Features, each in
// [0, 1] as the pipeline reports them: `lexical` and `vector` (the hybrid's two lists, why.lexical /
// why.semantic) and the similarity in each ranking space (E5..E13). Rule (a pairwise perceptron
// step, rate ETA 0.05):
//   fusion   lexicalWeight += ETA x ((pos.lexical - neg.lexical) - (pos.vector - neg.vector)) / 2,
//            clipped to [0.2, 0.8]: the list that separated the missed memory better gains weight
//   spaces   w_s += ETA x (pos.s - neg.s), clipped to [max(0, base_s - 0.25), base_s + 0.25]
//   ways     the expansion feature that found it is positive too: found through a shared name
//            (entity) adds ETA to E11, the entity space (bounds as above). The temporal and community
//            ways have no weight of their own in the primary ranking (time spaces never score); they
//            are counted (`ways`), the seed's deep_search_eligible signal.
// A pair is made once per memory and recall (the caller keeps the ids it trained on).

import type { SpaceId } from '../types';
import type { ExpansionStrategy } from './expand';

export const LEARN = { eta: 0.05, lexicalMin: 0.2, lexicalMax: 0.8, spaceSpan: 0.25 } as const;

/** The ranking spaces the pairs adjust (the temporal ones never score). */
export const LEARNED_SPACES: readonly SpaceId[] = ['E5', 'E6', 'E7', 'E8', 'E9', 'E10', 'E11', 'E12', 'E13'];

export interface PairSide {
  lexical: number;
  vector: number;
  sims: Partial<Record<SpaceId, number>>;
}

export interface TrainingPair {
  positive: PairSide;
  negative: PairSide;
  /** How deep search found the positive (its pool ways). */
  ways: readonly ExpansionStrategy[];
}

export interface ScorerWeights {
  lexicalWeight: number;
  spaceWeights: Partial<Record<SpaceId, number>>;
  pairs: number;
  ways: Partial<Record<ExpansionStrategy, number>>;
}

const clip = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const num = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x : 0);

/** Start from the shipped weights (the hybrid's lexical weight and the ranking's space weights). */
export function initialWeights(lexicalWeight: number, base: Partial<Record<SpaceId, number>>): ScorerWeights {
  const spaceWeights: Partial<Record<SpaceId, number>> = {};
  for (const s of LEARNED_SPACES) spaceWeights[s] = num(base[s]);
  return { lexicalWeight, spaceWeights, pairs: 0, ways: {} };
}

/** One pair applied to the weights (a new object); `base` bounds each space weight. */
export function learnFromPair(w: ScorerWeights, pair: TrainingPair, base: Partial<Record<SpaceId, number>>): ScorerWeights {
  const { eta, lexicalMin, lexicalMax, spaceSpan } = LEARN;
  const p = pair.positive;
  const n = pair.negative;
  const dLex = num(p.lexical) - num(n.lexical);
  const dVec = num(p.vector) - num(n.vector);
  const lexicalWeight = clip(w.lexicalWeight + (eta * (dLex - dVec)) / 2, lexicalMin, lexicalMax);
  const spaceWeights: Partial<Record<SpaceId, number>> = { ...w.spaceWeights };
  const bump = (s: SpaceId, d: number) => {
    const b = num(base[s]);
    spaceWeights[s] = clip(num(spaceWeights[s] ?? b) + d, Math.max(0, b - spaceSpan), b + spaceSpan);
  };
  for (const s of LEARNED_SPACES) bump(s, eta * (num(p.sims[s]) - num(n.sims[s])));
  if (pair.ways.includes('entity')) bump('E11', eta);
  const ways = { ...w.ways };
  for (const way of new Set(pair.ways)) ways[way] = (ways[way] ?? 0) + 1;
  return { lexicalWeight, spaceWeights, pairs: w.pairs + 1, ways };
}

/** A stored weights object as used, or null when absent / unreadable (then the shipped weights hold). */
export function scorerWeightsFrom(raw: unknown, base: Partial<Record<SpaceId, number>>): ScorerWeights | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.lexicalWeight !== 'number' || !Number.isFinite(r.lexicalWeight) || typeof r.pairs !== 'number') return null;
  const sw = (r.spaceWeights ?? {}) as Record<string, unknown>;
  const spaceWeights: Partial<Record<SpaceId, number>> = {};
  for (const s of LEARNED_SPACES) {
    const b = num(base[s]);
    const v = sw[s];
    spaceWeights[s] = typeof v === 'number' && Number.isFinite(v) ? clip(v, Math.max(0, b - LEARN.spaceSpan), b + LEARN.spaceSpan) : b;
  }
  const ways = (r.ways && typeof r.ways === 'object' ? r.ways : {}) as ScorerWeights['ways'];
  return { lexicalWeight: clip(r.lexicalWeight, LEARN.lexicalMin, LEARN.lexicalMax), spaceWeights, pairs: r.pairs, ways };
}
