import { describe, expect, it } from 'vitest';
import { similarity, type SpaceFeatures } from '../spaces';
import { SpaceIndex } from './space-index';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

describe('SpaceIndex E5 / E10 candidates through the int8 dense store', () => {
  it('returns exactly the full scan of the exact similarity, odd vectors and the accept filter included', () => {
    const r = rng(11);
    const dim = 64;
    const index = new SpaceIndex();
    const all: [string, Float32Array][] = [];
    for (let i = 0; i < 800; i++) {
      const id = `m${String(i).padStart(4, '0')}`;
      let v = Float32Array.from({ length: dim }, r);
      if (i % 97 === 0) v = new Float32Array(dim); // all zero: kept aside, scored the old way
      if (i % 101 === 1) v = Float32Array.from({ length: dim + 4 }, r); // another dimension
      const f: SpaceFeatures = i % 3 === 0 ? { E10: v } : { E5: v };
      index.upsert(id, f);
      all.push([id, v]);
    }
    index.remove('m0003'); // removed: never returned
    index.upsert('m0006', { E10: all[7][1] }); // replaced: now the same E10 as m0007
    // the dense store answers (not the scan of every holder): its short list is far below the holders
    const dense = (index as unknown as { dense: { pool: (s: string, q: Float32Array, k: number, a: (id: string) => boolean) => string[] | undefined } }).dense;
    const warnings: string[] = [];
    const q = Float32Array.from({ length: dim }, r);
    const accept = (id: string) => Number(id.slice(1)) % 5 !== 0;
    for (const space of ['E5', 'E10'] as const) {
      for (const k of [1, 7, 40]) {
        const want = index
          .ids()
          .filter(accept)
          .map((id) => ({ id, space, score: similarity(q, index.features(id)![space] as Float32Array | undefined, space, () => {}) }))
          .filter((h): h is { id: string; space: typeof space; score: number } => h.score !== undefined && h.score > 0)
          .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
          .slice(0, k);
        expect(want.length).toBe(k);
        expect(index.candidates({ [space]: q }, k, { spaces: [space], accept, warn: (m) => warnings.push(m) })).toEqual(want);
      }
    }
    const pool = dense.pool('E5', q, 7, accept);
    expect(pool).toBeDefined();
    expect(pool!.length).toBeLessThan(200);
    // the odd vector of another dimension is still scored the old way, so its warning still comes
    expect(warnings.some((w) => w.includes('Dimension mismatch'))).toBe(true);
    expect(index.candidates({ E10: q }, 800, { spaces: ['E10'] }).some((h) => h.id === 'm0003')).toBe(false);
  });
});
