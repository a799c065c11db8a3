import { describe, expect, it } from 'vitest';
import { compareRanked, kthAscending, topK, TopK, topKIndices } from './topk';

describe('TopK', () => {
  it('keeps the k best, best first', () => {
    const h = new TopK<string>(3);
    for (const [id, s] of [['a', 1], ['b', 5], ['c', 3], ['d', 4], ['e', 2]] as const) h.push(id, s, id);
    expect(h.sorted().map((r) => r.id)).toEqual(['b', 'd', 'c']);
    expect(h.threshold()).toBe(3);
  });

  it('breaks ties by id ascending, whatever the insertion order', () => {
    const ids = ['m3', 'm1', 'm4', 'm2', 'm0'];
    const h1 = new TopK(3);
    const h2 = new TopK(3);
    for (const id of ids) h1.push(id, 1, undefined);
    for (const id of [...ids].reverse()) h2.push(id, 1, undefined);
    expect(h1.sorted().map((r) => r.id)).toEqual(['m0', 'm1', 'm2']);
    expect(h2.sorted().map((r) => r.id)).toEqual(['m0', 'm1', 'm2']);
  });

  it('ignores NaN and handles k = 0', () => {
    const h = new TopK(2);
    expect(h.push('x', Number.NaN, undefined)).toBe(false);
    expect(h.size).toBe(0);
    expect(new TopK(0).push('x', 1, undefined)).toBe(false);
    expect(topK([], 5)).toEqual([]);
  });

  it('property: equals a full sort truncated to k', () => {
    let seed = 42;
    const rnd = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    for (let trial = 0; trial < 50; trial++) {
      const n = Math.floor(rnd() * 60);
      const k = Math.floor(rnd() * 20);
      // Few distinct scores, so ties are common.
      const entries = Array.from({ length: n }, (_, i) => ({ id: `id${Math.floor(rnd() * 1000)}-${i}`, score: Math.floor(rnd() * 5) }));
      const expected = [...entries].sort(compareRanked).slice(0, k);
      expect(topK(entries, k)).toEqual(expected);
    }
  });
});

describe('topKIndices', () => {
  it('property: both the heap path (k <= 64) and the sort path agree with a full sort', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    for (let trial = 0; trial < 60; trial++) {
      const count = Math.floor(rnd() * 300);
      const k = trial % 2 === 0 ? Math.floor(rnd() * 64) : 65 + Math.floor(rnd() * 300);
      const scores = new Float64Array(count + 5); // longer than count: the tail must be ignored
      scores.fill(99);
      const ids: string[] = [];
      for (let i = 0; i < count; i++) {
        scores[i] = Math.floor(rnd() * 6) / 2; // many ties
        ids.push(`x${Math.floor(rnd() * 50)}-${i}`);
      }
      const expected = ids
        .map((id, slot) => ({ id, score: scores[slot], slot }))
        .sort(compareRanked)
        .slice(0, k)
        .map((e) => e.slot);
      expect(topKIndices(scores, count, k, (s) => ids[s])).toEqual(expected);
    }
  });
});

describe('kthAscending (the selection behind a deep topKIndices)', () => {
  it('picks the value a sort would put at the index, worked by hand', () => {
    const s = Float64Array.from([0.3, -0.1, 0.9, 0.3, 0.5]);
    // sorted: -0.1, 0.3, 0.3, 0.5, 0.9
    expect(kthAscending(s, 5, 0)).toBe(-0.1);
    expect(kthAscending(s, 5, 2)).toBe(0.3);
    expect(kthAscending(s, 5, 3)).toBe(0.5);
    expect(kthAscending(s, 5, 4)).toBe(0.9);
    // only the first `count` entries count: sorted 0.3, -0.1, 0.9 -> -0.1, 0.3, 0.9
    expect(kthAscending(s, 3, 1)).toBe(0.3);
    expect(s[0]).toBe(0.3); // the input is not reordered
  });

  it('puts NaN last, as Float64Array sort does', () => {
    const s = Float64Array.from([Number.NaN, 2, 1]);
    expect(kthAscending(s, 3, 0)).toBe(1);
    expect(kthAscending(s, 3, 1)).toBe(2);
    expect(kthAscending(s, 3, 2)).toBeNaN();
    expect(() => kthAscending(s, 3, 3)).toThrow(RangeError);
  });

  it('property: equals the sorted copy at every index, duplicates included', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let t = 0; t < 40; t++) {
      const n = 1 + Math.floor(rand() * 60);
      const s = Float64Array.from({ length: n }, () => Math.round(rand() * 10) / 10);
      const sorted = s.slice().sort();
      for (let i = 0; i < n; i++) expect(kthAscending(s, n, i)).toBe(sorted[i]);
    }
  });

  it('topKIndices with a deep k keeps the same slots as before (k > 64)', () => {
    const scores = Float64Array.from({ length: 300 }, (_, i) => ((i * 37) % 101) / 100);
    const idOf = (i: number) => `m${String(i).padStart(3, '0')}`;
    const got = topKIndices(scores, 300, 100, idOf);
    const want = [...Array(300).keys()]
      .sort((a, b) => scores[b] - scores[a] || (idOf(a) < idOf(b) ? -1 : 1))
      .slice(0, 100);
    expect(got).toEqual(want);
  });
});
