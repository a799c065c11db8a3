// Stage 2b, session context: a memory right next to a strong hit in its session gains a share of
// that hit's score. A conversation turn ("Melanie: Yes, last Saturday!") or a quick follow-up note
// often carries the answer while its neighbour carries the question's words; scoring each memory
// with its neighbours as context is the ranking-time form of contextual document expansion.
//
//   score'(m) = score(m) + weight x max over m's neighbours n of score(n)
//
// where the neighbours are the memories immediately before and after m in its session (by time,
// then id), and score(n) is the blended score before this stage (0 for a neighbour that is not a
// candidate). A neighbour of a candidate that is not a candidate itself enters with weight x that
// candidate's score (its explanation holds only its cosine to the query). weight 0 or no
// neighbour lookup = the hits come back untouched (the same array). README "Session context" has
// the figures that chose the weight per encoder.

import { compareRanked } from '../recall';
import type { MatchExplanation, MemoryId, ScoredHit } from '../types';
import { dot, normalize } from '../vector';
import type { PipelineContext, PipelineQuery } from './types';

export type NeighboursOf = (id: MemoryId) => readonly MemoryId[];

/**
 * The lookup of each memory's neighbours in its session: the one before and the one after it by
 * (createdAt, id). A memory without a session (empty id) has none.
 */
export function sessionNeighbours(docs: Iterable<{ id: MemoryId; sessionId: string; createdAt: number }>): NeighboursOf {
  const bySession = new Map<string, { id: MemoryId; createdAt: number }[]>();
  for (const d of docs) {
    if (!d.sessionId) continue;
    let l = bySession.get(d.sessionId);
    if (!l) bySession.set(d.sessionId, (l = []));
    l.push({ id: d.id, createdAt: d.createdAt });
  }
  const out = new Map<MemoryId, MemoryId[]>();
  for (const l of bySession.values()) {
    l.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    l.forEach((d, i) => {
      const n: MemoryId[] = [];
      if (i > 0) n.push(l[i - 1].id);
      if (i + 1 < l.length) n.push(l[i + 1].id);
      out.set(d.id, n);
    });
  }
  const none: readonly MemoryId[] = [];
  return (id) => out.get(id) ?? none;
}

const noMatch = (cosine: number): MatchExplanation => ({ lexical: 0, semantic: 0, bm25: 0, cosine, matchedTerms: [] });

/** The session-context stage over the blended hits (best first on return). */
export function sessionContext(ctx: PipelineContext, q: PipelineQuery, hits: ScoredHit[], weight: number): ScoredHit[] {
  const neighboursOf = ctx.neighboursOf;
  if (!(weight > 0) || !neighboursOf || hits.length === 0) return hits;
  const before = new Map(hits.map((h) => [h.id, h.score]));
  const boost = new Map<MemoryId, number>();
  for (const h of hits) {
    for (const n of neighboursOf(h.id)) {
      const s = weight * Math.max(0, h.score);
      if (s > (boost.get(n) ?? 0)) boost.set(n, s);
    }
  }
  const qv = q.features.E1;
  const qUnit = qv ? normalize(qv) : null;
  const out: ScoredHit[] = hits.map((h) => {
    const b = boost.get(h.id) ?? 0;
    return b > 0 ? { ...h, score: h.score + b } : h;
  });
  for (const [id, b] of boost) {
    if (before.has(id)) continue;
    const v = qUnit ? ctx.hybrid.vectorOf(id) : undefined;
    out.push({ id, score: b, mode: 'standard', why: noMatch(v && qUnit ? dot(qUnit, v) : 0) });
  }
  return out.sort(compareRanked);
}
