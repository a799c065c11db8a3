import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { associate, matrixFromStore, buildNeighbourMatrix, type RecallResult } from '../recall';
import { resolveRecallOptions } from '../recall';
import { normalize } from '../vector';
import { dequantise, dotErrorBound, quantiseInto } from './quantize';
import { DenseStore } from './store';
import { NeighbourLists } from './neighbours';
import { simdAvailable } from './simd';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}
const randVec = (r: () => number, dim: number) => Float32Array.from({ length: dim }, r);

/** The reference: every accepted row's f32 cosine, best k by score desc, id asc. */
function bruteForce(rows: [string, Float32Array][], q: Float32Array, k: number, accept: (id: string) => boolean = () => true) {
  const qu = normalize(q);
  return rows
    .filter(([id]) => accept(id))
    .map(([id, v]) => {
      const u = normalize(v);
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0, i = 0;
      for (; i + 4 <= u.length; i += 4) {
        s0 += qu[i] * u[i];
        s1 += qu[i + 1] * u[i + 1];
        s2 += qu[i + 2] * u[i + 2];
        s3 += qu[i + 3] * u[i + 3];
      }
      for (; i < u.length; i++) s0 += qu[i] * u[i];
      return { id, score: s0 + s1 + s2 + s3 };
    })
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .slice(0, k);
}

describe('int8 quantisation', () => {
  it('codes, scale and error of a hand-worked vector', () => {
    const out = new Int8Array(4);
    const { scale, error } = quantiseInto([0.5, -0.25, 0.125, 0], out, 0);
    // scale = 0.5 / 127; -0.25 / s = -63.5 -> -63 (round half up); 0.125 / s = 31.75 -> 32
    expect(scale).toBeCloseTo(0.5 / 127, 12);
    expect([...out]).toEqual([127, -63, 32, 0]);
    const e1 = -0.25 + (63 * 0.5) / 127; // -0.0019685
    const e2 = 0.125 - (32 * 0.5) / 127; // -0.0009843
    expect(error).toBeCloseTo(Math.sqrt(e1 * e1 + e2 * e2), 12);
    expect(error).toBeCloseTo(0.0022009, 6);
    expect([...dequantise(out, 0, 4, scale)].map((x) => +x.toFixed(6))).toEqual([0.5, -0.248031, 0.125984, 0]);
  });

  it('a zero vector has scale 0 and error 0', () => {
    const out = new Int8Array(3).fill(5);
    expect(quantiseInto([0, 0, 0], out, 0)).toEqual({ scale: 0, error: 0 });
    expect([...out]).toEqual([0, 0, 0]);
  });

  it('each component is off by at most scale / 2, and the dot product by at most the bound', () => {
    const r = rng(7);
    let worstComponent = 0;
    let worstDot = 0;
    for (let t = 0; t < 100; t++) {
      const dim = 384;
      const x = normalize(randVec(r, dim));
      const q = normalize(randVec(r, dim));
      const cx = new Int8Array(dim);
      const cq = new Int8Array(dim);
      const a = quantiseInto(x, cx, 0);
      const b = quantiseInto(q, cq, 0);
      const dx = dequantise(cx, 0, dim, a.scale);
      for (let j = 0; j < dim; j++) worstComponent = Math.max(worstComponent, Math.abs(dx[j] - x[j]) / (a.scale / 2 + 1e-9));
      let exact = 0;
      let codes = 0;
      for (let j = 0; j < dim; j++) {
        exact += x[j] * q[j];
        codes += cx[j] * cq[j];
      }
      worstDot = Math.max(worstDot, Math.abs(exact - a.scale * b.scale * codes) / dotErrorBound(b.error, a.error));
    }
    expect(worstComponent).toBeLessThanOrEqual(1);
    expect(worstDot).toBeLessThanOrEqual(1);
    expect(worstDot).toBeGreaterThan(0);
  });
});

