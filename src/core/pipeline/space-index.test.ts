import { describe, expect, it } from 'vitest';
import { similarity, sparseFromEntries, tokenMatrix, type SpaceFeatures, type SpaceVector } from '../spaces';
import type { SpaceId } from '../types';
import { CANDIDATE_SPACES, jaccardBound, SpaceIndex, type SpaceCandidateHit } from './space-index';
import { packTokens, unitFromPacked, unitMaxsim, unitTokens, unpackTokens } from './unit-tokens';

const sparse = (pairs: [number, number][]) => sparseFromEntries(pairs);

/** The candidates as the index computed them before issue 13: every match scored, sorted, cut. */
function reference(feats: Map<string, SpaceFeatures>, query: SpaceFeatures, k: number, spaces: readonly SpaceId[], accept: (id: string) => boolean): SpaceCandidateHit[] {
  const out: SpaceCandidateHit[] = [];
  for (const s of spaces) {
    const qv = query[s] as SpaceVector | undefined;
    if (qv === undefined) continue;
    const scored: SpaceCandidateHit[] = [];
    for (const [id, f] of feats) {
      if (!accept(id)) continue;
      const score = similarity(qv, f[s] as SpaceVector | undefined, s);
      if (score !== undefined && score > 0) scored.push({ id, space: s, score });
    }
    scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    out.push(...scored.slice(0, k));
  }
  return out;
}

describe('jaccardBound', () => {
  it('bounds the weighted Jaccard, worked by hand', () => {
    // query {a: 2, b: 1} (wq 3), memory {a: 1, c: 3} (wm 4): shared query weight 2 (a)
    // U = min(2, 4) = 2 -> 2 / (3 + 4 - 2) = 0.4; the exact value is min(2,1) / (2 + 1 + 3) = 1/6
    expect(jaccardBound(2, 3, 4)).toBeCloseTo(0.4, 12);
    const exact = similarity(sparse([[1, 2], [2, 1]]), sparse([[1, 1], [3, 3]]), 'E6');
    expect(exact).toBeCloseTo(1 / 6, 6);
    expect(jaccardBound(2, 3, 4)).toBeGreaterThanOrEqual(exact!);
    // identical vectors: the bound is tight (1)
    expect(jaccardBound(3, 3, 3)).toBe(1);
    // a light memory: U = wm
    expect(jaccardBound(2, 3, 0.5)).toBeCloseTo(0.5 / 3, 12);
  });
});

describe('packTokens / unpackTokens', () => {
  it('round-trips every int8 step bit for bit, and refuses anything else', () => {
    const data = new Float32Array(255);
    for (let k = -127; k <= 127; k++) data[k + 127] = k / 127; // as deserializeSpace decodes them
    const p = packTokens({ rows: 5, dim: 51, data })!;
    expect(p.q[0]).toBe(-127);
    expect(p.q[254]).toBe(127);
    expect(Object.is(unpackTokens(p).data[127], 0)).toBe(true);
    expect([...unpackTokens(p).data]).toEqual([...data]);
    // decoded and normalised into a scratch: the same unit rows as unitTokens of the raw matrix
    const scratch = unitFromPacked(packTokens({ rows: 2, dim: 3, data: Float32Array.from([3, 0, 4, 0, 0, 0].map((k) => k / 127)) })!);
    const again = unitFromPacked(p, scratch); // too small: fresh arrays
    expect([...again.data]).toEqual([...unitTokens(unpackTokens(p)).data]);
    const reused = unitFromPacked(packTokens({ rows: 1, dim: 3, data: Float32Array.from([0, 5 / 127, 0]) })!, again);
    expect(reused.data).toBe(again.data);
    expect([...reused.data.subarray(0, 3)]).toEqual([0, 1, 0]);
    expect([...scratch.data]).toEqual([...unitTokens({ rows: 2, dim: 3, data: Float32Array.from([3, 0, 4, 0, 0, 0].map((k) => k / 127)) }).data]);
    expect([...scratch.live]).toEqual([1, 0]);
    expect(packTokens({ rows: 1, dim: 2, data: Float32Array.from([0.5, 0]) })).toBeUndefined(); // 63.5 / 127
    expect(packTokens({ rows: 1, dim: 2, data: Float32Array.from([Number.NaN, 0]) })).toBeUndefined();
    expect(packTokens({ rows: 1, dim: 1, data: Float32Array.from([2]) })).toBeUndefined(); // beyond 127 steps
  });
});

describe('E12 MaxSim over packed tokens', () => {
  it('is exactly the MaxSim over the f32 matrix it came from (random int8 matrices)', () => {
    let seed = 5;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const steps = (rows: number, dim: number) => ({ rows, dim, data: Float32Array.from({ length: rows * dim }, () => Math.round(rand() * 254 - 127) / 127) });
    const idx = new SpaceIndex();
    const raw = new Map<string, ReturnType<typeof steps>>();
    for (let i = 0; i < 20; i++) {
      const m = steps(1 + Math.floor(rand() * 6), 8);
      raw.set(`m${i}`, m);
      idx.upsert(`m${i}`, { E12: m });
    }
    for (let t = 0; t < 10; t++) {
      const q = steps(1 + Math.floor(rand() * 4), 8);
      const qt = unitTokens(q);
      for (const [id, m] of raw) expect(idx.similarities({ E12: q }, id, ['E12'], qt).E12).toBe(unitMaxsim(qt, unitTokens(m)));
    }
  });
});

