// Recall options: every knob with its default, range and validation. The lateral defaults are the
// lateral-retrieval design's (distance threshold 1.2, minimum tag overlap 0.5, at most topK/3
// lateral results, lateral mode on in DIVERGENT only); the associative ones are the
// associative-retrieval design's (beam 2, minimum cosine 0.72, decay 0.8 per hop, at most 3 hops,
// off unless asked); from the search-options design come the lexical / vector weights of the
// fused candidate lists and "quarantined memories only when asked".
// Order of precedence: explicit option > profile preset > base default. Derived defaults
// (lateralMaxResults, candidateK) are computed from the *resolved* topK.

import { AppError } from '../errors';
import { normaliseTag } from '../validate';
import { CognitiveProfile, PROFILES, PROFILE_NAMES, isCognitiveProfile, type GroupBy } from './profiles';
import {
  DEEP_OPTION_NAMES,
  isDeepOptionName,
  resolveDeepOptions,
  type DeepRecallOptions,
  type DeepRecallOptionsInput,
  type FusionOption,
} from './options-deep';

export interface RecallOptions extends DeepRecallOptions {
  readonly profile: CognitiveProfile;
  /** Standard results returned (1..1000). */
  readonly topK: number;
  /** Lateral retrieval on/off (profile: only DIVERGENT turns it on). */
  readonly lateralMode: boolean;
  /** L2 distance beyond which a memory counts as "far" (0 < t <= 2; unit vectors span 0..2). */
  readonly lateralDistanceThreshold: number;
  /** Lateral results appended at most (0..100). Default max(1, floor(topK / 3)). */
  readonly lateralMaxResults: number;
  /** Tag overlap a far memory needs to qualify as lateral (0..1). */
  readonly lateralMinTagOverlap: number;
  /** Associative hops (0 = off, at most 3). */
  readonly assocHops: number;
  /** Neighbours followed per expanded node (1..8). */
  readonly beamWidth: number;
  /** Minimum cosine(parent, child) for an associative step (-1..1). */
  readonly minCosine: number;
  /** Per-hop decay (0 < d <= 1); compounds to hopDecay^hop. */
  readonly hopDecay: number;
  readonly includeArchived: boolean;
  readonly includeQuarantined: boolean;
  /** Lateral returns between two auto-tuning evaluations (1..100000). */
  readonly evaluationWindow: number;
  /** Hybrid lexical weight (0..1); semantic = 1 - lexical. */
  readonly lexicalWeight: number;
  readonly semanticWeight: number;
  /** Fused candidates requested from the engine (>= topK, <= 10000). Default topK * profile multiplier. */
  readonly candidateK: number;
  /** 0..1: score *= (1 - w) + w * importance. */
  readonly importanceWeight: number;
  /** Absolute floor on the standard score (>= 0). */
  readonly minScore: number;
  /** Relative floor: keep standard hits >= minRelativeScore * best (0..1). */
  readonly minRelativeScore: number;
  readonly requireLexicalMatch: boolean;
  readonly groupBy: GroupBy;
  /** Explicit query tags (normalised); null = derive from the top standard results. */
  readonly queryTags: readonly string[] | null;
  /** Cap on derived query tags (1..20). */
  readonly queryTagLimit: number;
  /** Half-life of the lateral recency decay in days (0 = no decay). */
  readonly decayHalfLifeDays: number;
  /**
   * Seed 001, asOf: only memories valid at this instant (epoch ms; validFrom <= asOf < validTo),
   * applied where candidates are produced. null = no time condition (the default).
   */
  readonly asOf: number | null;
  /**
   * Seed 001, decay-aware ranking: standard scores x exp(-elapsedDays / (decayTauDays x strength)),
   * elapsed since the memory's last access. 0 = off (the default); nothing is ever deleted by it.
   */
  readonly decayTauDays: number;
}

/** What a caller may pass: any subset; semanticWeight follows from lexicalWeight. */
export type RecallOptionsInput = { -readonly [K in Exclude<keyof RecallOptions, 'semanticWeight' | keyof DeepRecallOptions>]?: RecallOptions[K] } &
  DeepRecallOptionsInput;