describe('DenseStore', () => {
  it('ranks a near tie the int8 codes cannot see by its f32 score (the int8-only store sees a tie)', () => {
    // q = (1, 0.5, 0): b = (1, 0.003, 0) is nearer than a = (1, 0, 0.003), but both quantise to
    // (127, 0, 0) with the same scale (0.003 · 127 = 0.38 rounds to 0)
    const q = Float32Array.of(1, 0.5, 0);
    const rows: [string, Float32Array][] = [
      ['a', Float32Array.of(1, 0, 0.003)],
      ['b', Float32Array.of(1, 0.003, 0)],
    ];
    const exact = new DenseStore({ dim: 3, encoder: 'e' });
    const approx = new DenseStore({ dim: 3, encoder: 'e', keepFloat: false });
    for (const [id, v] of rows) {
      exact.set(id, v);
      approx.set(id, v);
    }
    const hits = exact.search(q, 2);
    expect(hits.map((h) => h.id)).toEqual(['b', 'a']);
    expect(hits.map((h) => h.score)).toEqual(bruteForce(rows, q, 2).map((h) => h.score));
    const nq = Math.sqrt(1.25);
    const nv = Math.sqrt(1 + 9e-6);
    expect(hits[0].score).toBeCloseTo(1.0015 / (nq * nv), 6); // 0.895770
    expect(hits[1].score).toBeCloseTo(1 / (nq * nv), 6); // 0.894424
    // int8 alone: both score (127 · 127) · (1 / 127) · (1 / (127 · nq)) · ... equally, so the tie breaks by id
    const a = approx.search(q, 2);
    expect(a.map((h) => h.id)).toEqual(['a', 'b']);
    expect(a[1].score).toBe(a[0].score);
    expect(a[0].score).toBeCloseTo(hits[1].score, 2);
  });

  it('returns the full f32 scan top k, scores included, on random vectors of 384, 512 and 768 dimensions', () => {
    for (const dim of [384, 512, 768]) {
      const r = rng(dim);
      const rows: [string, Float32Array][] = Array.from({ length: 600 }, (_, i) => [`m${String(i).padStart(4, '0')}`, randVec(r, dim)]);
      const s = new DenseStore({ dim, encoder: 'e' });
      for (const [id, v] of rows) s.set(id, v);
      for (let t = 0; t < 5; t++) {
        const q = randVec(r, dim);
        for (const k of [1, 10, 100]) expect(s.search(q, k)).toEqual(bruteForce(rows, q, k).map((h) => ({ ...h, slot: s.slotOf(h.id) })));
      }
    }
  });

  it('the WebAssembly SIMD kernel and the JS kernel agree, padded strides included', () => {
    expect(simdAvailable()).toBe(true); // Node 20 and Chromium both run WebAssembly SIMD
    for (const dim of [3, 17, 384]) {
      const r = rng(dim + 1);
      const w = new DenseStore({ dim, encoder: 'e' });
      const j = new DenseStore({ dim, encoder: 'e', kernel: 'js' });
      expect([w.kernel, j.kernel, w.stride]).toEqual(['wasm-simd', 'js', Math.ceil(dim / 16) * 16]);
      for (let i = 0; i < 5000; i++) {
        const v = randVec(r, dim);
        w.set(`m${i}`, v);
        j.set(`m${i}`, v);
      }
      for (let i = 0; i < 100; i++) {
        w.remove(`m${i * 7}`);
        j.remove(`m${i * 7}`);
      }
      const q = randVec(r, dim);
      const p = w.prepare(q);
      expect([...w.shortlist(p, 50)]).toEqual([...j.shortlist(p, 50)]);
      expect(w.search(q, 50)).toEqual(j.search(q, 50));
    }
  });

  it('applies the accept filter before the top k', () => {
    const rows: [string, Float32Array][] = [
      ['best', Float32Array.of(1, 0, 0)],
      ['second', Float32Array.of(0.9, 0.1, 0)],
      ['third', Float32Array.of(0.5, 0.5, 0)],
      ['far', Float32Array.of(0, 0, 1)],
    ];
    const s = new DenseStore({ dim: 3, encoder: 'e' });
    for (const [id, v] of rows) s.set(id, v);
    const best = s.slotOf('best')!;
    const hits = s.search(Float32Array.of(1, 0, 0), 2, { accept: (slot) => slot !== best });
    expect(hits.map((h) => h.id)).toEqual(['second', 'third']);
    expect(hits[0].score).toBeCloseTo(0.9 / Math.hypot(0.9, 0.1), 6);
    expect(s.search(Float32Array.of(1, 0, 0), 5, { minScore: 0.5 }).map((h) => h.id)).toEqual(['best', 'second', 'third']);
  });

  it('removes by swap-remove (the last slot moves into the hole) and updates in place', () => {
    const s = new DenseStore({ dim: 2, encoder: 'e' });
    s.set('a', Float32Array.of(1, 0));
    s.set('b', Float32Array.of(0, 1));
    s.set('c', Float32Array.of(1, 1));
    expect(s.remove('a')).toEqual({ from: 2, to: 0 });
    expect(s.slotOf('c')).toBe(0);
    expect(s.size).toBe(2);
    expect(s.remove('b')).toBeNull(); // b was the last slot: nothing moves
    expect(s.remove('zzz')).toBeNull();
    expect(s.search(Float32Array.of(1, 0), 5).map((h) => h.id)).toEqual(['c']);
    s.set('c', Float32Array.of(0, -3)); // update: same slot, new (normalised) vector
    expect(s.slotOf('c')).toBe(0);
    expect([...s.vectorOf('c')!]).toEqual([0, -1]);
    expect(s.search(Float32Array.of(1, 0), 5)[0].score).toBe(0);
    // grows past its first capacity (64) without losing rows
    for (let i = 0; i < 200; i++) s.set(`x${i}`, Float32Array.of(i + 1, 1));
    expect(s.size).toBe(201);
    expect(s.search(Float32Array.of(0, -1), 1)[0].id).toBe('c');
  });

  it('refuses vectors of another encoder, another dimension or with NaN, and stays unchanged', () => {
    const s = new DenseStore({ dim: 2, encoder: 'all-MiniLM-L6-v2-int8' });
    s.set('a', Float32Array.of(1, 0), 'all-MiniLM-L6-v2-int8');
    const refused = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(AppError);
        return (e as AppError).code;
      }
      return 'accepted';
    };
    expect(refused(() => s.set('b', Float32Array.of(0, 1), 'use-lite'))).toBe('INVALID_EMBEDDING');
    expect(refused(() => s.search(Float32Array.of(0, 1), 1, { encoder: 'use-lite' }))).toBe('INVALID_EMBEDDING');
    expect(refused(() => s.set('b', Float32Array.of(0, 1, 0)))).toBe('INVALID_EMBEDDING');
    expect(refused(() => s.set('a', Float32Array.of(NaN, 1)))).toBe('INVALID_EMBEDDING');
    expect(refused(() => new DenseStore({ dim: 0, encoder: 'e' }))).toBe('INVALID_CONFIG');
    expect(s.size).toBe(1);
    expect([...s.vectorOf('a')!]).toEqual([1, 0]);
  });

  it('nearest leaves the memory itself out', () => {
    const s = new DenseStore({ dim: 2, encoder: 'e' });
    s.set('a', Float32Array.of(1, 0));
    s.set('b', Float32Array.of(1, 0.1));
    s.set('c', Float32Array.of(0, 1));
    expect(s.nearest('a', 2).map((h) => h.id)).toEqual(['b', 'c']);
    expect(s.nearest('nobody', 2)).toEqual([]);
  });
});

