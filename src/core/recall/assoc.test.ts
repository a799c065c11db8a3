import { describe, expect, it } from 'vitest';
import { associate, CROSS_SCOPE_PENALTY, type AssocOptions, type AssocSource } from './assoc';
import { buildNeighbourMatrix } from './matrix';
import type { RecallResult } from './types';
import type { ScoredHit } from '../types';

const expand = (ranked: readonly RecallResult[], src: AssocSource, o: AssocOptions) => associate(ranked, src, o).results;

const deg = (d: number) => (d * Math.PI) / 180;
const at = (d: number) => new Float32Array([Math.cos(deg(d)), Math.sin(deg(d))]);
const why = (cosine = 1) => ({ lexical: 0, semantic: 0, bm25: 0, cosine, matchedTerms: [] as string[] });
const hit = (id: string, score: number, mode: RecallResult['mode'] = 'standard'): RecallResult => ({ id, score, mode, why: why() });
const f32 = (x: number) => Math.fround(x);

// A at 0°, B 20°, C -25° (other session), D 40°, E 80°, F 180°
const angles: Record<string, number> = { A: 0, B: 20, C: -25, D: 40, E: 80, F: 180 };
const session: Record<string, string> = { A: 's1', B: 's1', C: 's2', D: 's1', E: 's1', F: 's1' };
const matrix = buildNeighbourMatrix(Object.keys(angles), (id) => at(angles[id]), (id) => session[id]);
const opts = { assocHops: 2, beamWidth: 2, minCosine: 0.72, hopDecay: 0.8 };

describe('associative multi-hop', () => {
  it('assocHops = 0 returns the input ranking byte-identical', () => {
    const ranked = [hit('A', 1), hit('X', 0.5), hit('L', 0.3, 'lateral')];
    const before = JSON.stringify(ranked);
    const out = expand(ranked, { matrix }, { ...opts, assocHops: 0 });
    expect(JSON.stringify(out)).toBe(before);
    expect(out).toBe(ranked);
  });

  it('walks by cosine with beam, decay and a cross-scope penalty; keeps the chain', () => {
    const { results, expanded, added } = associate([hit('A', 1)], { matrix }, opts);
    const cB = Math.cos(deg(20));
    const cC = Math.cos(deg(25));
    // hop 1 from A: B (0.940) and C (0.906 * 0.9 = 0.816) beat D (0.766); E (0.174) is below 0.72
    // hop 2 from B: D (cos 20° = 0.940); from C: nothing left >= 0.72
    expect(results.map((r) => [r.id, r.mode])).toEqual([
      ['A', 'standard'],
      ['B', 'associative'],
      ['C', 'associative'],
      ['D', 'associative'],
    ]);
    expect(results[1].score).toBeCloseTo(1 * cB * 0.8, 6);
    expect(results[2].score).toBeCloseTo(1 * cC * 0.8 * CROSS_SCOPE_PENALTY, 6);
    expect(results[3].score).toBeCloseTo(1 * cB * 0.8 * cB * 0.8, 6); // root * Πcos * 0.8^2
    expect(results[3].chain).toEqual([
      { id: 'A', hop: 0, cosine: 1 },
      { id: 'B', hop: 1, cosine: expect.closeTo(cB, 6) },
      { id: 'D', hop: 2, cosine: expect.closeTo(cB, 6) },
    ]);
    expect(expanded).toBe(3); // A, then B and C
    expect(added).toBe(3);
    // one more hop reaches E from D (cos 40° = 0.766, same session)
    const three = associate([hit('A', 1)], { matrix }, { ...opts, assocHops: 3 });
    const e = three.results.find((r) => r.id === 'E')!;
    expect(e.chain!.map((l) => l.id)).toEqual(['A', 'B', 'D', 'E']);
    expect(e.score).toBeCloseTo(cB * cB * Math.cos(deg(40)) * 0.8 ** 3, 6);
  });

  it('prefers the same session among near equals', () => {
    // Y at -15° same session (0.966) beats X at 10° other session (0.985 * 0.9 = 0.886)
    const m = buildNeighbourMatrix(['P', 'X', 'Y'], (id) => at({ P: 0, X: 10, Y: -15 }[id]!), (id) => ({ P: 's', X: 't', Y: 's' }[id]));
    const out = expand([hit('P', 1)], { matrix: m }, { ...opts, assocHops: 1, beamWidth: 1 });
    expect(out.map((r) => r.id)).toEqual(['P', 'Y']);
  });

  it('never reaches ineligible (archived, suppressed) memories', () => {
    const out = expand([hit('A', 1)], { matrix, eligible: (id) => id !== 'B' }, { ...opts, assocHops: 1 });
    expect(out.map((r) => r.id)).toEqual(['A', 'C', 'D']);
  });

  it('merges final = max(direct, assoc) for pool memories reached by the walk', () => {
    const pool = (score: number) => new Map<string, ScoredHit>([['D', { id: 'D', score, mode: 'standard', why: why(0.2) }]]);
    const assocD = Math.cos(deg(20)) ** 2 * 0.64;
    const low = expand([hit('A', 1)], { matrix, pool: pool(0.3) }, opts).find((r) => r.id === 'D')!;
    expect(low.score).toBeCloseTo(assocD, 6);
    expect(low.why.cosine).toBe(0.2);
    const high = expand([hit('A', 1)], { matrix, pool: pool(0.99) }, opts);
    expect(high.find((r) => r.id === 'D')!.score).toBe(0.99);
    expect(high.map((r) => r.id)).toEqual(['A', 'D', 'B', 'C']);
  });

  it('does not revisit ranked results, keeps lateral results last, fills why.cosine from the query', () => {
    const ranked = [hit('A', 1), hit('B', 0.9), hit('F', 0.05, 'lateral')];
    const out = expand(ranked, { matrix, queryVector: at(0) }, { ...opts, assocHops: 1 });
    expect(out.map((r) => [r.id, r.mode])).toEqual([
      ['A', 'standard'],
      ['B', 'standard'],
      ['C', 'associative'], // from A (B is already a result)
      ['D', 'associative'], // from A, and B's D is then taken
      ['F', 'lateral'],
    ]);
    expect(out[2].why.cosine).toBeCloseTo(f32(Math.cos(deg(25))), 5);
  });
});

