// Stage 3b, time (seed 001): decay-aware ranking and superseded versions, after the standard pool.
//
// Decay (opt-in, `decayTauDays` > 0): score x exp(-elapsedDays / (decayTauDays x strength)), where
// elapsedDays runs from the memory's last access (open, reinforce, cite; absent = createdAt) to
// `now` (the clock seam: the pipeline context's `now`, the services' clock) and strength >= 1
// (absent = 1, so a memory never reinforced decays by exactly the seed's exp(-elapsed / tau)).
// It only re-ranks: nothing is removed, a decayed memory is still found.
// Superseded (an earlier version of an edited memory): x SUPERSEDED_FACTOR, and when the memory
// that replaced it is in the same list, strictly below it (x SUPERSEDED_FACTOR of its score).
// Neither applies (decay off, no earlier version in the list): the input comes back untouched.

import { compareRanked, type RecallDoc } from '../recall';
import type { MemoryId, ScoredHit } from '../types';

export const DAY_MS = 86_400_000;
/** An earlier version's score factor (and its cap below the memory that replaced it). */
export const SUPERSEDED_FACTOR = 0.5;

/** exp(-elapsedDays / (tauDays x strength)); 1 when tauDays is 0 (off) or the access is in the future. */
export function decayFactor(lastAccessedAt: number, now: number, tauDays: number, strength = 1): number {
  if (!(tauDays > 0)) return 1;
  const elapsedDays = Math.max(0, now - lastAccessedAt) / DAY_MS;
  const s = Number.isFinite(strength) && strength >= 1 ? strength : 1;
  return Math.exp(-elapsedDays / (tauDays * s));
}

export interface TimeOptions {
  decayTauDays: number;
}

/** The hits re-ranked for decay and superseded versions (best first); `hits` itself when neither applies. */
export function applyTime<H extends ScoredHit>(
  hits: readonly H[],
  docOf: (id: MemoryId) => RecallDoc | undefined,
  o: TimeOptions,
  now: number,
): H[] {
  const decay = o.decayTauDays > 0;
  const superseded = hits.some((h) => docOf(h.id)?.supersededBy !== undefined);
  if (!decay && !superseded) return hits as H[];
  let out = hits.map((h): H => {
    if (!decay) return h;
    const d = docOf(h.id);
    if (!d) return h;
    const f = decayFactor(d.lastAccessedAt ?? d.createdAt, now, o.decayTauDays, d.strength ?? 1);
    return f === 1 ? h : { ...h, score: h.score * f };
  });
  if (superseded) {
    const scoreOf = new Map(out.map((h) => [h.id, h.score]));
    out = out.map((h) => {
      const by = docOf(h.id)?.supersededBy;
      if (by === undefined) return h;
      let score = h.score * SUPERSEDED_FACTOR;
      const successor = scoreOf.get(by);
      if (successor !== undefined && score >= successor) score = successor * SUPERSEDED_FACTOR;
      return { ...h, score };
    });
  }
  return out.sort(compareRanked);
}
