import { describe, expect, it } from 'vitest';
import { HybridIndex } from '../hybrid';
import { sparseFromEntries, type EntityFeatures, type SpaceFeatures } from '../spaces';
import type { MemoryId } from '../types';
import { SpaceIndex } from './space-index';
import { DEFAULT_RANKING, divergenceAlerts, runPipeline, type PipelineContext } from './index';

const T0 = 1_700_000_000_000;
const sparse = (...keys: number[]) => sparseFromEntries(keys.map((k) => [k, 1]));
const ents = (...keys: number[]): EntityFeatures => ({
  entities: Uint32Array.from([...keys].sort((a, b) => a - b)),
  triples: { count: 0, dim: 0, heads: new Float32Array(0), tails: new Float32Array(0), relations: new Uint32Array(0) },
});
const vec = (...xs: number[]) => Float32Array.from(xs);
const deg = (d: number) => vec(Math.cos((d * Math.PI) / 180), Math.sin((d * Math.PI) / 180));

interface M {
  id: MemoryId;
  text: string;
  vector?: Float32Array;
  f: SpaceFeatures;
  createdAt?: number;
}

function build(ms: M[], ranking: PipelineContext['ranking'] = {}): PipelineContext {
  const hybrid = new HybridIndex(2);
  const spaces = new SpaceIndex();
  for (const m of ms) {
    const at = m.createdAt ?? T0;
    hybrid.upsert({ id: m.id, text: m.text, tags: [], importance: 0.5, createdAt: at, validFrom: at, validTo: null, status: 'active', vector: m.vector ?? null });
    spaces.upsert(m.id, { ...m.f, ...(m.vector ? { E1: m.vector } : {}) });
  }
  return { hybrid, spaces, now: T0, ranking, sessionOf: () => 's1' };
}

const ids = (rs: { id: string }[]) => rs.map((r) => r.id);

describe('SpaceIndex', () => {
  it('finds by inverted lists with exact per-space scores, and forgets removed memories', () => {
    const s = new SpaceIndex();
    s.upsert('a', { E7: sparse(1, 2) });
    s.upsert('b', { E7: sparse(1, 3) });
    s.upsert('c', { E7: sparse(4) });
    const hits = s.candidates({ E7: sparse(1, 2) }, 10);
    // E7 is sparse cosine: a: {1,2} vs {1,2} = 1; b: {1,3} vs {1,2} = 1 / (sqrt 2 sqrt 2) = 1/2;
    // c shares no key: never scored
    expect(hits.map((h) => [h.id, h.space, Number(h.score.toFixed(6))])).toEqual([
      ['a', 'E7', 1],
      ['b', 'E7', 0.5],
    ]);
    expect(s.candidates({ E7: sparse(1, 2) }, 1).map((h) => h.id)).toEqual(['a']);
    s.remove('a');
    expect(s.size).toBe(2);
    expect(s.candidates({ E7: sparse(1, 2) }, 10).map((h) => h.id)).toEqual(['b']);
    // re-upsert replaces the old postings
    s.upsert('b', { E7: sparse(9) });
    expect(s.candidates({ E7: sparse(1, 2) }, 10)).toEqual([]);
  });
  it('never finds anything through a temporal space', () => {
    const s = new SpaceIndex();
    s.upsert('a', { E2: vec(1, 0) });
    expect(s.candidates({ E2: vec(1, 0) }, 5, { spaces: ['E2', 'E3', 'E4'] })).toEqual([]);
  });
});

