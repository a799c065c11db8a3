// The deep-search dashboard's figures (seed 003, phase 2), from the log rows (deepSearchLog) and
// the count of recalls that had deep search on, per day:
//   invocations   escalations that ran the reader (shadow, merged, timeout, error); rate-limited
//                 ones are counted apart (they did no work)
//   hit rate      share of the invocations that found something the primary had missed (isHit)
//   latency       mean and p95 of the invocations' total time (p95: nearest rank, ceil(0.95 n))
//   rate          per day: invocations / recalls with deep search on (null on a day with none)
// Days are UTC days (epoch ms / 86 400 000, floored); the series covers the last `days` days up to
// `now`, oldest first, so a quiet day shows as zero.

import { isHit } from './adaptive';

export interface DeepLogEntry {
  at: number;
  status: string;
  primaryIds: readonly string[];
  scores: readonly { id: string; score: number }[];
  timings: { totalMs: number };
}

export interface DeepDay {
  /** UTC midnight, epoch ms. */
  day: number;
  invocations: number;
  recalls: number;
  rate: number | null;
}

export interface DeepStats {
  invocations: number;
  rateLimited: number;
  hits: number;
  hitRate: number | null;
  meanMs: number | null;
  p95Ms: number | null;
  byStatus: Record<string, number>;
  series: DeepDay[];
}

export const DAY_MS = 86_400_000;
const RAN = new Set(['shadow', 'merged', 'timeout', 'error']);

/** Nearest-rank percentile (q in (0, 1]) of numbers; null when empty. */
export function percentile(xs: readonly number[], q: number): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length, Math.max(1, Math.ceil(q * s.length))) - 1];
}

export function summariseDeepLog(rows: readonly DeepLogEntry[], recallsPerDay: Readonly<Record<string, number>>, now: number, days = 14): DeepStats {
  const byStatus: Record<string, number> = {};
  const ran = rows.filter((r) => RAN.has(r.status));
  for (const r of rows) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  const hits = ran.filter((r) => isHit(r.primaryIds, r.scores)).length;
  const ms = ran.map((r) => r.timings.totalMs).filter((x) => Number.isFinite(x));
  const today = Math.floor(now / DAY_MS);
  const perDay = new Map<number, number>();
  for (const r of ran) perDay.set(Math.floor(r.at / DAY_MS), (perDay.get(Math.floor(r.at / DAY_MS)) ?? 0) + 1);
  const series: DeepDay[] = [];
  for (let d = today - days + 1; d <= today; d++) {
    const invocations = perDay.get(d) ?? 0;
    const recalls = Math.max(recallsPerDay[String(d)] ?? 0, invocations);
    series.push({ day: d * DAY_MS, invocations, recalls, rate: recalls > 0 ? invocations / recalls : null });
  }
  return {
    invocations: ran.length,
    rateLimited: byStatus['rate-limited'] ?? 0,
    hits,
    hitRate: ran.length ? hits / ran.length : null,
    meanMs: ms.length ? ms.reduce((a, b) => a + b, 0) / ms.length : null,
    p95Ms: percentile(ms, 0.95),
    byStatus,
    series,
  };
}

/** The per-day recall counter after one recall with deep search on (keeps the last 90 days). */
export function countRecall(perDay: Readonly<Record<string, number>>, at: number): Record<string, number> {
  const d = Math.floor(at / DAY_MS);
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(perDay)) if (Number(k) > d - 90 && Number.isFinite(v)) out[k] = v;
  out[String(d)] = (out[String(d)] ?? 0) + 1;
  return out;
}
