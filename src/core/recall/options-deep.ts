// The query-side options of the search-options design (seed 001): one-hop entity expansion,
// the fusion strategy of the lexical / vector candidate lists, their depth, multi-query and HyDE.
// Each one's default leaves recall exactly as it is without it (tested byte for byte).

import { DEEP_SEARCH_DEFAULTS, resolveDeepSearch, type DeepSearchOptions, type DeepSearchOptionsInput } from '../deep/options';
import { clampIterations } from '../deep/iterative';
import { AppError } from '../errors';

/** Weighted (min-max) fusion with explicit list weights, or reciprocal-rank fusion. */
export type FusionOption =
  | { readonly strategy: 'weighted'; readonly weights: { readonly lexical: number; readonly vector: number } }
  | { readonly strategy: 'rrf'; readonly k?: number };

export interface DeepRecallOptions {
  /** 0 = off; 1 = memories sharing a canonical entity with the first pass's results are fused in. */
  readonly expandHops: 0 | 1;
  /** null = the hybrid's shipped fusion (with the lexicalWeight option). */
  readonly fusion: FusionOption | null;
  /** Per-list candidate depth of the lexical and vector lists (null = the shipped 500). */
  readonly candidateTopK: number | null;
  /** Total query strings, the original included (1 = off; up to N - 1 variants). */
  readonly multiQuery: number;
  /** A model-written hypothetical answer, embedded, its neighbours fused in (no model = no-op). */
  readonly hyde: boolean;
  /** Deep search escalation (seed 003; src/core/deep): off by default. */
  readonly deepSearch: DeepSearchOptions;
  /**
   * Iterative search (seed 001 searchIterative, src/core/deep/iterative.ts): null = off (one pass);
   * maxIterations clamped to [1, 5] (default 3); forceHard skips the difficulty gate.
   */
  readonly iterative: IterativeOption | null;
}

export interface IterativeOption {
  readonly maxIterations: number;
  readonly forceHard: boolean;
}

export type DeepRecallOptionsInput = { -readonly [K in Exclude<keyof DeepRecallOptions, 'deepSearch' | 'iterative'>]?: DeepRecallOptions[K] } & {
  deepSearch?: DeepSearchOptionsInput | null;
  /** true = the defaults (3 passes, the gate decides). */
  iterative?: boolean | { maxIterations?: number; forceHard?: boolean } | null;
};

export const DEEP_DEFAULTS: DeepRecallOptions = { expandHops: 0, fusion: null, candidateTopK: null, multiQuery: 1, hyde: false, deepSearch: DEEP_SEARCH_DEFAULTS, iterative: null };
export const DEEP_OPTION_NAMES = Object.keys(DEEP_DEFAULTS) as (keyof DeepRecallOptions)[];
export const MAX_MULTI_QUERY = 8;
export const MAX_CANDIDATE_TOP_K = 10_000;
const DEFAULT_RRF_K = 60;

const show = (v: unknown): string => {
  try {
    return typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  } catch {
    return typeof v;
  }
};

function invalid(name: string, value: unknown, allowed: string): AppError {
  return new AppError(
    'INVALID_OPTION',
    `Recall option "${name}" must be ${allowed}; got ${show(value)}.`,
    JSON.stringify({ option: name, value: show(value), allowed }),
  );
}

const FUSION_SHAPE = `{ strategy: "rrf", k?: a number > 0 } or { strategy: "weighted", weights: { lexical, vector } } with weights >= 0, not both 0`;

function checkFusion(v: unknown): FusionOption | null {
  if (v === null) return null;
  if (typeof v !== 'object' || Array.isArray(v)) throw invalid('fusion', v, FUSION_SHAPE);
  const o = v as Record<string, unknown>;
  if (o.strategy === 'rrf') {
    const extra = Object.keys(o).filter((k) => k !== 'strategy' && k !== 'k');
    if (extra.length) throw invalid('fusion', v, `${FUSION_SHAPE} (unknown field "${extra[0]}")`);
    if (o.k === undefined) return { strategy: 'rrf' };
    if (typeof o.k !== 'number' || !Number.isFinite(o.k) || o.k <= 0 || o.k > 10_000) throw invalid('fusion.k', o.k, 'a number greater than 0 and at most 10000');
    return { strategy: 'rrf', k: o.k };
  }
  if (o.strategy === 'weighted') {
    const w = o.weights as Record<string, unknown> | undefined;
    if (!w || typeof w !== 'object' || Array.isArray(w)) throw invalid('fusion.weights', w, 'an object { lexical, vector } of numbers >= 0');
    const extra = Object.keys(w).filter((k) => k !== 'lexical' && k !== 'vector');
    if (extra.length) throw invalid('fusion.weights', w, `an object { lexical, vector } (unknown field "${extra[0]}")`);
    for (const k of ['lexical', 'vector'] as const) {
      const x = w[k];
      if (typeof x !== 'number' || !Number.isFinite(x) || x < 0 || x > 1000) throw invalid(`fusion.weights.${k}`, x, 'a finite number from 0 to 1000');
    }
    const lexical = w.lexical as number;
    const vector = w.vector as number;
    if (lexical + vector === 0) throw invalid('fusion.weights', w, 'weights that are not both 0 (nothing would be ranked)');
    return { strategy: 'weighted', weights: { lexical, vector } };
  }
  throw invalid('fusion.strategy', o.strategy, '"weighted" or "rrf"');
}