export const BASE_DEFAULTS = {
  lateralDistanceThreshold: 1.2,
  lateralMinTagOverlap: 0.5,
  assocHops: 0,
  beamWidth: 2,
  minCosine: 0.72,
  hopDecay: 0.8,
  includeArchived: false,
  includeQuarantined: false,
  evaluationWindow: 20,
  queryTagLimit: 5,
  decayHalfLifeDays: 180,
} as const;

export const MAX_ASSOC_HOPS = 3;
/** Decay time constants up to 100 years (0 = off). */
export const MAX_DECAY_TAU_DAYS = 36_500;
/** Earliest / latest asOf accepted: years 1000 and 9999 (a typo such as year 20260 is refused). */
export const MIN_AS_OF = Date.UTC(1000, 0, 1);
export const MAX_AS_OF = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * The lateral-retrieval design caps lateral results at topK/3 by default; we floor it and keep at
 * least one slot so small topK still shows a lateral.
 */
export function defaultLateralMaxResults(topK: number): number {
  return Math.max(1, Math.floor(topK / 3));
}

type Rule =
  | { kind: 'int'; min: number; max: number }
  | { kind: 'num'; min: number; max: number; minOpen?: boolean }
  | { kind: 'bool' }
  | { kind: 'profile' }
  | { kind: 'groupBy' }
  | { kind: 'tags' }
  | { kind: 'time' };

type BaseOptionName = Exclude<keyof RecallOptionsInput, keyof DeepRecallOptions>;

const RULES: Record<BaseOptionName, Rule> = {
  profile: { kind: 'profile' },
  topK: { kind: 'int', min: 1, max: 1000 },
  lateralMode: { kind: 'bool' },
  lateralDistanceThreshold: { kind: 'num', min: 0, max: 2, minOpen: true },
  lateralMaxResults: { kind: 'int', min: 0, max: 100 },
  lateralMinTagOverlap: { kind: 'num', min: 0, max: 1 },
  assocHops: { kind: 'int', min: 0, max: MAX_ASSOC_HOPS },
  beamWidth: { kind: 'int', min: 1, max: 8 },
  minCosine: { kind: 'num', min: -1, max: 1 },
  hopDecay: { kind: 'num', min: 0, max: 1, minOpen: true },
  includeArchived: { kind: 'bool' },
  includeQuarantined: { kind: 'bool' },
  evaluationWindow: { kind: 'int', min: 1, max: 100_000 },
  lexicalWeight: { kind: 'num', min: 0, max: 1 },
  candidateK: { kind: 'int', min: 1, max: 10_000 },
  importanceWeight: { kind: 'num', min: 0, max: 1 },
  minScore: { kind: 'num', min: 0, max: Number.MAX_VALUE },
  minRelativeScore: { kind: 'num', min: 0, max: 1 },
  requireLexicalMatch: { kind: 'bool' },
  groupBy: { kind: 'groupBy' },
  queryTags: { kind: 'tags' },
  queryTagLimit: { kind: 'int', min: 1, max: 20 },
  decayHalfLifeDays: { kind: 'num', min: 0, max: 1_000_000 },
  asOf: { kind: 'time' },
  decayTauDays: { kind: 'num', min: 0, max: MAX_DECAY_TAU_DAYS },
};

export const OPTION_NAMES = [...Object.keys(RULES), ...DEEP_OPTION_NAMES] as (keyof RecallOptionsInput)[];

function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v == null) return String(v);
  try {
    return JSON.stringify(v) ?? typeof v;
  } catch {
    return typeof v;
  }
}

function invalid(name: string, value: unknown, allowed: string): AppError {
  return new AppError(
    'INVALID_OPTION',
    `Recall option "${name}" must be ${allowed}; got ${show(value)}.`,
    JSON.stringify({ option: name, value: show(value), allowed }),
  );
}

