// Deep search escalation, end to end (seed 003): trigger -> expansion -> bounds -> reader -> merge.
//   off       nothing runs
//   shadow    runs when the trigger fires and reports everything (the caller logs it); the
//             returned results are the primary's, unchanged
//   active    merges (mergeDeep)
// Bounds: the rate limit per session is checked before any work; the pool is trimmed to the token
// budget; a reader slower than timeoutMs is abandoned (its signal aborted) and the primary results
// are returned, marked 'timeout'; a failing reader returns them marked 'error'.

import type { MemoryId } from '../types';
import { SessionRateLimiter, TIMED_OUT, trimToBudget, withTimeout, type Timers } from './bounds';
import { expandPool, type ExpansionSource, type PoolEntry, type Scope } from './expand';
import { mergeDeep, type MergedHit } from './merge';
import type { DeepSearchOptions } from './options';
import type { Reader, ReaderCandidate, ReaderQuery, ReaderScore } from './reader';
import { confidenceOf, shouldEscalate, type Confidence, type ConfidenceModel } from './trigger';

export type DeepStatus = 'off' | 'confident' | 'rate-limited' | 'shadow' | 'merged' | 'timeout' | 'error';

export interface DeepReport {
  status: DeepStatus;
  confidence: Confidence;
  threshold: number;
  primaryIds: MemoryId[];
  pool: PoolEntry[];
  /** Candidates dropped to fit the token budget. */
  trimmed: number;
  scores: ReaderScore[];
  timings: { expandMs: number; readMs: number; totalMs: number };
  error?: string;
}

/** What the engine hands the services for an escalation (plain data: the log row and the view). */
export type DeepReportView = DeepReport & { mode: 'shadow' | 'active' | 'adaptive' };

export interface DeepSearchInput {
  query: ReaderQuery;
  /** Primary results, best first. */
  primary: readonly { id: MemoryId; score: number }[];
  topK: number;
  /**
   * How many of the primary results the reader reads (and the merge blends) beyond the top K: the
   * pool starts with primary[0 .. max(topK, readDepth)) (default topK). The trigger reads the top K only.
   */
  readDepth?: number;
  options: DeepSearchOptions;
  source: ExpansionSource;
  scope: Scope;
  candidateOf: (id: MemoryId) => ReaderCandidate | undefined;
  reader: Reader;
  limiter?: SessionRateLimiter;
  sessionId?: string;
  isConstraint?: (id: MemoryId) => boolean;
  /** Milliseconds (default Date.now). */
  clock?: () => number;
  /** The host's timers (the timeout needs them). */
  timers: Timers;
  /** The encoder's calibrated confidence (calibrationFor(encoder).confidence); absent = the seed's fixed blend. */
  confidenceModel?: ConfidenceModel;
}

export interface DeepSearchOutput {
  results: MergedHit[];
  report: DeepReport;
}

const primaryOnly = (p: DeepSearchInput['primary'], topK: number): MergedHit[] => p.slice(0, topK).map((h) => ({ id: h.id, score: h.score, source: 'primary' }));

export async function deepSearch(input: DeepSearchInput): Promise<DeepSearchOutput> {
  const clock = input.clock ?? (() => Date.now());
  const t0 = clock();
  const o = input.options;
  const confidence = confidenceOf(input.primary.slice(0, input.topK).map((h) => h.score), input.topK, input.confidenceModel);
  const primaryIds = input.primary.slice(0, input.topK).map((h) => h.id);
  const report: DeepReport = { status: 'off', confidence, threshold: o.threshold, primaryIds, pool: [], trimmed: 0, scores: [], timings: { expandMs: 0, readMs: 0, totalMs: 0 } };
  const done = (status: DeepStatus, results: MergedHit[]): DeepSearchOutput => {
    report.status = status;
    report.timings.totalMs = clock() - t0;
    return { results, report };
  };
  const plain = primaryOnly(input.primary, input.topK);
  if (o.mode === 'off') return done('off', plain);
  if (!shouldEscalate(confidence.value, o.threshold)) return done('confident', plain);
  if (input.limiter && !input.limiter.take(input.sessionId ?? '', o.rateLimit)) return done('rate-limited', plain);
  const read = input.readDepth === undefined ? input.primary : input.primary.slice(0, Math.max(input.topK, input.readDepth));
  const readIds = input.readDepth === undefined ? primaryIds : read.map((h) => h.id);
  const pool = expandPool(readIds, input.source, input.scope, { cap: o.poolCap });
  const cands = pool.map((p) => input.candidateOf(p.id)).filter((c): c is ReaderCandidate => c !== undefined);
  const fit = trimToBudget(input.query.text, cands, o.tokenBudget);
  const kept = new Set(fit.map((c) => c.id));
  report.pool = pool.filter((p) => kept.has(p.id));
  report.trimmed = cands.length - fit.length;
  const t1 = clock();
  report.timings.expandMs = t1 - t0;
  const signal = { aborted: false };
  let scores: ReaderScore[] | typeof TIMED_OUT;
  try {
    scores = await withTimeout(input.reader.read(input.query, fit, { signal }), o.timeoutMs, input.timers);
  } catch (e) {
    report.error = e instanceof Error ? e.message : String(e);
    report.timings.readMs = clock() - t1;
    return done('error', plain);
  }
  report.timings.readMs = clock() - t1;
  if (scores === TIMED_OUT) {
    signal.aborted = true;
    return done('timeout', plain);
  }
  // only pooled ids, each once, scores clipped to [0, 1]
  const seen = new Set<MemoryId>();
  report.scores = scores.filter((s) => kept.has(s.id) && !seen.has(s.id) && seen.add(s.id)).map((s) => ({ ...s, score: Math.min(1, Math.max(0, Number.isFinite(s.score) ? s.score : 0)) }));
  if (o.mode === 'shadow') return done('shadow', plain);
  const reserve = o.reserveSlots > 0 ? { reserve: { keep: o.keepTop, slots: o.reserveSlots } } : {};
  return done('merged', mergeDeep(read, report.scores, { weight: o.weight, topK: input.topK, isConstraint: input.isConstraint, ...reserve }));
}
