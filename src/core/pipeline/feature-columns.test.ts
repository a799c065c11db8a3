import { describe, expect, it } from 'vitest';
import { similarity, sparseFromEntries, type SpaceFeatures, type SpaceVector, type TokenMatrix } from '../spaces';
import { FeatureColumns } from './feature-columns';
import { MIN_DEAD, nextCapacity, Ragged } from './ragged';
import { SpaceIndex } from './space-index';
import { TokenDict, unitRowsInto } from './token-dict';
import { packTokens, unitMaxsim, unitTokens, unpackTokens } from './unit-tokens';

const f32 = (n: number) => new Float32Array(n);
const arr = (v: ArrayLike<number> | undefined) => (v ? Array.from(v) : undefined);

/** A seeded int8-step token matrix (rows of q / 127, as deserializeSpace gives E12). */
function steps(rows: number, dim: number, seed: number, zeroRow = -1): TokenMatrix {
  let s = seed;
  const data = new Float32Array(rows * dim);
  for (let i = 0; i < data.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    data[i] = Math.floor(i / dim) === zeroRow ? 0 : (((s >>> 8) % 255) - 127) / 127;
  }
  return { rows, dim, data };
}

describe('Ragged', () => {
  it('adds, overwrites in place, moves a longer value to the end, deletes and reuses a slot', () => {
    const r = new Ragged(f32);
    r.set(0, [1, 2, 3]);
    r.set(2, [4, 5]);
    expect(arr(r.view(0))).toEqual([1, 2, 3]);
    expect(arr(r.view(2))).toEqual([4, 5]);
    expect(r.has(1)).toBe(false);
    expect(r.view(1)).toBeUndefined();
    expect(r.live).toBe(5);
    // same length: in place (offset kept); another length: appended, the old range dead
    r.set(0, [7, 8, 9]);
    expect(r.offset(0)).toBe(0);
    r.set(0, [6]);
    expect(r.offset(0)).toBe(5);
    expect(arr(r.view(0))).toEqual([6]);
    expect(r.live).toBe(3);
    r.delete(2);
    expect(r.has(2)).toBe(false);
    expect(r.live).toBe(1);
    r.set(2, [10, 11, 12, 13]);
    expect(arr(r.view(2))).toEqual([10, 11, 12, 13]);
    expect(arr(r.view(0))).toEqual([6]);
    // an empty value is held (present, length 0), unlike an absent one
    r.set(5, []);
    expect(r.has(5)).toBe(true);
    expect(r.length(5)).toBe(0);
  });

  it('compacts once the dead outnumber the live (and MIN_DEAD), keeping every value', () => {
    const r = new Ragged((n) => new Uint32Array(n));
    const big = (x: number) => Uint32Array.from({ length: 3000 }, (_, i) => x * 10_000 + i);
    r.set(0, big(1));
    r.set(1, big(2));
    r.set(2, big(3));
    r.delete(0); // dead 3000 < MIN_DEAD: no compaction
    expect(r.offset(2)).toBe(6000);
    r.delete(1); // dead 6000 > MIN_DEAD and > live 3000: compacted
    expect(6000).toBeGreaterThan(MIN_DEAD);
    expect(r.offset(2)).toBe(0);
    expect(arr(r.view(2))).toEqual(arr(big(3)));
    r.trim();
    expect(r.data().length).toBe(3000);
  });

  it('grows by x2 while small and by x1.25 above 1M elements', () => {
    expect(nextCapacity(16, 17)).toBe(32);
    expect(nextCapacity(1 << 20, (1 << 20) + 1)).toBe(1_310_720);
  });
});

describe('TokenDict', () => {
  it('holds each distinct row once, refcounted; a freed id is reused', () => {
    const d = new TokenDict(3);
    const q = Int8Array.from([1, 2, 3, 1, 2, 3, 0, 0, 0, 5, 5, 5]);
    const a = d.add(q, 0);
    expect(d.add(q, 3)).toBe(a); // the same bytes
    const z = d.add(q, 6);
    expect(d.live[z]).toBe(0); // the zero row carries no evidence
    expect(d.size).toBe(2);
    d.release(a);
    expect(d.size).toBe(2); // one reference left
    d.release(a);
    expect(d.size).toBe(1);
    const b = d.add(q, 9);
    expect(b).toBe(a); // the freed id
    expect(arr(d.matrix([b, z]).data)).toEqual([5, 5, 5, 0, 0, 0].map((k) => Math.fround(k / 127)));
    // the removed row is no longer found: adding it again makes a new entry
    const again = d.add(q, 0);
    expect(again).not.toBe(b);
    expect(d.size).toBe(3);
  });

  it('decodes a memory\'s rows to the unit rows of the unpacked matrix: unitMaxsim gives the same value, query shorter, longer or equal', () => {
    for (const [qRows, mRows] of [[2, 5], [6, 3], [4, 4]]) {
      const mem = steps(mRows, 8, 7 + qRows, 1);
      const query = unitTokens(steps(qRows, 8, 99 + mRows));
      const d = new TokenDict(8);
      const p = packTokens(mem)!;
      const ids = Uint32Array.from({ length: mRows }, (_, r) => d.add(p.q, r * 8));
      const padded = new Uint32Array(mRows + 2);
      padded.set(ids, 2);
      const want = unitTokens(unpackTokens(p));
      const got = unitRowsInto(d, padded, 2, mRows);
      expect(arr(got.data.subarray(0, mRows * 8))).toEqual(arr(want.data));
      expect(arr(got.live.subarray(0, mRows))).toEqual(arr(want.live));
      expect(unitMaxsim(query, { ...got, data: got.data.subarray(0, mRows * 8) })).toBe(unitMaxsim(query, want));
    }
  });
});

