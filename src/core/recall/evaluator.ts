// The LateralEvaluator (from the lateral-retrieval design): counts lateral results returned /
// reinforced / suppressed, derives LUR = reinforced / returned (are laterals useful?), LSR =
// suppressed / returned (are they noise?) and LHI = suppressed / (reinforced + suppressed) (the
// negative share of all feedback), and every `evaluationWindow` returns auto-tunes lateral mode by
// the design's table: LUR < 0.05 -> disable lateral mode; LUR < 0.10 -> tighten the distance
// threshold by 10%; LUR > 0.30 -> healthy, no change.
//
// Reading of "tighten the distance threshold by 10%": the design's parameter table says a HIGHER
// threshold means "only very distant memories qualify", i.e. fewer, stricter lateral results. So
// tightening multiplies the threshold by 1.1 (capped at 2, the largest L2 distance between unit
// vectors). The evaluator stores the tightening as a scale so an explicit per-call threshold is
// tightened by the same factor.
//
// Counting: metrics are cumulative since the last (re-)enable. Each returned lateral occurrence
// can receive at most one counted feedback, so LUR, LSR <= 1. A reinforcement with positive valence
// counts as "reinforced"; a negative valence counts like a suppression (negative feedback).
//
// Silence is not evidence: with no feedback at all since the last (re-)enable, LUR is 0/returned
// = 0 and the table, read literally (LUR < 0.05 -> disable), would switch lateral mode off after the
// first window for every person who simply has not clicked reinforce or suppress yet. The metrics ask
// "are lateral results useful?", which feedback answers and silence does not, so a window with no
// feedback changes nothing ('no-feedback'); from the first feedback on, the table applies as written.

import { AppError } from '../errors';
import type { MemoryId } from '../types';
import { BASE_DEFAULTS } from './options';
import type { RecallOptions } from './options';
import { validateValence } from './feedback';

export const LUR_DISABLE_BELOW = 0.05;
export const LUR_TIGHTEN_BELOW = 0.1;
export const LUR_HEALTHY_ABOVE = 0.3;
export const TIGHTEN_FACTOR = 1.1;
export const MAX_THRESHOLD = 2;
/** Lateral occurrences remembered to answer "was this a lateral result?". */
export const RECENT_LATERAL_CAP = 500;

/** Every action auto-tuning can record; the saved state is checked against this same list. */
export const TUNING_ACTIONS = ['none', 'no-feedback', 'disable', 'tighten', 'healthy', 'steady'] as const;
export type TuningAction = (typeof TUNING_ACTIONS)[number];

/** The auto-tuning table as data: LUR < 0.05 disables, < 0.10 tightens (threshold x 1.1), > 0.30 is healthy. */
export const TUNING_TABLE = {
  disableBelow: LUR_DISABLE_BELOW,
  tightenBelow: LUR_TIGHTEN_BELOW,
  healthyAbove: LUR_HEALTHY_ABOVE,
  tightenFactor: TIGHTEN_FACTOR,
} as const;

/** What an evaluation does: a row of the table, or nothing while there is no feedback. */
export type TuningDecision = Exclude<TuningAction, 'none'>;

/** The row of the tuning table these counts select (silence is not evidence: see the top). */
export function tuningDecision(c: { returned: number; reinforced: number; suppressed: number }): TuningDecision {
  if (c.reinforced + c.suppressed === 0) return 'no-feedback';
  const lur = ratio(c.reinforced, c.returned);
  if (lur < LUR_DISABLE_BELOW) return 'disable';
  if (lur < LUR_TIGHTEN_BELOW) return 'tighten';
  if (lur > LUR_HEALTHY_ABOVE) return 'healthy';
  return 'steady'; // 0.10 <= LUR <= 0.30: the table has no row for it, so nothing changes
}

/** The rule in effect: lateral mode is off, nothing was returned yet, or the row the next evaluation applies. */
export type TuningRuleName = 'disabled' | 'no-samples' | TuningDecision;

export interface TuningRuleInEffect {
  rule: TuningRuleName;
  lur: number;
  table: typeof TUNING_TABLE;
  evaluationWindow: number;
  /** The count of returned lateral results at which the next evaluation happens. */
  nextEvaluationAt: number;
}

/** Which auto-tuning rule the current status puts in effect, with the numbers that decide it. */
export function tuningRuleInEffect(st: LateralStatus, evaluationWindow: number = BASE_DEFAULTS.evaluationWindow): TuningRuleInEffect {
  const rule: TuningRuleName = !st.enabled ? 'disabled' : st.samples === 0 ? 'no-samples' : tuningDecision({ returned: st.samples, reinforced: st.reinforced, suppressed: st.suppressed });
  return {
    rule,
    lur: st.lur,
    table: TUNING_TABLE,
    evaluationWindow,
    nextEvaluationAt: (Math.floor(st.samples / evaluationWindow) + 1) * evaluationWindow,
  };
}

interface RecentEntry {
  id: MemoryId;
  /** 0 = no feedback yet, 1 = reinforced, -1 = suppressed. */
  fb: 0 | 1 | -1;
}

