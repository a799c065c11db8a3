// Integration: recall() over the real HybridIndex through recallSourceFromHybrid.
import { describe, expect, it } from 'vitest';
import { HybridIndex } from '../hybrid';
import { recall, recallSourceFromHybrid } from './recall';

const NOW = 1_700_000_000_000;
const deg = (d: number) => (d * Math.PI) / 180;
const at = (d: number) => new Float32Array([Math.cos(deg(d)), Math.sin(deg(d)), 0]);

function build() {
  const ix = new HybridIndex(3);
  const add = (id: string, text: string, angle: number, tags: string[], status: 'active' | 'archived' = 'active') =>
    ix.upsert({ id, text, tags, importance: 1, createdAt: NOW, validFrom: 0, validTo: null, status, vector: at(angle) });
  add('a', 'postgres index tuning for slow queries', 0, ['db', 'perf']);
  add('b', 'vacuum settings in postgres', 15, ['db']);
  add('c', 'cache warmup script', 35, ['perf']);
  add('far', 'btree layout in the file system', 130, ['db', 'perf']);
  add('old', 'postgres index notes from 2019', 5, ['db'], 'archived');
  return ix;
}

describe('recallSourceFromHybrid', () => {
  it('passes weights, pool size and status gates to HybridIndex.search', () => {
    const src = recallSourceFromHybrid(build());
    const r = recall(src, 'postgres index', at(0), { topK: 3 });
    expect(r.map((x) => x.id)).toEqual(['a', 'b', 'c']);
    expect(r[0].why.matchedTerms.length).toBeGreaterThan(0);
    // lexical-only (no vector yet): the adapter sends vector null instead of a 0-d query
    expect(recall(src, 'postgres index', new Float32Array(0), { topK: 2 }).map((x) => x.id)).toEqual(['a', 'b']);
    const withArchived = recall(src, 'postgres index', at(0), { topK: 3, includeArchived: true });
    expect(withArchived.map((x) => x.id)).toContain('old');
  });

  it('DIVERGENT surfaces the far memory sharing the tags; assoc hops add chains', () => {
    const src = recallSourceFromHybrid(build());
    const r = recall(src, 'postgres index', at(0), { profile: 'DIVERGENT', topK: 3 }, { now: NOW });
    const lat = r.filter((x) => x.mode === 'lateral');
    expect(lat.map((x) => x.id)).toEqual(['far']);
    expect(lat[0].distance).toBeCloseTo(Math.sqrt(2 - 2 * Math.cos(deg(130))), 5);
    const h = recall(src, 'postgres index', at(0), { topK: 1, assocHops: 2, minCosine: 0.8 });
    // a -> b (cos 15° .966) -> c (cos 20° .940); a -> c is cos 35° = .819 too, but b and c are
    // both taken from a on hop 1 (beam 2), so both chains are one hop long
    expect(h.map((x) => [x.id, x.mode, x.chain?.length])).toEqual([
      ['a', 'standard', undefined],
      ['b', 'associative', 2],
      ['c', 'associative', 2],
    ]);
  });
});