describe('runPipeline: candidates from every content space', () => {
  const code: M[] = [
    { id: 'a', text: 'the settings loader', f: { E7: sparse(1, 2) } },
    { id: 'b', text: 'a helper for paths', f: { E7: sparse(1, 3) } },
    { id: 'c', text: 'lunch with Ana', f: { E6: sparse(77) } },
  ];
  const query = { text: 'zzqx', features: { E7: sparse(1, 2) } };

  it('a memory relevant only in E7 is found by a code query sharing no words', () => {
    // hybrid alone: no word in common and no vectors -> nothing
    expect(runPipeline(build(code, { spaces: [] }), query, {})).toEqual([]);
    const r = runPipeline(build(code, { alpha: 0.1 }), query, {});
    // E7 sims a 1, b 1/3: mean 2/3, sd 1/3 -> z a = 1, b = -1 -> 0; score = 0 + 0.1 x z
    expect(ids(r)).toEqual(['a', 'b']);
    expect(r[0].score).toBeCloseTo(0.1, 10);
    expect(r[1].score).toBe(0);
    expect(r[0].hybridScore).toBe(0);
    expect(r[0].spaces.sims.E7).toBe(1);
    expect(r[0].spaces.relevant).toBe(true); // 1 > 0.80 (E7 high threshold)
    expect(r[0].spaces.relevance.relevantSpaces).toEqual(['E7']);
    expect(r[1].spaces.relevant).toBe(false); // 1/3 < 0.80
  });

  it('a memory relevant only in E11 is found by entity', () => {
    const ms: M[] = [
      { id: 'x', text: 'she signed the lease', f: { E11: ents(42) } },
      { id: 'y', text: 'they met at noon', f: { E11: ents(42, 7) } },
      { id: 'z', text: 'weather was fine', f: { E11: ents(5) } },
    ];
    const r = runPipeline(build(ms, { alpha: 0.1 }), { text: 'who is Bob', features: { E11: ents(42) } }, {});
    // Jaccard x 1, y 1/2 (z shares nothing): mean 3/4, sd 1/4 -> z x 1, y 0
    expect(ids(r)).toEqual(['x', 'y']);
    expect(r[0].score).toBeCloseTo(0.1, 10);
    expect(r[0].spaces.sims.E11).toBe(1);
    expect(r[0].spaces.relevant).toBe(true); // 1 > 0.70
    expect(r[1].spaces.sims.E11).toBe(0.5);
    expect(r[1].spaces.relevant).toBe(false);
  });

  it('temporal-only similarity never makes a result relevant', () => {
    const ms: M[] = [{ id: 't', text: 'coffee at dawn', f: { E2: vec(1, 0), E3: vec(0, 1), E6: sparse(3) } }];
    const r = runPipeline(build(ms), { text: 'coffee', features: { E2: vec(1, 0), E3: vec(0, 1), E6: sparse(9) } }, {});
    expect(ids(r)).toEqual(['t']); // found by BM25 ("coffee")
    expect(r[0].spaces.sims.E2).toBe(1);
    expect(r[0].spaces.sims.E3).toBe(1);
    expect(r[0].spaces.relevant).toBe(false);
    expect(r[0].spaces.highlyRelevant).toBe(false);
    expect(r[0].spaces.relevance.score).toBe(0);
  });

  it('with no ranking space the hybrid order and scores are untouched', () => {
    const ms: M[] = [
      { id: 'p', text: 'apple pie', vector: deg(0), f: {} },
      { id: 'q', text: 'apple tart', vector: deg(40), f: {} },
      { id: 'r', text: 'pear', vector: deg(80), f: {} },
    ];
    const ctx = build(ms, { spaces: [] });
    const r = runPipeline(ctx, { text: 'apple', features: { E1: deg(0) } }, {});
    const h = ctx.hybrid.search({ text: 'apple', vector: deg(0) }, { topK: 10 });
    expect(r.map((x) => [x.id, x.score])).toEqual(h.map((x) => [x.id, x.score]));
    expect(r.map((x) => x.hybridScore)).toEqual(h.map((x) => x.score));
  });
});

describe('runPipeline: associative hops', () => {
  // p is the direct hit; n sits 20° from p (cos 0.94 >= 0.72) but shares no word with the query
  const ms: M[] = [
    { id: 'p', text: 'apple harvest', vector: deg(0), f: {} },
    { id: 'n', text: 'orchard ladder', vector: deg(20), f: {} },
    { id: 'far', text: 'tax forms', vector: deg(170), f: {} },
  ];
  const q = { text: 'apple', features: { E1: deg(-90) } };

  it('assocHops 0 is byte-identical to the pipeline without the associative stage', () => {
    const base = JSON.stringify(runPipeline(build(ms), q, {}));
    expect(JSON.stringify(runPipeline(build(ms), q, { assocHops: 0 }))).toBe(base);
    // and hops that find nothing (minCosine 1) change nothing either
    expect(JSON.stringify(runPipeline(build(ms), q, { assocHops: 2, minCosine: 1 }))).toBe(base);
  });

  it('a hop adds the neighbour with its chain; a floor above its score keeps it out', () => {
    const direct = runPipeline(build(ms), q, { topK: 1 });
    expect(ids(direct)).toEqual(['p']);
    const r = runPipeline(build(ms), q, { topK: 1, assocHops: 1 });
    expect(ids(r)).toEqual(['p', 'n']);
    const n = r[1];
    expect(n.mode).toBe('associative');
    // child = parent x cos(20°) x hopDecay 0.8 (same session: no cross-scope penalty)
    expect(n.score).toBeCloseTo(r[0].score * Math.cos((20 * Math.PI) / 180) * 0.8, 6);
    expect(n.chain?.map((c) => [c.id, c.hop])).toEqual([['p', 0], ['n', 1]]);
    expect(ids(runPipeline(build(ms, { assocFloor: 0.8 }), q, { topK: 1, assocHops: 1 }))).toEqual(['p']); // 0.75 < 0.8
    expect(ids(runPipeline(build(ms, { assocMaxResults: 0 }), q, { topK: 1, assocHops: 1 }))).toEqual(['p']);
  });
});