export interface LateralEvaluatorState {
  version: 1;
  enabled: boolean;
  baseThreshold: number;
  thresholdScale: number;
  evaluationWindow: number;
  returned: number;
  reinforced: number;
  suppressed: number;
  /** `returned` at the last evaluation. */
  lastEvaluatedAt: number;
  lastAction: TuningAction;
  recent: RecentEntry[];
}

export interface LateralStatus {
  enabled: boolean;
  threshold: number;
  samples: number;
  reinforced: number;
  suppressed: number;
  lur: number;
  lsr: number;
  lhi: number;
  lastAction: TuningAction;
}

const ratio = (a: number, b: number): number => (b > 0 ? a / b : 0);

export class LateralEvaluator {
  private s: LateralEvaluatorState;

  constructor(init: { baseThreshold?: number; evaluationWindow?: number } = {}) {
    const baseThreshold = init.baseThreshold ?? BASE_DEFAULTS.lateralDistanceThreshold;
    const evaluationWindow = init.evaluationWindow ?? BASE_DEFAULTS.evaluationWindow;
    if (!(baseThreshold > 0 && baseThreshold <= MAX_THRESHOLD))
      throw new AppError('INVALID_OPTION', `Lateral evaluator "baseThreshold" must be a number greater than 0 and at most 2; got ${baseThreshold}.`);
    if (!Number.isInteger(evaluationWindow) || evaluationWindow < 1)
      throw new AppError('INVALID_OPTION', `Lateral evaluator "evaluationWindow" must be an integer >= 1; got ${evaluationWindow}.`);
    this.s = {
      version: 1,
      enabled: true,
      baseThreshold,
      thresholdScale: 1,
      evaluationWindow,
      returned: 0,
      reinforced: 0,
      suppressed: 0,
      lastEvaluatedAt: 0,
      lastAction: 'none',
      recent: [],
    };
  }

  /** An evaluator whose base threshold and window come from resolved recall options. */
  static forOptions(o: Pick<RecallOptions, 'lateralDistanceThreshold' | 'evaluationWindow'>): LateralEvaluator {
    return new LateralEvaluator({ baseThreshold: o.lateralDistanceThreshold, evaluationWindow: o.evaluationWindow });
  }

  get enabled(): boolean {
    return this.s.enabled;
  }

  /** The tuned default threshold (base * scale, capped at 2). */
  get threshold(): number {
    return Math.min(MAX_THRESHOLD, this.s.baseThreshold * this.s.thresholdScale);
  }

  get thresholdScale(): number {
    return this.s.thresholdScale;
  }

  /** Options as the evaluator's tuning allows them: lateral off when disabled, threshold tightened. */
  apply<T extends Pick<RecallOptions, 'lateralMode' | 'lateralDistanceThreshold'>>(opts: T): T {
    return {
      ...opts,
      lateralMode: opts.lateralMode && this.s.enabled,
      lateralDistanceThreshold: Math.min(MAX_THRESHOLD, opts.lateralDistanceThreshold * this.s.thresholdScale),
    };
  }

  /** Record lateral results handed to the caller; evaluates when a window boundary is crossed. */
  recordReturned(ids: readonly MemoryId[]): TuningAction | null {
    if (ids.length === 0) return null;
    const s = this.s;
    for (const id of ids) s.recent.push({ id, fb: 0 });
    if (s.recent.length > RECENT_LATERAL_CAP) s.recent.splice(0, s.recent.length - RECENT_LATERAL_CAP);
    const before = Math.floor(s.returned / s.evaluationWindow);
    s.returned += ids.length;
    const after = Math.floor(s.returned / s.evaluationWindow);
    if (after > before && s.enabled) return this.evaluate();
    return null;
  }

  /** True when `id` was among the remembered lateral results. */
  wasLateral(id: MemoryId): boolean {
    return this.s.recent.some((e) => e.id === id);
  }

  /** Feedback on a memory. Counts only if it was returned as lateral; returns whether it was. */
  recordReinforcement(id: MemoryId, valence: number): boolean {
    validateValence(valence);
    if (valence === 0) return this.wasLateral(id);
    return this.feedback(id, valence > 0 ? 1 : -1);
  }

  recordSuppression(id: MemoryId): boolean {
    return this.feedback(id, -1);
  }

  private feedback(id: MemoryId, fb: 1 | -1): boolean {
    const r = this.s.recent;
    let seen = false;
    for (let i = r.length - 1; i >= 0; i--) {
      if (r[i].id !== id) continue;
      seen = true;
      if (r[i].fb === 0) {
        r[i].fb = fb;
        if (fb === 1) this.s.reinforced++;
        else this.s.suppressed++;
        break;
      }
    }
    return seen;
  }

  /** Apply the tuning table (disable below 0.05, tighten x 1.1 below 0.10, healthy above 0.30) to the current (cumulative) LUR. */
  evaluate(): TuningAction {
    const s = this.s;
    s.lastEvaluatedAt = s.returned;
    const action = tuningDecision(s);
    if (action === 'disable') s.enabled = false;
    else if (action === 'tighten') s.thresholdScale = Math.min(s.thresholdScale * TIGHTEN_FACTOR, MAX_THRESHOLD / s.baseThreshold);
    s.lastAction = action;
    return action;
  }

