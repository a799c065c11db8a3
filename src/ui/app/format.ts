// Small formatting helpers for the app shell and the Explore panels.
import { isAppError } from '../../core/errors';
import { formatReinforce } from '../../core/recall';

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

export function formatWhen(ms: number, now = Date.now()): string {
  const d = new Date(ms);
  const sameDay = new Date(now).toDateString() === d.toDateString();
  return sameDay
    ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
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
