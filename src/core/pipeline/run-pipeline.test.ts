// runPipeline over a real HybridIndex (the app's path end to end), and the first stages alone.
import { describe, expect, it } from 'vitest';
import { HybridIndex } from '../hybrid';
import { resolveRecallOptions } from '../recall';
import { DEFAULT_SIMILARITY_CONFIG, sparseFromEntries } from '../spaces';
import { annotate } from './annotate';
import { blend, blendScores, lexicalEvidence } from './blend';
import { gatherCandidates } from './candidates';
import { runPipeline } from './pipeline';
import { resolveRanking } from './ranking';
import { SpaceIndex } from './space-index';
import type { PipelineContext } from './types';

const NOW = 1_700_000_000_000;
const deg = (d: number) => (d * Math.PI) / 180;
const at = (d: number) => new Float32Array([Math.cos(deg(d)), Math.sin(deg(d)), 0]);
const sparse = (...keys: number[]) => sparseFromEntries(keys.map((k) => [k, 1]));

function build(): PipelineContext {
  const hybrid = new HybridIndex(3);
  const add = (id: string, text: string, angle: number, tags: string[], status: 'active' | 'archived' = 'active') =>
    hybrid.upsert({ id, text, tags, importance: 1, createdAt: NOW, validFrom: 0, validTo: null, status, vector: at(angle) });
  add('a', 'postgres index tuning for slow queries', 0, ['db', 'perf']);
  add('b', 'vacuum settings in postgres', 15, ['db']);
  add('c', 'cache warmup script', 35, ['perf']);
  add('far', 'btree layout in the file system', 130, ['db', 'perf']);
  add('old', 'postgres index notes from 2019', 5, ['db'], 'archived');
  return { hybrid, spaces: new SpaceIndex(), now: NOW, sessionOf: () => 's1' };
}
const query = (d: number | null) => ({ text: 'postgres index', features: d === null ? {} : { E1: at(d) } });

describe('runPipeline over the HybridIndex', () => {
  it('passes weights, pool size and status gates to the hybrid', () => {
    const r = runPipeline(build(), query(0), { topK: 3 });
    expect(r.map((x) => x.id)).toEqual(['a', 'b', 'c']);
    expect(r[0].why.matchedTerms.length).toBeGreaterThan(0);
    // lexical-only (no query vector yet): only the words rank
    expect(runPipeline(build(), query(null), { topK: 2 }).map((x) => x.id)).toEqual(['a', 'b']);
    expect(runPipeline(build(), query(0), { topK: 3, includeArchived: true }).map((x) => x.id)).toContain('old');
  });

  it('DIVERGENT surfaces the far memory sharing the tags; assoc hops add chains', () => {
    const r = runPipeline(build(), query(0), { profile: 'DIVERGENT', topK: 3 });
    const lat = r.filter((x) => x.mode === 'lateral');
    expect(lat.map((x) => x.id)).toEqual(['far']);
    expect(lat[0].distance).toBeCloseTo(Math.sqrt(2 - 2 * Math.cos(deg(130))), 5);
    const h = runPipeline(build(), query(0), { topK: 1, assocHops: 2, minCosine: 0.8 });
    // a -> b (cos 15° .966) and a -> c (cos 35° .819) on hop 1 (beam 2), so both chains are one hop long
    expect(h.map((x) => [x.id, x.mode, x.chain?.length])).toEqual([
      ['a', 'standard', undefined],
      ['b', 'associative', 2],
      ['c', 'associative', 2],
    ]);
  });
});

describe('gatherCandidates', () => {
  it('unites the hybrid hits with the spaces\' candidates, both through the status gate', () => {
    const ctx = build();
    ctx.spaces.upsert('c', { E7: sparse(1) });
    ctx.spaces.upsert('old', { E7: sparse(1) });
    const o = resolveRecallOptions({});
    const q = { text: 'vacuum', features: { E7: sparse(1) } };
    const found = gatherCandidates(ctx, q, o);
    expect(found.hits.map((h) => h.id)).toEqual(['b']); // only b has the word; no query vector
    expect(found.rows.map((r) => [r.id, r.hybrid > 0])).toEqual([['b', true], ['c', false]]); // 'old' is archived
    expect(gatherCandidates(ctx, q, resolveRecallOptions({ includeArchived: true })).rows.map((r) => r.id)).toEqual(['b', 'c', 'old']);
    expect(gatherCandidates(ctx, q, o, resolveRanking({ spaces: [] })).rows.map((r) => r.id)).toEqual(['b']);
  });
});