describe('neighbour lists for the associative walk', () => {
  /** Clustered vectors (so neighbours above 0.72 exist), two sessions. */
  function clustered(n: number, dim: number, seed: number): DenseStore {
    const r = rng(seed);
    const centres = Array.from({ length: 8 }, () => randVec(r, dim));
    const s = new DenseStore({ dim, encoder: 'e' });
    for (let i = 0; i < n; i++) {
      const c = centres[i % 8];
      s.set(`m${String(i).padStart(4, '0')}`, Float32Array.from(c, (x) => x + 0.35 * r()));
    }
    return s;
  }

  it('walks exactly as the full scan does, with complete and with truncated lists', () => {
    const s = clustered(400, 32, 3);
    const sessionOf = (id: string) => (Number(id.slice(1)) % 3 === 0 ? 's1' : 's2');
    const o = { ...resolveRecallOptions({ assocHops: 3, beamWidth: 2, minCosine: 0.72 }) };
    const seeds: RecallResult[] = ['m0000', 'm0001', 'm0005'].map((id, i) => ({
      id,
      score: 1 - i * 0.1,
      mode: 'standard',
      why: { lexical: 0, semantic: 0, bm25: 0, cosine: 0.5, matchedTerms: [] },
    }));
    const full = buildNeighbourMatrix(s.idList(), (id) => s.vectorOf(id), sessionOf);
    const want = associate(seeds, { matrix: full }, o);
    expect(want.added).toBeGreaterThan(5);
    for (const cap of [2, 4, 32]) {
      const m = matrixFromStore(s, sessionOf);
      const lists = new NeighbourLists(s, m.scope, 0.9, cap, cap === 2 ? 2 : 2048);
      const got = associate(seeds, { matrix: m, neighbours: (p, k, c, closed) => lists.pick(p, k, c, closed) }, o);
      expect(got.results.map((x) => [x.id, x.chain?.map((l) => l.id)])).toEqual(want.results.map((x) => [x.id, x.chain?.map((l) => l.id)]));
      for (let i = 0; i < got.results.length; i++) expect(got.results[i].score).toBeCloseTo(want.results[i].score, 6);
      if (cap === 2) expect(lists.stats.fallbacks).toBeGreaterThan(0); // short lists cannot always certify (no regrowth here)
      if (cap === 4) expect(lists.stats).toMatchObject({ fallbacks: 0 }); // regrown instead
      if (cap === 4) expect(lists.stats.regrown).toBeGreaterThan(0);
      if (cap === 32) expect(lists.stats.fallbacks).toBe(0);
    }
  });

  it('serves a second pick of the same memory from its cache until the store changes', () => {
    const s = clustered(100, 16, 5);
    const m = matrixFromStore(s);
    const lists = new NeighbourLists(s, m.scope, 0.9);
    const closed = new Uint8Array(s.size);
    const first = lists.pick(0, 2, 0.5, closed);
    expect(lists.pick(0, 2, 0.5, closed)).toEqual(first);
    expect(lists.stats).toMatchObject({ computed: 1, cached: 1 });
    s.set('m0000', s.vectorAt(1).slice());
    lists.pick(0, 2, 0.5, closed);
    expect(lists.stats.computed).toBe(2);
  });

  it('keeps the most recently used lists when full (the least recently used goes, not all)', () => {
    const s = clustered(100, 16, 5);
    const m = matrixFromStore(s);
    const lists = new NeighbourLists(s, m.scope, 0.9, 32, 2048, 3);
    const closed = new Uint8Array(s.size);
    for (const p of [0, 1, 2, 0]) lists.pick(p, 2, 0.5, closed); // 0 used again: 1 is the oldest now
    expect(lists.stats).toMatchObject({ computed: 3, cached: 1 });
    lists.pick(3, 2, 0.5, closed); // full: 1 goes
    lists.pick(0, 2, 0.5, closed);
    lists.pick(2, 2, 0.5, closed);
    expect(lists.stats).toMatchObject({ computed: 4, cached: 3 });
    lists.pick(1, 2, 0.5, closed);
    expect(lists.stats).toMatchObject({ computed: 5, cached: 3 });
  });
});