function check(name: BaseOptionName, v: unknown): unknown {
  const r = RULES[name];
  switch (r.kind) {
    case 'int':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < r.min || v > r.max)
        throw invalid(name, v, `an integer from ${r.min} to ${r.max}`);
      return v;
    case 'num': {
      const lowOk = typeof v === 'number' && (r.minOpen ? v > r.min : v >= r.min);
      if (typeof v !== 'number' || !Number.isFinite(v) || !lowOk || v > r.max) {
        const hi = r.max === Number.MAX_VALUE ? 'any finite number' : String(r.max);
        const range = r.max === Number.MAX_VALUE ? `a finite number >= ${r.min}` : `a number ${r.minOpen ? 'greater than' : 'from'} ${r.min} ${r.minOpen ? 'and at most' : 'to'} ${hi}`;
        throw invalid(name, v, range);
      }
      return v;
    }
    case 'bool':
      if (typeof v !== 'boolean') throw invalid(name, v, 'true or false');
      return v;
    case 'profile':
      if (!isCognitiveProfile(v)) throw invalid(name, v, `one of ${PROFILE_NAMES.join(', ')}`);
      return v;
    case 'groupBy':
      if (v !== 'none' && v !== 'tag') throw invalid(name, v, '"none" or "tag"');
      return v;
    case 'time':
      if (v === null) return null;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < MIN_AS_OF || v > MAX_AS_OF)
        throw invalid(name, v, 'a time in epoch milliseconds (a date between the years 1000 and 9999), or null for none');
      return v;
    case 'tags': {
      if (v === null) return null;
      if (!Array.isArray(v) || v.some((t) => typeof t !== 'string')) throw invalid(name, v, 'a list of tag strings or null');
      const out: string[] = [];
      for (const t of v as string[]) {
        const n = normaliseTag(t);
        if (n && !out.includes(n)) out.push(n);
      }
      return out;
    }
  }
}

/** Validate a partial set of options and fill every default. Throws AppError('INVALID_OPTION'). */
export function resolveRecallOptions(input: RecallOptionsInput = {}): RecallOptions {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw new AppError('INVALID_OPTION', `Recall options must be an object; got ${show(input)}.`);
  const given: Partial<Record<keyof RecallOptionsInput, unknown>> = {};
  const deep: Partial<Record<keyof DeepRecallOptions, unknown>> = {};
  for (const [k, v] of Object.entries(input)) {
    if (isDeepOptionName(k)) {
      deep[k] = v; // validated by resolveDeepOptions (options-deep.ts)
      continue;
    }
    if (!(k in RULES))
      throw new AppError('INVALID_OPTION', `Unknown recall option "${k}". Known options: ${OPTION_NAMES.join(', ')}.`);
    if (v === undefined) continue; // unset
    given[k as BaseOptionName] = check(k as BaseOptionName, v);
  }
  const profile = (given.profile as CognitiveProfile | undefined) ?? CognitiveProfile.BALANCED;
  const p = PROFILES[profile];
  const pick = <T>(k: keyof RecallOptionsInput, fallback: T): T => (k in given ? (given[k] as T) : fallback);

  const topK = pick('topK', p.topK);
  const includeQuarantined = pick('includeQuarantined', BASE_DEFAULTS.includeQuarantined);
  if (p.forbidQuarantined && includeQuarantined)
    throw invalid('includeQuarantined', true, `false with profile ${profile} (it never returns quarantined memories)`);
  const candidateK = pick('candidateK', topK * p.candidateMultiplier);
  if (candidateK < topK) throw invalid('candidateK', candidateK, `at least topK (${topK})`);
  const lexicalWeight = pick('lexicalWeight', p.lexicalWeight);

  return {
    profile,
    topK,
    lateralMode: pick('lateralMode', p.lateralMode),
    lateralDistanceThreshold: pick('lateralDistanceThreshold', BASE_DEFAULTS.lateralDistanceThreshold),
    lateralMaxResults: pick('lateralMaxResults', defaultLateralMaxResults(topK)),
    lateralMinTagOverlap: pick('lateralMinTagOverlap', BASE_DEFAULTS.lateralMinTagOverlap),
    assocHops: pick('assocHops', BASE_DEFAULTS.assocHops),
    beamWidth: pick('beamWidth', BASE_DEFAULTS.beamWidth),
    minCosine: pick('minCosine', BASE_DEFAULTS.minCosine),
    hopDecay: pick('hopDecay', BASE_DEFAULTS.hopDecay),
    includeArchived: pick('includeArchived', BASE_DEFAULTS.includeArchived),
    includeQuarantined,
    evaluationWindow: pick('evaluationWindow', BASE_DEFAULTS.evaluationWindow),
    lexicalWeight,
    semanticWeight: 1 - lexicalWeight,
    candidateK,
    importanceWeight: pick('importanceWeight', p.importanceWeight),
    minScore: pick('minScore', p.minScore),
    minRelativeScore: pick('minRelativeScore', p.minRelativeScore),
    requireLexicalMatch: pick('requireLexicalMatch', p.requireLexicalMatch),
    groupBy: pick('groupBy', p.groupBy),
    queryTags: pick<readonly string[] | null>('queryTags', null),
    queryTagLimit: pick('queryTagLimit', BASE_DEFAULTS.queryTagLimit),
    decayHalfLifeDays: pick('decayHalfLifeDays', BASE_DEFAULTS.decayHalfLifeDays),
    asOf: pick<number | null>('asOf', null),
    decayTauDays: pick('decayTauDays', 0),
    ...resolveDeepOptions(deep),
  };
}