describe('blend', () => {
  it('adds alpha x the weighted clipped z-scores to the hybrid score', () => {
    const r = resolveRanking({ alpha: 0.5, spaceWeights: { E7: 1, E12: 3 } });
    // E7: 1, 0.5, 0 -> mean 0.5, sd sqrt(1/6) = 0.4082 -> z 1.2247, 0, -1.2247 (clipped to 0)
    const rows = [
      { id: 'x', hybrid: 0.4, sims: { E7: 1 } },
      { id: 'y', hybrid: 0.3, sims: { E7: 0.5 } },
      { id: 'z', hybrid: 0.2, sims: { E7: 0 } },
    ];
    const s = blendScores(rows, ['E7', 'E12'], r, DEFAULT_SIMILARITY_CONFIG);
    // E12 is on no row: it adds no weight. x = 0.4 + 0.5 x 1.2247 x 1 / 1
    expect(s.get('x')).toBeCloseTo(0.4 + 0.5 * Math.sqrt(1.5), 10);
    expect(s.get('y')).toBeCloseTo(0.3, 12);
    expect(s.get('z')).toBeCloseTo(0.2, 12);
  });
  it('scales alpha by the lexical evidence^evidencePower (the best idf coverage among the hits)', () => {
    const ctx = build();
    ctx.spaces.upsert('a', { E7: sparse(1) });
    ctx.spaces.upsert('b', { E7: sparse(2) });
    const why = (coverage: number) => ({ lexical: 0, semantic: 0, bm25: 0, cosine: 0, matchedTerms: [], coverage });
    const hits = [
      { id: 'a', score: 0.4, mode: 'standard' as const, why: why(0.2) },
      { id: 'b', score: 0.3, mode: 'standard' as const, why: why(0.5) },
    ];
    expect(lexicalEvidence(hits)).toBe(0.5);
    expect(lexicalEvidence([])).toBe(0);
    const found = { hits, rows: hits.map((h) => ({ id: h.id, hybrid: h.score, hit: h })), scoring: ['E7' as const] };
    const q = { text: 'x', features: { E7: sparse(1) } };
    // E7 sims a 1, b 0 -> mean 0.5, sd 0.5 -> z a 1, b -1 (clipped to 0)
    const score = (evidencePower: number) =>
      blend(ctx, q, found, resolveRanking({ spaces: ['E7'], spaceWeights: { E7: 1 }, alpha: 0.2, evidencePower })).find((h) => h.id === 'a')!.score;
    expect(score(0)).toBeCloseTo(0.4 + 0.2, 12); // off: alpha as is
    expect(score(2)).toBeCloseTo(0.4 + 0.2 * 0.25, 12); // evidence 0.5, squared
    // a query no memory shares a word with: the spaces do not move the ranking at all
    const none = { ...found, hits: hits.map((h) => ({ ...h, why: why(0) })) };
    none.rows = none.hits.map((h) => ({ id: h.id, hybrid: h.score, hit: h }));
    expect(blend(ctx, q, none, resolveRanking({ spaces: ['E7'], spaceWeights: { E7: 1 }, evidencePower: 1 })).map((h) => h.score)).toEqual([0.4, 0.3]);
  });
  it('returns the hybrid hits untouched when no space scores', () => {
    const ctx = build();
    const o = resolveRecallOptions({});
    const r = resolveRanking({ spaces: [] });
    const found = gatherCandidates(ctx, query(0), o, r);
    expect(blend(ctx, query(0), found, r)).toBe(found.hits);
  });
});

describe('annotate', () => {
  it('adds the per-space sims, the seed relevance and the pre-blend hybrid score', () => {
    const ctx = build();
    ctx.spaces.upsert('a', { E7: sparse(1, 2) });
    const q = { text: 'x', features: { E7: sparse(1, 2) } };
    const res = { id: 'a', score: 0.9, mode: 'standard' as const, why: { lexical: 0, semantic: 0, bm25: 0, cosine: 0, matchedTerms: [] } };
    const [a, b] = annotate(ctx, q, [res, { ...res, id: 'b' }], [{ ...res, score: 0.7 }]);
    expect(a.spaces.sims.E7).toBe(1);
    expect(a.spaces.relevant).toBe(true); // 1 > E7's high threshold 0.80
    expect(a.spaces.highlyRelevant).toBe(false); // one space, not three
    expect(a.hybridScore).toBe(0.7);
    expect(b.spaces.sims).toEqual({}); // no stored features
    expect(b.hybridScore).toBe(0);
  });
});
