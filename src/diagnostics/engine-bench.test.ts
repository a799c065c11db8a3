import { describe, expect, it } from 'vitest';
import { ENGINE_BENCH_DIM, randomUnitVector, seededRandom, summarize, syntheticDocs } from './engine-bench';
import { deserializeSpace } from '../core/spaces';
import type { EngineDoc } from '../protocol/engine';

describe('summarize', () => {
  it('gives the median (mean of the middle pair) and the nearest-rank p95', () => {
    // sorted: 1 2 3 4 -> median (2 + 3) / 2 = 2.5; p95 rank ceil(3.8) = 4 -> 4
    expect(summarize([4, 1, 3, 2])).toEqual({ count: 4, medianMs: 2.5, p95Ms: 4 });
    // 1..20: median (10 + 11) / 2; p95 rank ceil(19) = 19 -> 19
    expect(summarize(Array.from({ length: 20 }, (_, i) => 20 - i))).toEqual({ count: 20, medianMs: 10.5, p95Ms: 19 });
    expect(summarize([7])).toEqual({ count: 1, medianMs: 7, p95Ms: 7 });
  });

  it('is NaN for no samples rather than a made-up zero', () => {
    const s = summarize([]);
    expect(s.count).toBe(0);
    expect(s.medianMs).toBeNaN();
    expect(s.p95Ms).toBeNaN();
  });
});

const e1 = (d: EngineDoc): Float32Array => deserializeSpace('E1', d.features!.E1!) as Float32Array;

describe('syntheticDocs', () => {
  it('is deterministic, unit-norm, 25 memories a session, each E1 on its own buffer', () => {
    const a = syntheticDocs(60);
    const b = syntheticDocs(60);
    expect(a.map((d) => d.text)).toEqual(b.map((d) => d.text));
    expect(Array.from(e1(a[7]))).toEqual(Array.from(e1(b[7])));
    expect(a[0].id).toBe('m000000');
    expect(a[59].id).toBe('m000059');
    expect(a[24].sessionId).toBe('s0');
    expect(a[25].sessionId).toBe('s1');
    for (const d of a) {
      const v = e1(d);
      expect(v).toHaveLength(ENGINE_BENCH_DIM);
      expect(d.features!.E1!.byteLength).toBe(4 + ENGINE_BENCH_DIM * 4); // its own buffer: transferable without detaching a neighbour
      expect(Math.abs(Math.hypot(...v) - 1)).toBeLessThan(1e-5);
      const words = d.text.split(' ').length;
      expect(words).toBeGreaterThanOrEqual(8);
      expect(words).toBeLessThanOrEqual(30);
      expect(d.tags.length).toBeGreaterThanOrEqual(1);
      expect(new Set(d.tags).size).toBe(d.tags.length);
      expect(d.importance).toBeGreaterThanOrEqual(0);
      expect(d.importance).toBeLessThanOrEqual(1);
    }
    expect(new Set(a.map((d) => d.id)).size).toBe(60);
  });

  it('refuses a negative or fractional size', () => {
    expect(() => syntheticDocs(-1)).toThrow(RangeError);
    expect(() => syntheticDocs(1.5)).toThrow(/whole number/);
  });
});

describe('randomUnitVector', () => {
  it('spreads directions: two random 512-d vectors are nearly orthogonal', () => {
    const r = seededRandom(3);
    const u = randomUnitVector(r);
    const v = randomUnitVector(r);
    let dot = 0;
    for (let i = 0; i < u.length; i++) dot += u[i] * v[i];
    // cosine of independent uniform directions has sd 1/sqrt(512) ~ 0.044
    expect(Math.abs(dot)).toBeLessThan(0.2);
  });
});
