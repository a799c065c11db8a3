// The adaptive mode of the deep-search design (seed 003, phase 3): the trigger's threshold moves per
// query category from the history of hits, within bounds.
//
// Category (decided here, from the words of the query alone, so the same query always falls in
// the same one): 'time' (when / what day / how long / before / after / a year or month name),
// 'person' (who / whom / whose / with whom), 'reason' (why / how), else 'other'. The first rule that
// matches wins, in that order.
//
// A hit: an escalation whose reader scored a memory outside the primary results at HIT_SCORE (0.5)
// or more: deep search found something the primary ranking had missed. Per category the history is
// { escalations, hits }, halved once escalations reach HISTORY_CAP (50) so old outcomes fade.
//
// Threshold: below MIN_SAMPLES (5) escalations the base threshold (the option); then
//   threshold = base + SPAN x (2 x hitRate - 1), clipped to [base - SPAN, base + SPAN] and [0, 1]
// with SPAN 0.15: a category where deep search usually finds something escalates more often
// (hit rate 1: base + 0.15), one where it rarely does escalates less (hit rate 0: base - 0.15),
// hit rate 0.5 leaves the base. Pure; the services persist the history (setting deepAdaptive).

import type { MemoryId } from '../types';
import { timeMentions } from './reader';

export const QUERY_CATEGORIES = ['time', 'person', 'reason', 'other'] as const;
export type QueryCategory = (typeof QUERY_CATEGORIES)[number];

export const ADAPTIVE = { span: 0.15, minSamples: 5, historyCap: 50, hitScore: 0.5 } as const;

export type AdaptiveHistory = Partial<Record<QueryCategory, { escalations: number; hits: number }>>;

const TIME = /\b(when|what (day|date|time|year|month|week)|how (long|often)|before|after|since|until|ago|yesterday|today|tomorrow|last (week|month|year|night)|next (week|month|year))\b/i;
const PERSON = /\b(who|whom|whose|with whom)\b/i;
const REASON = /\b(why|how)\b/i;

export function queryCategory(text: string): QueryCategory {
  const t = timeMentions(text);
  if (TIME.test(text) || t.years.length > 0 || t.months.length > 0) return 'time';
  if (PERSON.test(text)) return 'person';
  if (REASON.test(text)) return 'reason';
  return 'other';
}

/** Did this escalation find something the primary missed (a non-primary candidate read >= 0.5)? */
export function isHit(primaryIds: readonly MemoryId[], scores: readonly { id: MemoryId; score: number }[], hitScore: number = ADAPTIVE.hitScore): boolean {
  const primary = new Set(primaryIds);
  return scores.some((s) => !primary.has(s.id) && s.score >= hitScore);
}

/** The history after one escalation of `category` (a new object; halved at the cap). */
export function recordEscalation(h: AdaptiveHistory, category: QueryCategory, hit: boolean): AdaptiveHistory {
  const was = h[category] ?? { escalations: 0, hits: 0 };
  let next = { escalations: was.escalations + 1, hits: was.hits + (hit ? 1 : 0) };
  if (next.escalations >= ADAPTIVE.historyCap) next = { escalations: next.escalations / 2, hits: next.hits / 2 };
  return { ...h, [category]: next };
}

/** The threshold for a query of `category` given the history (see the rule above). */
export function adaptiveThreshold(base: number, h: AdaptiveHistory, category: QueryCategory): number {
  const c = h[category];
  if (!c || c.escalations < ADAPTIVE.minSamples) return base;
  const rate = Math.min(1, Math.max(0, c.hits / c.escalations));
  const t = base + ADAPTIVE.span * (2 * rate - 1);
  const lo = Math.max(0, base - ADAPTIVE.span);
  const hi = Math.min(1, base + ADAPTIVE.span);
  return Math.min(hi, Math.max(lo, t));
}

/** A stored history as used: unknown categories and bad counts dropped. */
export function adaptiveHistoryFrom(raw: unknown): AdaptiveHistory {
  const out: AdaptiveHistory = {};
  if (!raw || typeof raw !== 'object') return out;
  for (const c of QUERY_CATEGORIES) {
    const v = (raw as Record<string, unknown>)[c] as { escalations?: unknown; hits?: unknown } | undefined;
    if (!v || typeof v !== 'object') continue;
    const e = v.escalations;
    const hits = v.hits;
    if (typeof e === 'number' && typeof hits === 'number' && Number.isFinite(e) && Number.isFinite(hits) && e >= 0 && hits >= 0 && hits <= e) out[c] = { escalations: e, hits };
  }
  return out;
}
