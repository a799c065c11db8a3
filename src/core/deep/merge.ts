// Result merging of the deep-search design (seed 003, D): a weighted blend of two lists, each over
// its own best score (the reader's scale is not the ranking's): the primary results x (1 - weight)
// and the reader's scores x weight; a memory in both keeps the higher of its two scores. Constraint memories (tagged
// `constraint`: rules such as "never book meetings on Fridays") that the reader finds relevant
// (score >= constraintFloor) always surface: they take the last places of the top K if the blend
// left them out.
// Reserved slots (`reserve`, docs/research/quality.md "Sixth pass"): instead of the blend, the
// primary's first `keep` results stay where they are, the next `slots` places go to the reader's best
// candidates from outside the primary's top K (reader score > 0, best first, ties by id), and the
// primary's results from rank keep + 1 on fill what is left. Each place keeps the primary's score
// profile (place i scores the primary's i-th score over its best), so the list stays ordered by score.

import type { MemoryId } from '../types';
import type { ReaderScore } from './reader';

export const CONSTRAINT_TAG = 'constraint';
export const CONSTRAINT_FLOOR = 0.3;

export interface MergedHit {
  id: MemoryId;
  score: number;
  /** Where the score came from: the primary list, the reader, or a surfaced constraint. */
  source: 'primary' | 'deep' | 'constraint';
  readerScore?: number;
  reasons?: string[];
}

export interface MergeOptions {
  weight: number;
  topK: number;
  isConstraint?: (id: MemoryId) => boolean;
  constraintFloor?: number;
  /** Reserved slots instead of the blend (absent or slots 0 = the blend). keep + slots <= topK. */
  reserve?: { keep: number; slots: number };
}

const cmp = (a: MergedHit, b: MergedHit) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The reserved-slot merge (see the header); `primary` best first. */
function mergeReserved(primary: readonly { id: MemoryId; score: number }[], read: readonly ReaderScore[], o: MergeOptions & { reserve: { keep: number; slots: number } }): MergedHit[] {
  const keep = Math.max(0, Math.min(o.topK, Math.floor(o.reserve.keep)));
  const slots = Math.max(0, Math.min(o.topK - keep, Math.floor(o.reserve.slots)));
  const max = primary.reduce((m, h) => Math.max(m, h.score), 0);
  const readOf = new Map(read.map((r) => [r.id, r]));
  const top = new Set(primary.slice(0, o.topK).map((h) => h.id));
  const picks = read
    .filter((r) => r.score > 0 && !top.has(r.id))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, slots);
  const picked = new Set(picks.map((r) => r.id));
  const order: { id: MemoryId; source: MergedHit['source'] }[] = [
    ...primary.slice(0, keep).map((h) => ({ id: h.id, source: 'primary' as const })),
    ...picks.map((r) => ({ id: r.id, source: 'deep' as const })),
    ...primary.slice(keep).filter((h) => !picked.has(h.id)).map((h) => ({ id: h.id, source: 'primary' as const })),
  ].slice(0, o.topK);
  const profile = primary.map((h) => (max > 0 ? h.score / max : 0));
  return order.map((x, i) => {
    const r = readOf.get(x.id);
    const score = profile[Math.min(i, profile.length - 1)] ?? 0;
    return { id: x.id, score, source: x.source, ...(r ? { readerScore: r.score, reasons: r.reasons } : {}) };
  });
}

export function mergeDeep(primary: readonly { id: MemoryId; score: number }[], read: readonly ReaderScore[], o: MergeOptions): MergedHit[] {
  if (o.reserve && o.reserve.slots > 0) return surfaceConstraints(mergeReserved(primary, read, { ...o, reserve: o.reserve }), read, o);
  const max = primary.reduce((m, h) => Math.max(m, h.score), 0);
  const maxRead = read.reduce((m, r) => Math.max(m, r.score), 0);
  const out = new Map<MemoryId, MergedHit>();
  for (const h of primary) out.set(h.id, { id: h.id, score: (1 - o.weight) * (max > 0 ? h.score / max : 0), source: 'primary' });
  for (const r of read) {
    const s = maxRead > 0 ? (o.weight * r.score) / maxRead : 0;
    const have = out.get(r.id);
    if (!have) out.set(r.id, { id: r.id, score: s, source: 'deep', readerScore: r.score, reasons: r.reasons });
    else {
      have.readerScore = r.score;
      have.reasons = r.reasons;
      if (s > have.score) {
        have.score = s;
        have.source = 'deep';
      }
    }
  }
  const ranked = [...out.values()].sort(cmp);
  return surfaceConstraints(ranked.slice(0, o.topK), read, o, out);
}

/** A relevant constraint the merge left out takes the lowest non-constraint place (see the header). */
function surfaceConstraints(top: MergedHit[], read: readonly ReaderScore[], o: MergeOptions, out?: ReadonlyMap<MemoryId, MergedHit>): MergedHit[] {
  if (o.isConstraint) {
    const floor = o.constraintFloor ?? CONSTRAINT_FLOOR;
    const shown = new Set(top.map((h) => h.id));
    const missing = read
      .filter((r) => r.score >= floor && o.isConstraint!(r.id) && !shown.has(r.id))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    for (const r of missing.slice(0, o.topK)) {
      // replace the lowest non-constraint result
      let i = top.length - 1;
      while (i >= 0 && o.isConstraint(top[i].id)) i--;
      const hit: MergedHit = { ...(out?.get(r.id) ?? { id: r.id, score: top[i]?.score ?? top[top.length - 1]?.score ?? 0, readerScore: r.score, reasons: r.reasons }), source: 'constraint' };
      if (top.length < o.topK) top.push(hit);
      else if (i >= 0) top[i] = hit;
    }
    top.sort(cmp);
  }
  return top;
}
