// The `deepSearch` recall option (seed 003): mode, trigger threshold, pool cap, the bounds and the
// merge weight. Every field validated with a message naming it and its rule (AppError INVALID_OPTION).

import { AppError } from '../errors';

// adaptive (phase 3): active, with the threshold moved per query category from the history of hits
// (adaptive.ts); the services compute it before the engine runs.
export type DeepSearchMode = 'off' | 'shadow' | 'active' | 'adaptive';

export interface DeepSearchOptions {
  /** off: never; shadow: run and log, results unchanged; active: merge; adaptive: merge, threshold per query category. */
  readonly mode: DeepSearchMode;
  /** Escalate when the primary confidence is below this (0..1). */
  readonly threshold: number;
  /** Candidate pool cap (primary results read included). */
  readonly poolCap: number;
  /** Tokens the reader may be sent (query + pool, ~4 characters a token); the pool is trimmed to fit. */
  readonly tokenBudget: number;
  /** After this the primary results are returned, marked. */
  readonly timeoutMs: number;
  /** Escalations per session. */
  readonly rateLimit: number;
  /** Weight of the reader's score in the merge (the primary's is 1 - weight); the blend's, unused with reserved slots. */
  readonly weight: number;
  /**
   * Reserved slots (merge.ts): places of the top K given to the reader's best candidates from outside
   * the primary's top K, after the primary's first `keepTop` (0 = the weighted blend instead).
   */
  readonly reserveSlots: number;
  /** With reserved slots: the primary's results kept in place above them. */
  readonly keepTop: number;
}

export type DeepSearchOptionsInput = { -readonly [K in keyof DeepSearchOptions]?: DeepSearchOptions[K] };

export const DEEP_SEARCH_DEFAULTS: DeepSearchOptions = {
  mode: 'off',
  threshold: 0.3,
  poolCap: 50,
  tokenBudget: 8192,
  timeoutMs: 10_000,
  rateLimit: 5,
  weight: 0.5,
  // the blend by default: reserved slots (JUDGE_DEEP_SETTINGS) pass issue 11's rule only merged into
  // the refined / judged answer; merged into the first pass, as the engine does, they lower LoCoMo's
  // MRR@10 by 0.1 (half A) and 0.2 (B) with the offline reader (docs/research/quality.md "Sixth pass")
  reserveSlots: 0,
  keepTop: 6,
};

const RULES: Record<keyof DeepSearchOptions, [check: (v: unknown) => boolean, rule: string]> = {
  mode: [(v) => v === 'off' || v === 'shadow' || v === 'active' || v === 'adaptive', '"off", "shadow", "active" or "adaptive"'],
  threshold: [(v) => typeof v === 'number' && v >= 0 && v <= 1, 'a number from 0 to 1'],
  poolCap: [(v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 500, 'a whole number from 1 to 500'],
  tokenBudget: [(v) => Number.isInteger(v) && (v as number) >= 256 && (v as number) <= 200_000, 'a whole number of tokens from 256 to 200000'],
  timeoutMs: [(v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 120_000, 'a whole number of milliseconds from 1 to 120000'],
  rateLimit: [(v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 1000, 'a whole number from 0 to 1000 (escalations per session)'],
  weight: [(v) => typeof v === 'number' && v >= 0 && v <= 1, 'a number from 0 to 1'],
  reserveSlots: [(v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 100, 'a whole number from 0 to 100 (0 = the weighted blend)'],
  keepTop: [(v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 100, 'a whole number from 0 to 100'],
};

/** The given deepSearch option validated over the defaults (null / undefined = all defaults). */
export function resolveDeepSearch(given: unknown): DeepSearchOptions {
  if (given === undefined || given === null) return DEEP_SEARCH_DEFAULTS;
  if (typeof given !== 'object' || Array.isArray(given))
    throw new AppError('INVALID_OPTION', `Recall option "deepSearch" must be an object such as { mode: "shadow" }; got ${JSON.stringify(given)}.`);
  const out: Record<string, unknown> = { ...DEEP_SEARCH_DEFAULTS };
  for (const [k, v] of Object.entries(given as Record<string, unknown>)) {
    if (!(k in RULES))
      throw new AppError('INVALID_OPTION', `Recall option "deepSearch.${k}" is unknown; the fields are ${Object.keys(RULES).join(', ')}.`);
    if (v === undefined) continue;
    const [check, rule] = RULES[k as keyof DeepSearchOptions];
    if (!check(v) || (typeof v === 'number' && !Number.isFinite(v)))
      throw new AppError('INVALID_OPTION', `Recall option "deepSearch.${k}" must be ${rule}; got ${JSON.stringify(v) ?? String(v)}.`);
    out[k] = v;
  }
  return out as unknown as DeepSearchOptions;
}