  /** Turn lateral mode back on after an auto-disable: fresh counters and threshold. */
  reEnable(): void {
    const { baseThreshold, evaluationWindow } = this.s;
    this.s = new LateralEvaluator({ baseThreshold, evaluationWindow }).s;
  }

  status(): LateralStatus {
    const s = this.s;
    return {
      enabled: s.enabled,
      threshold: this.threshold,
      samples: s.returned,
      reinforced: s.reinforced,
      suppressed: s.suppressed,
      lur: ratio(s.reinforced, s.returned),
      lsr: ratio(s.suppressed, s.returned),
      lhi: ratio(s.suppressed, s.reinforced + s.suppressed),
      lastAction: s.lastAction,
    };
  }

  /** The lateral block of the design's memory_status report: enabled, threshold, samples, LUR, LSR, LHI (two decimals). */
  formatStatus(): string {
    return formatLateralStatus(this.status());
  }

  toJSON(): LateralEvaluatorState {
    return structuredCloneState(this.s);
  }

  static fromJSON(raw: unknown): LateralEvaluator {
    const s = parseState(raw);
    const e = new LateralEvaluator({ baseThreshold: s.baseThreshold, evaluationWindow: s.evaluationWindow });
    e.s = s;
    return e;
  }
}

export function formatLateralStatus(st: LateralStatus): string {
  return [
    'Lateral Retrieval:',
    `  Enabled:    ${st.enabled}`,
    `  Threshold:  ${st.threshold.toFixed(2)}`,
    `  Samples:    ${st.samples}`,
    `  LUR (util): ${st.lur.toFixed(2)}`,
    `  LSR (supp): ${st.lsr.toFixed(2)}`,
    `  LHI (hall): ${st.lhi.toFixed(2)}`,
  ].join('\n');
}

/**
 * The design's memory_reinforce reply: "Reinforced '<id>' with valence=<v>", plus " (lateral result —
 * feedback recorded)" when the memory was returned as a lateral (the UI adds its own icon).
 */
export function formatReinforce(id: MemoryId, valence: number, wasLateral: boolean): string {
  const base = `Reinforced '${id}' with valence=${valence}`;
  return wasLateral ? `${base} (lateral result — feedback recorded)` : base;
}

function structuredCloneState(s: LateralEvaluatorState): LateralEvaluatorState {
  return { ...s, recent: s.recent.map((e) => ({ ...e })) };
}

function parseState(raw: unknown): LateralEvaluatorState {
  const bad = (why: string): AppError =>
    new AppError('INVALID_CONFIG', `The saved lateral evaluator state is invalid (${why}); it was not loaded.`);
  if (!raw || typeof raw !== 'object') throw bad('not an object');
  const o = raw as Record<string, unknown>;
  if (o.version !== 1) throw bad(`unknown version ${String(o.version)}`);
  const count = (k: string): number => {
    const v = o[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw bad(`${k} must be a count`);
    return v;
  };
  const num = (k: string, ok: (v: number) => boolean): number => {
    const v = o[k];
    if (typeof v !== 'number' || !Number.isFinite(v) || !ok(v)) throw bad(`${k} = ${String(v)}`);
    return v;
  };
  if (typeof o.enabled !== 'boolean') throw bad('enabled must be true or false');
  // one list for what evaluate() writes and what a load accepts ('no-feedback' was once missing
  // here, so every state saved after an evaluation without feedback was thrown away on reload)
  if (!(TUNING_ACTIONS as readonly unknown[]).includes(o.lastAction)) throw bad(`lastAction = ${String(o.lastAction)}`);
  if (!Array.isArray(o.recent)) throw bad('recent must be a list');
  const recent: RecentEntry[] = o.recent.slice(-RECENT_LATERAL_CAP).map((e) => {
    const r = e as Record<string, unknown>;
    if (!r || typeof r.id !== 'string' || (r.fb !== 0 && r.fb !== 1 && r.fb !== -1)) throw bad('a recent entry is malformed');
    return { id: r.id, fb: r.fb };
  });
  const s: LateralEvaluatorState = {
    version: 1,
    enabled: o.enabled,
    baseThreshold: num('baseThreshold', (v) => v > 0 && v <= MAX_THRESHOLD),
    thresholdScale: num('thresholdScale', (v) => v >= 1),
    evaluationWindow: count('evaluationWindow'),
    returned: count('returned'),
    reinforced: count('reinforced'),
    suppressed: count('suppressed'),
    lastEvaluatedAt: count('lastEvaluatedAt'),
    lastAction: o.lastAction as TuningAction,
    recent,
  };
  if (s.evaluationWindow < 1) throw bad('evaluationWindow must be >= 1');
  if (s.reinforced + s.suppressed > s.returned) throw bad('more feedback than returned results');
  return s;
}
