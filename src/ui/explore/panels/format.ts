// Small, pure formatting helpers shared by the Explore panels.

/** Fixed decimals; a non-finite number shows as "–" rather than "NaN". */
export function fixed(n: number | undefined | null, digits = 2): string {
  return typeof n === 'number' && Number.isFinite(n) ? n.toFixed(digits) : '–';
}

/** 0.42 -> "42%". */
export function percent(n: number): string {
  return Number.isFinite(n) ? `${Math.round(n * 100)}%` : '–';
}

// Dates: formatDate / isoDateTime in src/ui/app/format.ts (the one date format of the app).

/** "0.5" -> 0.5; "" -> undefined; anything else that is not a finite number -> the raw text (so a
 *  validator can name what was typed). */
export function parseNumberField(raw: string): number | string | undefined {
  const t = raw.trim();
  if (t === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
}

/** Clamp to [0, 1] for drawing a bar. */
export function unit(n: number): number {
  if (!Number.isFinite(n)) return 0;
  return Math.min(1, Math.max(0, n));
}