describe('FeatureColumns', () => {
  const feats = (x: number): SpaceFeatures => ({
    E2: Float32Array.from([x, 1, 2]),
    E6: sparseFromEntries([[3, x], [9, 2]]),
    E9: Uint8Array.from([x, 255, 0]),
    E11: { entities: Uint32Array.from([4, x + 10]), triples: { count: 1, dim: 2, heads: Float32Array.from([1, x]), tails: Float32Array.from([x, 1]), relations: Uint32Array.from([7]) } },
    E12: steps(3, 4, x),
  });

  it('gives back every space as given (E12 as unpackTokens), as fresh arrays', () => {
    const c = new FeatureColumns();
    c.set(0, feats(1));
    c.set(1, feats(2));
    const back = c.copy(1, ['E2', 'E6', 'E9', 'E11', 'E12', 'E13']);
    const want = feats(2);
    expect(Object.keys(back).sort()).toEqual(['E11', 'E12', 'E2', 'E6', 'E9']);
    expect(arr(back.E2)).toEqual(arr(want.E2));
    expect(arr(back.E6!.indices)).toEqual([3, 9]);
    expect(arr(back.E6!.values)).toEqual([2, 2]);
    expect(arr(back.E9)).toEqual([2, 255, 0]);
    expect(arr(back.E11!.entities)).toEqual([4, 12]);
    expect(back.E11!.triples.count).toBe(1);
    expect(arr(back.E11!.triples.tails)).toEqual([2, 1]);
    expect(arr(back.E12!.data)).toEqual(arr(unpackTokens(packTokens(want.E12!)!).data));
    // a copy: changing it leaves the columns alone
    back.E2![0] = 99;
    expect(arr(c.copy(1, ['E2']).E2)).toEqual([2, 1, 2]);
  });

  it('update, delete and reuse of a slot leave the other slots intact', () => {
    const c = new FeatureColumns();
    for (let s = 0; s < 4; s++) c.set(s, feats(s + 1));
    c.delete(1);
    expect(c.copy(1, ['E2', 'E6', 'E12'])).toEqual({});
    expect(c.hasTokens(1)).toBe(false);
    // an update = delete + set (what SpaceIndex does), with a longer E6
    c.delete(2);
    c.set(2, { ...feats(30), E6: sparseFromEntries([[1, 1], [2, 2], [3, 3]]) });
    c.set(1, feats(40)); // the freed slot reused
    expect(arr(c.copy(2, ['E6']).E6!.indices)).toEqual([1, 2, 3]);
    expect(arr(c.copy(1, ['E2']).E2)).toEqual([40, 1, 2]);
    for (const s of [0, 3]) expect(arr(c.copy(s, ['E9']).E9)).toEqual([s + 1, 255, 0]);
    expect(arr(c.copy(3, ['E12']).E12!.data)).toEqual(arr(unpackTokens(packTokens(feats(4).E12!)!).data));
  });

  it('keeps an E12 that is not int8 steps whole, and scores it as before', () => {
    const c = new FeatureColumns();
    const odd: TokenMatrix = { rows: 1, dim: 2, data: Float32Array.from([0.5, 0.25]) };
    c.set(0, { E12: odd });
    expect(arr(c.copy(0, ['E12']).E12!.data)).toEqual([0.5, 0.25]);
    const q = unitTokens({ rows: 1, dim: 2, data: Float32Array.from([1, 0]) });
    expect(c.maxsim(q, 0)).toBe(unitMaxsim(q, unitTokens(odd)));
  });
});

describe('SpaceIndex on feature columns', () => {
  it('similarities read the same values as the features given, through updates, deletes and reused slots', () => {
    const idx = new SpaceIndex();
    const f = (x: number): SpaceFeatures => ({
      E8: Float32Array.from([x, 1, 0, 0, 1]),
      E6: sparseFromEntries([[1, x], [5, 1]]),
      E9: Uint8Array.from([x, 3]),
      E12: steps(2, 4, x),
    });
    const held = new Map<string, SpaceFeatures>();
    const put = (id: string, x: number) => {
      idx.upsert(id, f(x));
      held.set(id, f(x));
    };
    put('a', 1);
    put('b', 2);
    put('c', 3);
    put('b', 5); // update
    idx.remove('a');
    held.delete('a');
    put('d', 7); // a's slot reused
    const q = f(4);
    for (const [id, mf] of held) {
      const sims = idx.similarities(q, id, ['E6', 'E8', 'E9', 'E12']);
      for (const s of ['E6', 'E8', 'E9'] as const) expect(sims[s]).toBe(similarity(q[s] as SpaceVector, mf[s] as SpaceVector, s));
      expect(sims.E12).toBe(unitMaxsim(unitTokens(q.E12!), unitTokens(unpackTokens(packTokens(mf.E12!)!))));
      expect(arr(idx.features(id)!.E8)).toEqual(arr(mf.E8));
    }
    expect(idx.features('a')).toBeUndefined();
    expect(idx.candidates(q, 5, { spaces: ['E6'] }).map((h) => h.id).sort()).toEqual(['b', 'c', 'd']);
  });
});
