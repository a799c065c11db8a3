// Small formatting helpers for the app shell and the Explore panels.
import { isAppError } from '../../core/errors';
import { formatReinforce } from '../../core/recall';
import { onActiveScale } from './encoder-scale';

export function formatBytes(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return '—';
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/**
 * THE date format of the app (issue 12, point 14): one localised form everywhere a date shows,
 * made by `Intl.DateTimeFormat` with the reader's locale, e.g. "2 May 2026, 08:15" (en-GB),
 * "May 2, 2026, 8:15 AM" (en-US), "02.05.2026, 08:15" (de-DE). Date and time always, so two
 * memories of one day stay apart and a list never mixes "14:05" with "12 Nov". A missing or
 * impossible time reads "unknown date". `locale` / `timeZone` are for tests (default: the reader's).
 */
export function formatDate(ms: number | null | undefined, opts: { locale?: string; timeZone?: string } = {}): string {
  if (ms == null || !Number.isFinite(ms)) return 'unknown date';
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return 'unknown date';
  return dateFormatter(opts.locale, opts.timeZone).format(d);
}

/** The machine form for `<time dateTime>` and titles (ISO 8601, UTC); '' when there is none. */
export function isoDateTime(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms)) return '';
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

/** When a memory happened: its valid-from time (the capture time unless the person said otherwise). */
export function happenedAt(m: { createdAt: number; validFrom?: number | null }): number {
  return m.validFrom != null && Number.isFinite(m.validFrom) ? m.validFrom : m.createdAt;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function dateFormatter(locale: string | undefined, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${locale ?? ''}|${timeZone ?? ''}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) });
    formatters.set(key, f);
  }
  return f;
}

/** @deprecated the old name of formatDate (kept so every caller shows the one format). */
export function formatWhen(ms: number): string {
  return formatDate(ms);
}

/** Splits text into plain and matched pieces; a term matches a word that starts with it (stems). */
export function highlight(text: string, terms: readonly string[]): { text: string; hit: boolean }[] {
  const clean = terms.map((t) => t.trim().toLowerCase()).filter((t) => t.length > 1);
  if (!clean.length) return [{ text, hit: false }];
  const esc = clean.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).sort((a, b) => b.length - a.length);
  const re = new RegExp(`\\b(?:${esc.join('|')})\\w*`, 'gi');
  const out: { text: string; hit: boolean }[] = [];
  let last = 0;
  for (const m of text.matchAll(re)) {
    const i = m.index ?? 0;
    if (i > last) out.push({ text: text.slice(last, i), hit: false });
    out.push({ text: m[0], hit: true });
    last = i + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last), hit: false });
  return out;
}

/** Display preview of a possibly huge text: never puts megabytes into the DOM. */
export function preview(text: string, max = 600): { text: string; cut: boolean } {
  return text.length > max ? { text: text.slice(0, max).trimEnd() + '…', cut: true } : { text, cut: false };
}

/**
 * "👍 Reinforced 'Took the car to the garage…' with valence=50 (lateral result — feedback
 * recorded)" (👎 below zero). `name` is how the person knows the memory: its first words.
 */
export function formatReinforceLine(name: string, valence: number, wasLateral: boolean): string {
  return `${valence < 0 ? '👎' : '👍'} ${formatReinforce(name, valence, wasLateral)}`;
}

/** "🚫 Suppressed 'm' (reason)" with the same lateral note. */
export function formatSuppressLine(name: string, reason: string | undefined, wasLateral: boolean): string {
  const base = `🚫 Suppressed '${name}'${reason ? ` (${reason})` : ''}`;
  return wasLateral ? `${base} (lateral result — feedback recorded)` : base;
}

/** The words a person reads for a failure: an AppError's own message, else what was thrown. */
export function errorMessage(e: unknown): string {
  if (isAppError(e)) return e.message;
  if (e instanceof Error && e.message) return e.message;
  return String(e);
}

export type MatchLevel = 'strong' | 'good' | 'weak';
export interface MatchWords {
  level: MatchLevel;
  words: string;
  /** Bar fill in [0, 1]. */
  fill: number;
}

const LEVEL_WORDS: Record<MatchLevel, string> = { strong: 'strong match', good: 'good match', weak: 'weak match' };

function level(score: number, strong: number, good: number, full: number): MatchWords {
  const s = Number.isFinite(score) ? score : 0;
  const l: MatchLevel = s >= strong ? 'strong' : s >= good ? 'good' : 'weak';
  return { level: l, words: LEVEL_WORDS[l], fill: Math.min(1, Math.max(0, s / full)) };
}

/**
 * Search results carry the fused hybrid score: 0.5 x min-max(BM25) + 0.5 x min-max(cosine), in
 * [0, 1], where the best hit of each list normalises to 1. 0.6 and above needs the top of one
 * list plus more than a fifth of the other's range (both kinds of evidence): strong. 0.3 to 0.6 is
 * a good hit on one kind of evidence; below 0.3 it is neither near the top by words nor by meaning.
 */
export function searchMatch(score: number): MatchWords {
  return level(score, 0.6, 0.3, 1);
}

/**
 * Recall results carry the blended score: the same hybrid score in [0, 1] plus 0.2 x the mean
 * clipped z-score of the spaces (0..3), so it reaches 1.6. 0.8 and above is a strong hybrid hit,
 * or a fair one that several spaces single out (about +1.5 sd); 0.4 to 0.8 is good; below that weak.
 * The bar is full at 1.2 so the unusual 1.2-1.6 scores do not squash the rest.
 */
export function recallMatch(score: number): MatchWords {
  return level(score, 0.8, 0.4, 1.2);
}

/**
 * USE-lite cosine between unrelated sentences is mostly 0-0.25 and between paraphrases 0.4 and up,
 * so below 0.3 the meaning is not close (on USE-lite's scale: another encoder's is moved to its own,
 * src/ui/app/encoder-scale.ts; 0.145 for MiniLM).
 */
export const CLOSE_COSINE = 0.3;

/** The disclosure over results that are not close: "Show the 3 far ones anyway", "Show the far one anyway". */
export function farWords(n: number): string {
  return n === 1 ? 'Show the far one anyway' : `Show the ${n.toLocaleString('en')} far ones anyway`;
}

/** A hit is close when a query word matched (BM25 > 0 or a matched term) or the meaning is near. */
export function isClose(why: { matchedTerms: readonly string[]; bm25: number; cosine: number }): boolean {
  return why.matchedTerms.length > 0 || why.bm25 > 0 || (Number.isFinite(why.cosine) && why.cosine >= onActiveScale(CLOSE_COSINE));
}

/** Plain words for each space: what being similar there means to a person. */
const SPACE_WORDS: Record<string, string> = {
  E1: 'same meaning',
  E2: 'close in time',
  E3: 'same time of day or week',
  E4: 'same session',
  E5: 'same cause and effect',
  E6: 'same key words',
  E7: 'similar code',
  E8: 'same feeling',
  E9: 'similar spelling',
  E10: 'similar pictures',
  E11: 'same people and things',
  E12: 'similar wording',
  E13: 'related words',
};

export function spaceWords(id: string): string {
  return SPACE_WORDS[id] ?? id;
}

/** "on" / "off" for a setting a person reads. */
export function onOff(b: boolean): string {
  return b ? 'on' : 'off';
}
