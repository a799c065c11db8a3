// E2-E4: when a memory happened. Stored for time filters and recency boosts; never used for
// relevance or divergence: they encode when, not what, and two memories from the same hour need
// not be about the same thing.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** E2 periods: a day to ten years. Cosine of two encodings = mean of cos(2π Δt / P). */
export const RECENCY_PERIODS_MS = [DAY, 7 * DAY, 30 * DAY, 365 * DAY, 3650 * DAY];

/** E2: multi-scale phase of the absolute creation time; close times -> cosine near 1. */
export function recencyFeatures(createdAt: number): Float32Array {
  const out = new Float32Array(RECENCY_PERIODS_MS.length * 2);
  RECENCY_PERIODS_MS.forEach((p, i) => {
    const phase = (2 * Math.PI * (createdAt % p)) / p;
    out[2 * i] = Math.cos(phase);
    out[2 * i + 1] = Math.sin(phase);
  });
  return out;
}

/**
 * E3: hour of day, day of week and month of year as sin / cos pairs (cyclic: 23:00 is next
 * to 00:00). `tzOffsetMinutes` = minutes to add to UTC for local time (e.g. +60 for CET).
 */
export function periodicFeatures(createdAt: number, tzOffsetMinutes = 0): Float32Array {
  const d = new Date(createdAt + tzOffsetMinutes * 60_000);
  const hour = d.getUTCHours() + d.getUTCMinutes() / 60;
  const dow = d.getUTCDay() + hour / 24;
  const month = d.getUTCMonth() + (d.getUTCDate() - 1) / 31;
  const pair = (x: number, period: number) => [Math.cos((2 * Math.PI * x) / period), Math.sin((2 * Math.PI * x) / period)];
  return Float32Array.from([...pair(hour, 24), ...pair(dow, 7), ...pair(month, 12)]);
}

export const POSITION_DIM = 8;

/** E4: position within the session (0-based), transformer-style sinusoids at 4 scales. */
export function positionFeatures(position: number): Float32Array {
  const p = Math.max(0, Math.floor(Number.isFinite(position) ? position : 0));
  const out = new Float32Array(POSITION_DIM);
  for (let i = 0; i < POSITION_DIM / 2; i++) {
    const scale = 4 ** (i + 1); // periods 4, 16, 64, 256 turns
    out[2 * i] = Math.cos((2 * Math.PI * p) / scale);
    out[2 * i + 1] = Math.sin((2 * Math.PI * p) / scale);
  }
  return out;
}