/** Fluent builder: RecallOptions.builder().profile('DIVERGENT').topK(5).build(). Validates on build(). */
export class RecallOptionsBuilder {
  private readonly input: RecallOptionsInput = {};
  private set<K extends keyof RecallOptionsInput>(k: K, v: RecallOptionsInput[K]): this {
    this.input[k] = v;
    return this;
  }
  profile(v: CognitiveProfile): this { return this.set('profile', v); }
  topK(v: number): this { return this.set('topK', v); }
  lateralMode(v: boolean): this { return this.set('lateralMode', v); }
  lateralDistanceThreshold(v: number): this { return this.set('lateralDistanceThreshold', v); }
  lateralMaxResults(v: number): this { return this.set('lateralMaxResults', v); }
  lateralMinTagOverlap(v: number): this { return this.set('lateralMinTagOverlap', v); }
  assocHops(v: number): this { return this.set('assocHops', v); }
  beamWidth(v: number): this { return this.set('beamWidth', v); }
  minCosine(v: number): this { return this.set('minCosine', v); }
  hopDecay(v: number): this { return this.set('hopDecay', v); }
  includeArchived(v: boolean): this { return this.set('includeArchived', v); }
  includeQuarantined(v: boolean): this { return this.set('includeQuarantined', v); }
  evaluationWindow(v: number): this { return this.set('evaluationWindow', v); }
  lexicalWeight(v: number): this { return this.set('lexicalWeight', v); }
  candidateK(v: number): this { return this.set('candidateK', v); }
  importanceWeight(v: number): this { return this.set('importanceWeight', v); }
  minScore(v: number): this { return this.set('minScore', v); }
  minRelativeScore(v: number): this { return this.set('minRelativeScore', v); }
  requireLexicalMatch(v: boolean): this { return this.set('requireLexicalMatch', v); }
  groupBy(v: GroupBy): this { return this.set('groupBy', v); }
  queryTags(v: readonly string[] | null): this { return this.set('queryTags', v); }
  queryTagLimit(v: number): this { return this.set('queryTagLimit', v); }
  decayHalfLifeDays(v: number): this { return this.set('decayHalfLifeDays', v); }
  asOf(v: number | null): this { return this.set('asOf', v); }
  decayTauDays(v: number): this { return this.set('decayTauDays', v); }
  expandHops(v: 0 | 1): this { return this.set('expandHops', v); }
  fusion(v: FusionOption | null): this { return this.set('fusion', v); }
  candidateTopK(v: number | null): this { return this.set('candidateTopK', v); }
  multiQuery(v: number): this { return this.set('multiQuery', v); }
  hyde(v: boolean): this { return this.set('hyde', v); }
  /** The explicit options so far (e.g. to persist or send across a worker boundary). */
  toInput(): RecallOptionsInput { return { ...this.input }; }
  build(): RecallOptions { return resolveRecallOptions(this.input); }
}

// Same name as the interface (TS keeps types and values apart), so a call reads like the lateral-retrieval
// design's example: RecallOptions.builder().profile('DIVERGENT').lateralDistanceThreshold(1.5).build().
export const RecallOptions = {
  builder: (): RecallOptionsBuilder => new RecallOptionsBuilder(),
  resolve: resolveRecallOptions,
  defaults: (): RecallOptions => resolveRecallOptions({}),
};