describe('SpaceIndex.candidates on slots', () => {
  it('finds the top k of E6 by weighted Jaccard, ties by id, and skips what the gate refuses', () => {
    const idx = new SpaceIndex();
    idx.upsert('m1', { E6: sparse([[1, 1], [2, 1]]) }); // J(q) = 1/2 (shares 1 of {1,2}; q = {1})
    idx.upsert('m2', { E6: sparse([[1, 1]]) }); //            J = 1
    idx.upsert('m3', { E6: sparse([[1, 1], [3, 1], [4, 1]]) }); // J = 1/3
    idx.upsert('m0', { E6: sparse([[1, 1], [5, 1]]) }); // J = 1/2 (ties m1: id first)
    idx.upsert('m9', { E6: sparse([[8, 1]]) }); // shares nothing
    const q = { E6: sparse([[1, 1]]) };
    const got = idx.candidates(q, 3, { spaces: ['E6'] });
    expect(got.map((h) => [h.id, Number(h.score.toFixed(4))])).toEqual([['m2', 1], ['m0', 0.5], ['m1', 0.5]]);
    const gated = idx.candidates(q, 3, { spaces: ['E6'], accept: (id) => id !== 'm2' });
    expect(gated.map((h) => h.id)).toEqual(['m0', 'm1', 'm3']);
  });

  it('keeps int8-step E12 as bytes, decoded to the same values; other E12 as given; removes cleanly (slots are reused)', () => {
    const idx = new SpaceIndex();
    // the embed worker's E12: every value a step of 1/127 (here 127/127, -64/127, 0, 1/127)
    const steps = { rows: 2, dim: 2, data: Float32Array.from([1, -64 / 127, 0, 1 / 127]) };
    idx.upsert('a', { E12: steps });
    expect([...idx.features('a')!.E12!.data]).toEqual([...steps.data]); // bit for bit
    const q = { E12: tokenMatrix([[1, 0], [0, 1]]) };
    // MaxSim over unit rows: query row (1,0) best against (1,-0.504)/|.| = 0.893, row (0,1) against
    // (0,1): 1 -> mean 0.9465; the same as the registry's maxsim on the raw matrix
    expect(idx.similarities(q, 'a', ['E12']).E12).toBeCloseTo(similarity(q.E12, steps, 'E12')!, 6);
    expect(idx.similarities(q, 'a', ['E12']).E12).toBeCloseTo((1 / Math.hypot(1, 64 / 127) + 1) / 2, 6);
    idx.upsert('z', { E12: tokenMatrix([[3, 4], [0, 0]]) }); // not int8 steps: kept as given
    expect([...idx.features('z')!.E12!.data]).toEqual([3, 4, 0, 0]);
    idx.remove('z');
    idx.upsert('b', { E6: sparse([[1, 1]]) });
    idx.remove('a');
    expect(idx.features('a')).toBeUndefined();
    idx.upsert('c', { E6: sparse([[1, 2]]) }); // takes a's slot
    expect(idx.size).toBe(2);
    expect(idx.ids().sort()).toEqual(['b', 'c']);
    expect(idx.candidates({ E6: sparse([[1, 2]]) }, 5, { spaces: ['E6'] }).map((h) => h.id)).toEqual(['c', 'b']);
  });

  it('with an E1 holder keeps no E1 of its own and reads a copy of the holder\'s', () => {
    const held = new Map([['a', Float32Array.from([0.6, 0.8])]]);
    const idx = new SpaceIndex({ e1: (id) => held.get(id) });
    const given = Float32Array.from([3, 4]);
    idx.upsert('a', { E1: given, E6: sparse([[1, 1]]) });
    const f = idx.features('a')!;
    expect([...f.E1!]).toEqual([0.6000000238418579, 0.800000011920929]); // the holder's (unit) vector
    held.get('a')![0] = 9; // the holder's row moves on
    expect(f.E1![0]).toBeCloseTo(0.6, 6); // the copy handed out does not
    idx.upsert('b', { E6: sparse([[1, 1]]) }); // no E1 held for b: none reported
    expect(idx.features('b')!.E1).toBeUndefined();
  });

  it('property: equals the full scored sort in every candidate space, through upserts and removes', () => {
    let seed = 11;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const vocab = 40; // a small vocabulary: long lists and many ties, where the bound prunes most
    const sp = () => sparse(Array.from({ length: 1 + Math.floor(rand() * 6) }, () => [Math.floor((rand() * rand()) * vocab), Math.round(rand() * 4) / 2 + 0.5] as [number, number]));
    const feat = (): SpaceFeatures => ({
      E6: sp(),
      E13: sp(),
      ...(rand() < 0.3 ? { E7: sp() } : {}),
      E8: Float32Array.from({ length: 5 }, () => rand() - 0.5),
      E9: Uint8Array.from({ length: 16 }, () => Math.floor(rand() * 256)),
      E11: { entities: Uint32Array.from(new Set(Array.from({ length: 2 }, () => Math.floor(rand() * 10)))).sort(), triples: { count: 0, dim: 0, heads: new Float32Array(0), tails: new Float32Array(0), relations: new Uint32Array(0) } },
    });
    const idx = new SpaceIndex();
    const feats = new Map<string, SpaceFeatures>();
    for (let i = 0; i < 300; i++) {
      const id = `m${String(Math.floor(rand() * 250)).padStart(3, '0')}`;
      if (rand() < 0.15) {
        idx.remove(id);
        feats.delete(id);
      } else {
        const f = feat();
        idx.upsert(id, f);
        feats.set(id, f);
      }
    }
    const accept = (id: string) => !id.endsWith('7');
    for (let t = 0; t < 25; t++) {
      const q = feat();
      for (const k of [1, 5, 20]) expect(idx.candidates(q, k, { accept })).toEqual(reference(feats, q, k, CANDIDATE_SPACES, accept));
    }
  });
});