describe('runPipeline: determinism', () => {
  it('same input, same output, whatever the insertion order', () => {
    const ms: M[] = [
      { id: 'a', text: 'rust borrow checker', vector: deg(10), f: { E6: sparse(1, 2), E7: sparse(5) } },
      { id: 'b', text: 'borrow a ladder', vector: deg(30), f: { E6: sparse(2), E11: ents(3) } },
      { id: 'c', text: 'checker board game', vector: deg(50), f: { E6: sparse(1), E11: ents(3, 4) } },
      { id: 'd', text: 'board meeting', vector: deg(70), f: { E7: sparse(5, 6) } },
    ];
    const q = { text: 'borrow checker', features: { E1: deg(20), E6: sparse(1, 2), E7: sparse(5), E11: ents(3) } };
    const one = JSON.stringify(runPipeline(build(ms), q, { assocHops: 2 }));
    expect(JSON.stringify(runPipeline(build(ms), q, { assocHops: 2 }))).toBe(one);
    expect(JSON.stringify(runPipeline(build([...ms].reverse()), q, { assocHops: 2 }))).toBe(one);
  });
  it('refuses a bad ranking config with INVALID_CONFIG', () => {
    expect(() => runPipeline(build([], { alpha: -1 }), { text: 'x', features: {} }, {})).toThrow(/alpha/);
    expect(() => runPipeline(build([], { spaces: ['E99' as never] }), { text: 'x', features: {} }, {})).toThrow(/spaces/);
    expect(DEFAULT_RANKING.spaces).not.toContain('E2');
  });
});

describe('divergenceAlerts', () => {
  const H = 3_600_000;
  it('uses the 2-hour window, the max over recent memories and a summary of the newest text', () => {
    const c = Math.sqrt(1 - 0.15 * 0.15);
    const ctx = build([
      { id: 'old', text: 'Discussing the same thing as now', f: { E1: vec(1, 0) }, createdAt: T0 - 3 * H },
      { id: 'new', text: 'Discussing authentication implementation', f: { E1: vec(0.15, c) }, createdAt: T0 - 1 * H },
    ]);
    const recent = [
      { id: 'old', text: 'Discussing the same thing as now', createdAt: T0 - 3 * H, sessionId: 's1' },
      { id: 'new', text: 'Discussing authentication implementation', createdAt: T0 - 1 * H, sessionId: 's1' },
    ];
    const alerts = divergenceAlerts(ctx, { E1: vec(1, 0), E2: vec(0, 1) }, recent, { now: T0, currentSessionId: 's1' });
    // the 3-hour-old memory (sim 1) is outside the window: E1 max = 0.15 < 0.30; E2 temporal: never
    expect(alerts.map((a) => a.embedder)).toEqual(['E1']);
    expect(alerts[0].similarity).toBeCloseTo(0.15, 6);
    expect(alerts[0].divergenceMagnitude).toBeCloseTo(0.15, 6);
    expect(alerts[0].recentMemorySummary).toBe('Discussing authentication implementation');
    // nothing recent -> no alerts
    expect(divergenceAlerts(ctx, { E1: vec(1, 0) }, [], { now: T0 })).toEqual([]);
  });
});

describe('SpaceIndex.similarities (fast E12)', () => {
  it('equals the registry maxsim (hand case) and spaceSimilarities elsewhere', async () => {
    const { tokenMatrix, spaceSimilarities } = await import('../spaces');
    const s = new SpaceIndex();
    // memory tokens (1,0), (0,2), (0,0 = unknown word); query tokens (3,4)
    const mem = { E12: tokenMatrix([[1, 0], [0, 2], [0, 0]]), E6: sparse(1, 2) };
    s.upsert('m', mem);
    const q = { E12: tokenMatrix([[3, 4]]), E6: sparse(1) };
    const got = s.similarities(q, 'm', ['E6', 'E12']);
    // the query is the shorter side: best cosine of (0.6, 0.8) is max(0.6, 0.8) = 0.8; E6 Jaccard 1/2
    expect(got.E12).toBeCloseTo(0.8, 6);
    expect(got.E6).toBe(0.5);
    const ref = spaceSimilarities(q, mem, { spaces: ['E6', 'E12'] });
    expect(got.E12).toBeCloseTo(ref.E12!, 6);
    expect(s.similarities(q, 'nobody', ['E12'])).toEqual({});
    expect(s.similarities({ E12: tokenMatrix([[NaN, 1]]) }, 'm', ['E12']).E12).toBe(0);
  });
});