// Small deterministic PRNG for property tests.
function mulberry32(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomWorld(n: number, dim: number, seed: number) {
  const rnd = mulberry32(seed);
  const vecs = new Map<string, Float32Array>();
  const sess = new Map<string, string>();
  for (let i = 0; i < n; i++) {
    const id = `m${String(i).padStart(4, '0')}`;
    // clustered: a few centres plus noise, so minCosine is often met
    const c = i % 5;
    const v = new Float32Array(dim);
    for (let j = 0; j < dim; j++) v[j] = (j === c ? 3 : 0) + (rnd() - 0.5);
    vecs.set(id, v);
    sess.set(id, `s${i % 3}`);
  }
  return { vecs, sess };
}

describe('determinism and bounds', () => {
  const { vecs, sess } = randomWorld(400, 16, 7);
  const ids = [...vecs.keys()];
  const seeds = [hit('m0000', 0.9), hit('m0001', 0.8), hit('m0002', 0.8), hit('m0003', 0.5)];
  const o = { assocHops: 3, beamWidth: 2, minCosine: 0.6, hopDecay: 0.8 };

  it('same input twice -> identical JSON; row order of the matrix does not matter', () => {
    const m1 = buildNeighbourMatrix(ids, (id) => vecs.get(id), (id) => sess.get(id));
    const a = JSON.stringify(expand(seeds, { matrix: m1 }, o));
    const b = JSON.stringify(expand(seeds, { matrix: m1 }, o));
    expect(a).toBe(b);
    const reversed = buildNeighbourMatrix(ids.slice().reverse(), (id) => vecs.get(id), (id) => sess.get(id));
    expect(JSON.stringify(expand(seeds, { matrix: reversed }, o))).toBe(a);
    expect(JSON.parse(a).length).toBeGreaterThan(seeds.length);
  });

  it('expands at most seeds * Σ_{h<hops} beam^h nodes and adds at most seeds * Σ_{1..hops} beam^h', () => {
    const m = buildNeighbourMatrix(ids, (id) => vecs.get(id), (id) => sess.get(id));
    for (const [hops, beam] of [[1, 2], [2, 2], [3, 2], [3, 3], [2, 1]]) {
      // minCosine -1: every neighbour qualifies, so the bound is reached exactly
      const r = associate(seeds, { matrix: m }, { assocHops: hops, beamWidth: beam, minCosine: -1, hopDecay: 0.8 });
      let scans = 0;
      let adds = 0;
      for (let h = 0; h < hops; h++) scans += seeds.length * beam ** h;
      for (let h = 1; h <= hops; h++) adds += seeds.length * beam ** h;
      expect(r.expanded).toBe(scans);
      expect(r.added).toBe(adds);
      if (beam >= 2) expect(r.expanded).toBeLessThanOrEqual(seeds.length * beam ** hops);
      expect(new Set(r.results.map((x) => x.id)).size).toBe(r.results.length); // no duplicates
    }
  });
});
