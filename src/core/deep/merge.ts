// Result merging of the deep-search design (seed 003, D): a weighted blend of two lists, each over
// its own best score (the reader's scale is not the ranking's): the primary results x (1 - weight)
// and the reader's scores x weight; a memory in both keeps the higher of its two scores. Constraint memories (tagged
// `constraint`: rules such as "never book meetings on Fridays") that the reader finds relevant
// (score >= constraintFloor) always surface: they take the last places of the top K if the blend
// left them out.

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
}

const cmp = (a: MergedHit, b: MergedHit) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function mergeDeep(primary: readonly { id: MemoryId; score: number }[], read: readonly ReaderScore[], o: MergeOptions): MergedHit[] {
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
  const top = ranked.slice(0, o.topK);
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
      const hit: MergedHit = { ...out.get(r.id)!, source: 'constraint' };
      if (top.length < o.topK) top.push(hit);
      else if (i >= 0) top[i] = hit;
    }
    top.sort(cmp);
  }
  return top;
}
