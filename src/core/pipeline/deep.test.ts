// The deep stage (seed 001): no-ops byte for byte, entity expansion, variants and HyDE fused by RRF.
import { describe, expect, it } from 'vitest';
import { entityLookupFromMap } from '../entities';
import { HybridIndex } from '../hybrid';
import { resolveRecallOptions } from '../recall';
import { fuseExtraLists, wantsExtraLists } from './deep';
import { runPipeline } from './pipeline';
import { SpaceIndex } from './space-index';
import type { PipelineContext } from './types';

const NOW = 1_700_000_000_000;
const deg = (d: number) => (d * Math.PI) / 180;
const at = (d: number) => new Float32Array([Math.cos(deg(d)), Math.sin(deg(d)), 0]);

function build(): PipelineContext {
  const hybrid = new HybridIndex(3);
  const add = (id: string, text: string, angle: number, status: 'active' | 'archived' = 'active') =>
    hybrid.upsert({ id, text, tags: [], importance: 1, createdAt: NOW, validFrom: 0, validTo: null, status, vector: at(angle) });
  add('a', 'Melanie painted a sunrise at the lake', 0);
  add('b', 'pottery class on Saturday', 170);
  add('c', 'Melanie and Jon went camping in Oregon', 175);
  add('d', 'the weather was nice', 120);
  add('e', 'Jon bought a tent', 160, 'archived');
  // entity 1 = Melanie (a, c), entity 2 = Jon (c, e)
  const entities = entityLookupFromMap(new Map([['a', [1]], ['c', [1, 2]], ['e', [2]], ['b', []], ['d', []]]));
  return { hybrid, spaces: new SpaceIndex(), now: NOW, sessionOf: () => 's1', entities };
}
const q = { text: 'painted sunrise', features: { E1: at(0) } };

describe('deep recall stage', () => {
  it('expandHops 0, multiQuery 1 and hyde without a vector change nothing, byte for byte', () => {
    const base = JSON.stringify(runPipeline(build(), q, { topK: 3 }));
    expect(JSON.stringify(runPipeline(build(), q, { topK: 3, expandHops: 0 }))).toBe(base);
    expect(JSON.stringify(runPipeline(build(), { ...q, variants: [{ text: 'pottery', vector: at(170) }] }, { topK: 3, multiQuery: 1 }))).toBe(base);
    expect(JSON.stringify(runPipeline(build(), q, { topK: 3, hyde: true }))).toBe(base);
    expect(JSON.stringify(runPipeline(build(), { ...q, hyde: at(170) }, { topK: 3, hyde: false }))).toBe(base);
    // no graph: expandHops 1 is a silent no-op
    expect(JSON.stringify(runPipeline({ ...build(), entities: undefined }, q, { topK: 3, expandHops: 1 }))).toBe(base);
    expect(wantsExtraLists(build(), q, resolveRecallOptions({ multiQuery: 3 }))).toBe(false); // no variants given
  });

  it('expandHops 1 fuses in the memory sharing an entity with a first-pass result, never an archived one', () => {
    const base = runPipeline(build(), q, { topK: 2 }).map((r) => r.id);
    expect(base).toEqual(['a', 'd']); // c is far from the query in words and angle
    const r = runPipeline(build(), q, { topK: 2, expandHops: 1 });
    expect(r.map((x) => x.id)).toEqual(['a', 'c']);
    expect(r[1].foundBy).toEqual({ lists: ['expansion'], via: [{ seed: 'a', entities: [1] }] });
    expect(r[0].foundBy).toBeUndefined();
    const all = runPipeline(build(), q, { topK: 5, expandHops: 1 }).map((x) => x.id);
    expect(all).not.toContain('e');
  });

  it('multiQuery fuses each variant\'s list; hyde its vector\'s neighbours', () => {
    const mq = runPipeline(build(), { ...q, variants: [{ text: 'pottery class', vector: at(170) }] }, { topK: 2, multiQuery: 2 });
    expect(mq.map((x) => x.id)).toContain('b');
    const hy = runPipeline(build(), { ...q, hyde: at(176) }, { topK: 2, hyde: true });
    expect(hy.map((x) => x.id)).toEqual(['a', 'c']); // without: a, d
    expect(hy[1].foundBy).toEqual({ lists: ['hyde'] });
  });

  it('fuseExtraLists: RRF of all lists over its maximum', () => {
    const c = { hits: [{ id: 'a', score: 0.9, mode: 'standard' as const, why: { lexical: 0, semantic: 0, bm25: 0, cosine: 0, matchedTerms: [] } }], rows: [{ id: 'a', hybrid: 0.9 }], scoring: [] };
    const f = fuseExtraLists(c, [{ name: 'expansion', hits: [{ id: 'b', score: 3 }, { id: 'a', score: 1 }] }]);
    const max = 2 / 61;
    expect(f.rows.map((r) => [r.id, r.hybrid])).toEqual([
      ['a', (1 / 61 + 1 / 62) / max],
      ['b', 1 / 61 / max],
    ]);
    expect(f.rows[0].hit?.score).toBe((1 / 61 + 1 / 62) / max);
    expect(f.rows[1].hit).toBeUndefined();
  });

  it('fuseExtraLists anchored: the hybrid score plus weight x the extra lists\' RRF over its maximum', () => {
    const why = { lexical: 0, semantic: 0, bm25: 0, cosine: 0, matchedTerms: [] };
    const c = { hits: [{ id: 'a', score: 0.9, mode: 'standard' as const, why }], rows: [{ id: 'a', hybrid: 0.9 }, { id: 'z', hybrid: 0 }], scoring: [] };
    const f = fuseExtraLists(c, [{ name: 'variant', hits: [{ id: 'b', score: 3 }, { id: 'a', score: 1 }] }], { mode: 'anchored', weight: 0.1 });
    // a: 0.9 + 0.1 x 61/62; b: 0 + 0.1 x 61/61; z: untouched
    expect(f.rows.map((r) => r.id)).toEqual(['a', 'b', 'z']);
    expect(f.rows[0].hybrid).toBeCloseTo(0.9 + (0.1 * 61) / 62, 12);
    expect(f.rows[1].hybrid).toBeCloseTo(0.1, 12);
    expect(f.rows[2].hybrid).toBe(0);
  });
});