const ITERATIVE_SHAPE = 'true, false, null or { maxIterations?: a number (clamped to 1..5), forceHard?: true or false }';

function checkIterative(v: unknown): IterativeOption | null {
  if (v === null || v === false) return null;
  if (v === true) return { maxIterations: clampIterations(undefined), forceHard: false };
  if (typeof v !== 'object' || Array.isArray(v)) throw invalid('iterative', v, ITERATIVE_SHAPE);
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => k !== 'maxIterations' && k !== 'forceHard');
  if (extra.length) throw invalid('iterative', v, `${ITERATIVE_SHAPE} (unknown field "${extra[0]}")`);
  if (o.maxIterations !== undefined && (typeof o.maxIterations !== 'number' || !Number.isFinite(o.maxIterations)))
    throw invalid('iterative.maxIterations', o.maxIterations, 'a number (clamped to 1..5)');
  if (o.forceHard !== undefined && typeof o.forceHard !== 'boolean') throw invalid('iterative.forceHard', o.forceHard, 'true or false');
  return { maxIterations: clampIterations(o.maxIterations as number | undefined), forceHard: o.forceHard === true };
}

/** Validate one deep option (throws AppError INVALID_OPTION with a message naming the rule). */
export function checkDeepOption(name: keyof DeepRecallOptions, v: unknown): unknown {
  switch (name) {
    case 'expandHops':
      if (v !== 0 && v !== 1) throw invalid(name, v, '0 or 1 (one hop over the entity graph; more hops are not supported)');
      return v;
    case 'fusion':
      return checkFusion(v);
    case 'candidateTopK':
      if (v === null) return null;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_CANDIDATE_TOP_K)
        throw invalid(name, v, `an integer from 1 to ${MAX_CANDIDATE_TOP_K}, or null for the default`);
      return v;
    case 'multiQuery':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_MULTI_QUERY)
        throw invalid(name, v, `an integer from 1 to ${MAX_MULTI_QUERY} (the query strings, the original included; 1 = off)`);
      return v;
    case 'hyde':
      if (typeof v !== 'boolean') throw invalid(name, v, 'true or false');
      return v;
    case 'deepSearch':
      return resolveDeepSearch(v);
    case 'iterative':
      return checkIterative(v);
  }
}

export const isDeepOptionName = (k: string): k is keyof DeepRecallOptions => (DEEP_OPTION_NAMES as string[]).includes(k);

/** The given deep options validated, every other one at its default. */
export function resolveDeepOptions(given: Partial<Record<keyof DeepRecallOptions, unknown>>): DeepRecallOptions {
  const out: Record<string, unknown> = { ...DEEP_DEFAULTS };
  for (const k of DEEP_OPTION_NAMES) if (given[k] !== undefined) out[k] = checkDeepOption(k, given[k]);
  return out as unknown as DeepRecallOptions;
}

/** The hybrid config patch of the fusion / candidateTopK options ({} when both are unset). */
export function hybridPatch(o: DeepRecallOptions): { fusion?: 'weighted' | 'rrf'; lexicalWeight?: number; semanticWeight?: number; rrfK?: number; candidateK?: number } {
  const patch: ReturnType<typeof hybridPatch> = {};
  if (o.fusion?.strategy === 'rrf') {
    patch.fusion = 'rrf';
    patch.rrfK = o.fusion.k ?? DEFAULT_RRF_K;
    patch.lexicalWeight = 1;
    patch.semanticWeight = 1;
  } else if (o.fusion?.strategy === 'weighted') {
    const { lexical, vector } = o.fusion.weights;
    patch.fusion = 'weighted';
    patch.lexicalWeight = lexical / (lexical + vector);
    patch.semanticWeight = vector / (lexical + vector);
  }
  if (o.candidateTopK !== null) patch.candidateK = o.candidateTopK;
  return patch;
}
