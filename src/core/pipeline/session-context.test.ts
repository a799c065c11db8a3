// The session-context stage: values worked by hand from score'(m) = score(m) + w x max neighbour score.
import { describe, expect, it } from 'vitest';
import { HybridIndex } from '../hybrid';
import type { ScoredHit } from '../types';
import { runPipeline } from './pipeline';
import { resolveRanking } from './ranking';
import { sessionContext, sessionNeighbours } from './session-context';
import { SpaceIndex } from './space-index';
import type { PipelineContext } from './types';

const hit = (id: string, score: number): ScoredHit => ({ id, score, mode: 'standard', why: { lexical: 0, semantic: 0, bm25: 0, cosine: 0, matchedTerms: [] } });

function ctxWith(neighbours?: Record<string, string[]>): PipelineContext {
  const hybrid = new HybridIndex(2);
  for (const [id, angle] of [['q1', 0], ['a1', 90], ['x', 60], ['y', 0], ['z', 0]] as const)
    hybrid.upsert({ id, text: id, tags: [], importance: 0.5, createdAt: 0, validFrom: 0, validTo: null, status: 'active', vector: new Float32Array([Math.cos((angle * Math.PI) / 180), Math.sin((angle * Math.PI) / 180)]) });
  return { hybrid, spaces: new SpaceIndex(), neighboursOf: neighbours ? (id) => neighbours[id] ?? [] : undefined };
}
const q = { text: '', features: { E1: new Float32Array([1, 0]) } };

/** A question and its reply in one session, a third memory in another: the index and the session neighbours. */
function lakeSessions() {
  const hybrid = new HybridIndex(2);
  const add = (id: string, text: string, createdAt: number, v: [number, number]) =>
    hybrid.upsert({ id, text, tags: [], importance: 0.5, createdAt, validFrom: 0, validTo: null, status: 'active', vector: new Float32Array(v) });
  add('ask', 'did you go to the lake festival', 1, [1, 0]);
  add('reply', 'yes last saturday with the kids', 2, [0, 1]);
  add('other', 'lake trip photos', 50, [0.6, 0.8]);
  const n = sessionNeighbours([
    { id: 'ask', sessionId: 's1', createdAt: 1 },
    { id: 'reply', sessionId: 's1', createdAt: 2 },
    { id: 'other', sessionId: 's2', createdAt: 50 },
  ]);
  return { hybrid, n };
}

describe('sessionNeighbours', () => {
  it('gives the memory before and after in the same session, by time then id; none without a session', () => {
    const n = sessionNeighbours([
      { id: 'b', sessionId: 's', createdAt: 2 },
      { id: 'a', sessionId: 's', createdAt: 1 },
      { id: 'c2', sessionId: 's', createdAt: 3 },
      { id: 'c1', sessionId: 's', createdAt: 3 },
      { id: 'other', sessionId: 't', createdAt: 2 },
      { id: 'loose', sessionId: '', createdAt: 2 },
    ]);
    expect(n('a')).toEqual(['b']);
    expect(n('b')).toEqual(['a', 'c1']);
    expect(n('c1')).toEqual(['b', 'c2']);
    expect(n('c2')).toEqual(['c1']);
    expect(n('other')).toEqual([]);
    expect(n('loose')).toEqual([]);
    expect(n('unknown')).toEqual([]);
  });
});

describe('sessionContext', () => {
  it('adds w x the best neighbour score, and brings in a neighbour that was not a candidate', () => {
    // q1 (0.8) asks, a1 (0.3) answers right after it, x (0.5) is elsewhere; a1 is also next to z (not a candidate)
    const ctx = ctxWith({ q1: ['a1'], a1: ['q1', 'z'], x: ['y'], z: ['a1'] });
    const out = sessionContext(ctx, q, [hit('q1', 0.8), hit('x', 0.5), hit('a1', 0.3)], 0.25);
    // q1: 0.8 + 0.25 x 0.3 = 0.875; a1: 0.3 + 0.25 x 0.8 = 0.5; x: 0.5 + 0 (y is no candidate);
    // y: 0.25 x 0.5 = 0.125 (its cosine to the query: 1); z: 0.25 x 0.3 = 0.075
    expect(out.map((h) => [h.id, Number(h.score.toFixed(6))])).toEqual([
      ['q1', 0.875],
      ['a1', 0.5],
      ['x', 0.5],
      ['y', 0.125],
      ['z', 0.075],
    ]);
    expect(out.find((h) => h.id === 'y')!.why.cosine).toBeCloseTo(1, 6);
    expect(out.find((h) => h.id === 'y')!.why.matchedTerms).toEqual([]);
  });
  it('weight 0 or no neighbour lookup returns the same hits untouched', () => {
    const hits = [hit('q1', 0.8), hit('a1', 0.3)];
    expect(sessionContext(ctxWith({ q1: ['a1'] }), q, hits, 0)).toBe(hits);
    expect(sessionContext(ctxWith(), q, hits, 0.1)).toBe(hits);
  });
  it('the ranking validates it and runPipeline applies it (0 = the same output as before)', () => {
    expect(() => resolveRanking({ sessionContext: -0.1 })).toThrow(/sessionContext/);
    expect(() => resolveRanking({ sessionContext: Number.NaN })).toThrow(/sessionContext/);
    const { hybrid, n } = lakeSessions();
    const base: PipelineContext = { hybrid, spaces: new SpaceIndex(), neighboursOf: n, ranking: { spaces: [] } };
    const query = { text: 'lake festival', features: { E1: new Float32Array([1, 0]) } };
    const off = runPipeline(base, query, { topK: 3 });
    expect(off.map((r) => r.id)).toEqual(['ask', 'other', 'reply']);
    const on = runPipeline({ ...base, ranking: { spaces: [], sessionContext: 0.5 } }, query, { topK: 3 });
    // the reply gains half of the question's score and passes the other session's memory
    const s = new Map(off.map((r) => [r.id, r.score]));
    expect(on.map((r) => r.id)).toEqual(['ask', 'reply', 'other']);
    expect(on.find((r) => r.id === 'reply')!.score).toBeCloseTo(s.get('reply')! + 0.5 * s.get('ask')!, 9);
    expect(on.find((r) => r.id === 'other')!.score).toBeCloseTo(s.get('other')!, 9);
  });
  it('steps aside for RRF-fused extra lists (rank-scale scores), and runs with the anchored fusion', () => {
    const { hybrid, n } = lakeSessions();
    const query = { text: 'lake festival', features: { E1: new Float32Array([1, 0]) }, variants: [{ text: 'lake fair', vector: new Float32Array([0.6, 0.8]) }] };
    const run = (w: number, anchored: boolean) =>
      runPipeline({ hybrid, spaces: new SpaceIndex(), neighboursOf: n, ranking: { spaces: [], sessionContext: w }, ...(anchored ? { deepFusion: { mode: 'anchored' as const, weight: 0.15 } } : {}) }, query, { topK: 3, multiQuery: 2 });
    expect(JSON.stringify(run(0.5, false))).toBe(JSON.stringify(run(0, false)));
    const off = new Map(run(0, true).map((r) => [r.id, r.score]));
    const on = new Map(run(0.5, true).map((r) => [r.id, r.score]));
    expect(on.get('reply')).toBeCloseTo(off.get('reply')! + 0.5 * off.get('ask')!, 9);
  });
});