describe('fusion and candidateTopK through the pipeline (seed 001), worked by hand', () => {
  // "painted sunrise" at angle 0: lexical list a (painted, sunrise), f (sunrise); dense list by
  // cosine a (1), d (cos 120° = -0.5), f (cos 150°), b (cos 170°)
  function small(): PipelineContext {
    const hybrid = new HybridIndex(3);
    const add = (id: string, text: string, angle: number) => hybrid.upsert({ id, text, tags: [], importance: 1, createdAt: NOW, validFrom: 0, validTo: null, status: 'active', vector: at(angle) });
    add('a', 'Melanie painted a sunrise at the lake', 0);
    add('b', 'pottery class on Saturday', 170);
    add('d', 'the weather was nice', 120);
    add('f', 'a sunrise over the sea', 150);
    return { hybrid, spaces: new SpaceIndex(), now: NOW, sessionOf: () => 's1' };
  }
  const sq = { text: 'painted sunrise', features: { E1: at(0) } };
  const ranked = (o: Parameters<typeof resolveRecallOptions>[0]) => runPipeline(small(), sq, { topK: 4, ...o }).map((r) => [r.id, Number(r.score.toFixed(4))]);

  it('candidateTopK bounds each list: 1 keeps a alone; 2 fuses a, f (lexical) and a, d (dense)', () => {
    expect(ranked({ candidateTopK: 1 })).toEqual([['a', 1]]);
    expect(ranked({ candidateTopK: 2 }).map(([id]) => id).sort()).toEqual(['a', 'd', 'f']);
  });

  it('fusion rrf: the sum of 1 / (60 + rank) over the lists', () => {
    // a 1/61 + 1/61 = 0.0328; f 1/62 + 1/63 = 0.0320; d 1/62 = 0.0161; b 1/64 = 0.0156
    expect(ranked({ fusion: { strategy: 'rrf' } })).toEqual([
      ['a', 0.0328],
      ['f', 0.032],
      ['d', 0.0161],
      ['b', 0.0156],
    ]);
  });

  it('fusion weighted, vector only: the dense list min-max scaled (d (-0.5 + 0.985) / (1 + 0.985) = 0.2443)', () => {
    const r = ranked({ fusion: { strategy: 'weighted', weights: { lexical: 0, vector: 1 } } });
    expect(r.map(([id]) => id)).toEqual(['a', 'd', 'f', 'b']);
    expect(r[1][1]).toBeCloseTo((-0.5 - Math.cos(deg(170))) / (1 - Math.cos(deg(170))), 3);
  });
});
