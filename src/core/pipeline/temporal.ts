// Stage 3b, time (seed 001): decay-aware ranking and superseded versions, after the standard pool.
//
// Decay (opt-in, `decayTauDays` > 0): score x exp(-elapsedDays / (decayTauDays x strength)), where
// elapsedDays runs from the memory's last access (open, reinforce, cite; absent = createdAt) to
// `now` (the clock seam: the pipeline context's `now`, the services' clock) and strength >= 1
// (absent = 1, so a memory never reinforced decays by exactly the seed's exp(-elapsed / tau)).
// It only re-ranks: nothing is removed, a decayed memory is still found.
// Superseded (an earlier version of an edited memory): x SUPERSEDED_FACTOR, and when the memory
// that replaced it is in the same list, strictly below it (x SUPERSEDED_FACTOR of its score).
// An earlier version with the same text as its memory (only tags, importance or source changed) is
// left out while its memory passes the gate: it would show the same words twice.
// Neither applies (decay off, no earlier version in the list): the input comes back untouched.

import { compareRanked, type RecallDoc } from '../recall';
import { isRecallable, type StatusGate } from '../status';
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

export interface TimeOptions extends StatusGate {
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
    // an earlier version with its memory's very text (a tag, importance or source edit) adds nothing to a list
    out = out.filter((h) => !sameAsItsMemory(docOf(h.id), docOf, o));
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

/**
 * An earlier version whose memory (the current version) passes the same gate: it is history, so
 * it is never a lateral result nor reached by an associative hop (a walk from a memory would find
 * its own old text at cosine ~1). With asOf before the edit the memory itself does not pass, and
 * the earlier version takes part like any memory.
 */
export function isShadowed(d: RecallDoc | undefined, docOf: (id: MemoryId) => RecallDoc | undefined, gate: StatusGate): boolean {
  return d?.supersededBy !== undefined && isRecallable(docOf(d.supersededBy), gate);
}

/** An earlier version whose text is its memory's, while that memory passes the gate. */
export function sameAsItsMemory(d: RecallDoc | undefined, docOf: (id: MemoryId) => RecallDoc | undefined, gate: StatusGate): boolean {
  if (d?.supersededBy === undefined || d.text === undefined) return false;
  const memory = docOf(d.supersededBy);
  return memory !== undefined && memory.text === d.text && isRecallable(memory, gate);
}
