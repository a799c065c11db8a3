// The shipped ranking (README "Choices, and why" has the figures behind each value) and its checks.

import { AppError, MESSAGES } from '../errors';
import { NON_TEMPORAL_SPACES, SPACES, type SimilarityConfig } from '../spaces';
import type { RecallOptionsInput } from '../recall';
import type { SpaceId } from '../types';
import type { RankingConfig } from './types';

export const DEFAULT_RANKING: RankingConfig = {
  spaces: NON_TEMPORAL_SPACES.filter((s) => s !== 'E1'),
  spaceWeights: { E5: 0.5, E6: 0, E7: 1, E8: 0, E9: 0, E10: 0.5, E11: 0.25, E12: 1, E13: 0 },
  depth: 100,
  spaceCandidates: 20,
  alpha: 0.2,
  beta: 0,
  zCap: 3,
  evidencePower: 0,
  sessionContext: 0,
  lateInteraction: 0,
  lateDepth: 30,
  lateIdfDepth: 100,
  speakerLabel: 0,
  assocFloor: 0,
  assocMaxResults: 100,
};

/**
 * Recall options the pipeline ships with (callers override per call). Associative hops are an
 * optional feature, off by default (the associative-retrieval design; off leaves the output unchanged).
 */
export const DEFAULT_PIPELINE_OPTIONS: RecallOptionsInput = { assocHops: 0 };

export function resolveRanking(patch: Partial<RankingConfig> | undefined): RankingConfig {
  const r = { ...DEFAULT_RANKING, ...patch };
  const bad = (name: string, v: unknown, want: string) => new AppError('INVALID_CONFIG', MESSAGES.outOfRange(`Ranking "${name}"`, want, String(v)));
  if (!Array.isArray(r.spaces) || r.spaces.some((s) => !(s in SPACES))) throw bad('spaces', r.spaces, 'a list of space ids E1..E13');
  if (r.spaceWeights === null || typeof r.spaceWeights !== 'object') throw bad('spaceWeights', r.spaceWeights, 'an object of space id -> weight');
  for (const [k, w] of Object.entries(r.spaceWeights))
    if (!(k in SPACES) || typeof w !== 'number' || !Number.isFinite(w) || w < 0) throw bad(`spaceWeights.${k}`, w, 'a finite number >= 0 for a space id E1..E13');
  for (const k of ['depth', 'spaceCandidates', 'assocMaxResults', 'lateDepth', 'lateIdfDepth'] as const)
    if (!Number.isInteger(r[k]) || r[k] < 0) throw bad(k, r[k], 'a whole number >= 0');
  for (const k of ['alpha', 'beta', 'zCap', 'assocFloor', 'evidencePower', 'sessionContext', 'lateInteraction', 'speakerLabel'] as const)
    if (!Number.isFinite(r[k]) || r[k] < 0) throw bad(k, r[k], 'a finite number >= 0');
  return r;
}

/** The ranking's own spaces that can score: never E1 (the hybrid's) nor a temporal one (when, not what). */
export function scoringSpaces(r: RankingConfig): SpaceId[] {
  return r.spaces.filter((s) => s !== 'E1' && !SPACES[s].temporal);
}

/**
 * A space's weight in the blend: the ranking's override, else its category weight (semantic 1.0,
 * relational / structural 0.5, temporal 0); 0 when excluded.
 */
export function blendWeight(s: SpaceId, r: RankingConfig, config: SimilarityConfig): number {
  if (config.excluded[s]) return 0;
  return r.spaceWeights[s] ?? config.weights[s];
}
