// SimilarityConfig: per-space high / low thresholds, category weights, the recent window (2 h) and
// the excluded spaces (temporal E2-E4 by default), loadable from a config file. Defaults come from
// the registry, i.e. from the thirteen-spaces design's threshold and weight tables.

import { AppError } from '../errors';
import type { SpaceId } from '../types';
import { SPACES, SPACE_IDS, isSpaceId, spaceLabel } from './registry';

export interface SimilarityConfig {
  highThresholds: Record<SpaceId, number>;
  lowThresholds: Record<SpaceId, number>;
  weights: Record<SpaceId, number>;
  /** Divergence looks back this many hours (or the current session, whichever is smaller). */
  recentWindowHours: number;
  /** true = never used for relevance or divergence (E2-E4 by default). */
  excluded: Record<SpaceId, boolean>;
}

function perSpace<T>(f: (id: SpaceId) => T): Record<SpaceId, T> {
  const out = {} as Record<SpaceId, T>;
  for (const id of SPACE_IDS) out[id] = f(id);
  return out;
}

export const DEFAULT_SIMILARITY_CONFIG: Readonly<SimilarityConfig> = Object.freeze({
  highThresholds: perSpace((id) => SPACES[id].highThreshold),
  lowThresholds: perSpace((id) => SPACES[id].lowThreshold),
  weights: perSpace((id) => SPACES[id].weight),
  recentWindowHours: 2,
  excluded: perSpace((id) => SPACES[id].temporal),
});

export function isExcluded(id: SpaceId, config: SimilarityConfig = DEFAULT_SIMILARITY_CONFIG): boolean {
  return config.excluded[id] === true;
}

/** Spaces that take part in relevance and divergence: 10 with the defaults. */
export function activeEmbedders(config: SimilarityConfig = DEFAULT_SIMILARITY_CONFIG): SpaceId[] {
  return SPACE_IDS.filter((id) => !isExcluded(id, config));
}

export function activeEmbedderCount(config: SimilarityConfig = DEFAULT_SIMILARITY_CONFIG): number {
  return activeEmbedders(config).length;
}

function thresholdMessage(id: SpaceId, value: unknown): string {
  return `Invalid threshold in config: ${spaceLabel(id)} threshold ${String(value)} must be in [0.0, 1.0]`;
}

const validThreshold = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1;
const validWeight = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/**
 * Every problem with a config, as user-facing messages (for thresholds the design's wording: "Invalid
 * threshold in config: <space> threshold <value> must be in [0.0, 1.0]").
 * Empty list = valid.
 */
export function validateSimilarityConfig(cfg: SimilarityConfig): string[] {
  const problems: string[] = [];
  for (const id of SPACE_IDS) {
    const hi = cfg.highThresholds?.[id];
    const lo = cfg.lowThresholds?.[id];
    if (!validThreshold(hi)) problems.push(thresholdMessage(id, hi));
    if (!validThreshold(lo)) problems.push(thresholdMessage(id, lo));
    const w = cfg.weights?.[id];
    if (!validWeight(w)) problems.push(`Invalid weight in config: ${spaceLabel(id)} weight ${String(w)} must be a finite number >= 0`);
    const ex = cfg.excluded?.[id];
    if (typeof ex !== 'boolean') problems.push(`Invalid exclusion flag in config: ${spaceLabel(id)} must be true or false`);
  }
  const h = cfg.recentWindowHours;
  if (typeof h !== 'number' || !Number.isFinite(h) || h <= 0) {
    problems.push(`Invalid recent window in config: ${String(h)} hours must be a finite number > 0`);
  }
  return problems;
}

/** Throws AppError(INVALID_CONFIG) naming the first problem (all of them in detail). */
export function assertValidSimilarityConfig(cfg: SimilarityConfig): void {
  const problems = validateSimilarityConfig(cfg);
  if (problems.length > 0) throw new AppError('INVALID_CONFIG', problems[0], problems.join('\n'));
}

/** A loaded config file: any subset of the fields, per-space maps keyed by 'E1'..'E13'. */
export interface SimilarityConfigInput {
  highThresholds?: Partial<Record<string, unknown>>;
  lowThresholds?: Partial<Record<string, unknown>>;
  weights?: Partial<Record<string, unknown>>;
  recentWindowHours?: unknown;
  excluded?: Partial<Record<string, unknown>>;
}

/**
 * load_from_file minus the file: merge a parsed config over the defaults. Invalid values fall
 * back to the default for that entry and are reported through `warn` (the design's recovery for an
 * invalid threshold: "Use default thresholds. Log warning"), so a bad file never disables scoring.
 */
export function loadSimilarityConfig(
  input: unknown,
  warn: (message: string) => void = (m) => console.warn(m),
): SimilarityConfig {
  const d = DEFAULT_SIMILARITY_CONFIG;
  const cfg: SimilarityConfig = {
    highThresholds: { ...d.highThresholds },
    lowThresholds: { ...d.lowThresholds },
    weights: { ...d.weights },
    recentWindowHours: d.recentWindowHours,
    excluded: { ...d.excluded },
  };
  if (input === null || typeof input !== 'object') {
    if (input !== undefined) warn('Invalid similarity config: expected an object; using defaults');
    return cfg;
  }
  const raw = input as SimilarityConfigInput;
  const merge = (
    src: Partial<Record<string, unknown>> | undefined,
    dst: Record<SpaceId, number>,
    ok: (v: unknown) => v is number,
    msg: (id: SpaceId, v: unknown) => string,
  ) => {
    if (!src || typeof src !== 'object') return;
    for (const [key, v] of Object.entries(src)) {
      if (!isSpaceId(key)) {
        warn(`Unknown embedder in similarity config: ${key} (ignored)`);
        continue;
      }
      if (ok(v)) dst[key] = v;
      else warn(`${msg(key, v)}; using default ${dst[key]}`);
    }
  };
  merge(raw.highThresholds, cfg.highThresholds, validThreshold, thresholdMessage);
  merge(raw.lowThresholds, cfg.lowThresholds, validThreshold, thresholdMessage);
  merge(raw.weights, cfg.weights, validWeight, (id, v) => `Invalid weight in config: ${spaceLabel(id)} weight ${String(v)} must be a finite number >= 0`);
  if (raw.excluded && typeof raw.excluded === 'object') {
    for (const [key, v] of Object.entries(raw.excluded)) {
      if (isSpaceId(key) && typeof v === 'boolean') cfg.excluded[key] = v;
      else warn(`Invalid exclusion flag in config: ${key} = ${String(v)} (ignored)`);
    }
  }
  if (raw.recentWindowHours !== undefined) {
    const h = raw.recentWindowHours;
    if (typeof h === 'number' && Number.isFinite(h) && h > 0) cfg.recentWindowHours = h;
    else warn(`Invalid recent window in config: ${String(h)} hours; using default ${d.recentWindowHours}`);
  }
  return cfg;
}
