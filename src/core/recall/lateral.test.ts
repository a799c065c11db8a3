import { describe, expect, it, vi } from 'vitest';
import {
  deriveQueryTags,
  isDerivedProfile,
  tagSpecificity,
  weightBySpecificity,
  l2FromCosine,
  lateralScore,
  lateralSimilarity,
  recallWithLateral,
  recencyDecay,
  tagOverlap,
  type LateralCandidate,
} from './lateral';
import { TopKHeap } from './heap';

describe('lateral similarity: the seed 000 table', () => {
  it.each([
    [0.5, 0.33],
    [1.0, 0.5],
    [1.5, 0.6],
    [2.0, 0.67],
    [5.0, 0.83],
  ])('d = %s -> %s', (d, v) => {
    expect(lateralSimilarity(d)).toBeCloseTo(v, 2);
    expect(lateralScore(d, 1, 1, 1)).toBeCloseTo(v, 2);
  });
  it('tends to 1, is 0 at d = 0, never NaN', () => {
    expect(lateralSimilarity(1e9)).toBeCloseTo(1, 6);
    expect(lateralSimilarity(Infinity)).toBe(1);
    expect(lateralSimilarity(0)).toBe(0);
    expect(lateralScore(0, 1, 1, 1)).toBe(0);
    expect(lateralScore(Number.NaN, 1, 1, 1)).toBe(0);
    expect(lateralSimilarity(-1)).toBe(0);
  });
  it('multiplies overlap, importance and decay', () => {
    // 1.5 / 2.5 = 0.6; * 0.5 * 0.8 * 0.5 = 0.12
    expect(lateralScore(1.5, 0.5, 0.8, 0.5)).toBeCloseTo(0.12, 12);
  });
  it('l2 from cosine: sqrt(2 - 2cos)', () => {
    expect(l2FromCosine(1)).toBe(0);
    expect(l2FromCosine(0)).toBeCloseTo(Math.SQRT2, 12);
    expect(l2FromCosine(-1)).toBe(2);
    expect(l2FromCosine(0.28)).toBeCloseTo(1.2, 12); // the default threshold is cos 0.28
    expect(l2FromCosine(1.0000001)).toBe(0); // float overshoot clamped
  });
  it('recency decay halves every half-life, off at 0', () => {
    const day = 86_400_000;
    expect(recencyDecay(0, 180 * day, 180)).toBeCloseTo(0.5, 12);
    expect(recencyDecay(0, 360 * day, 180)).toBeCloseTo(0.25, 12);
    expect(recencyDecay(0, 360 * day, 0)).toBe(1);
    expect(recencyDecay(10 * day, 0, 180)).toBe(1); // future dates do not amplify
  });
});

describe('tagOverlap: weighted containment |Q ∩ M| / |Q|', () => {
  it('counts the share of query tags the memory has', () => {
    expect(tagOverlap(['db', 'index'], ['db', 'index', 'btree', 'fs'])).toBe(1);
    expect(tagOverlap(['db', 'index'], ['db'])).toBe(0.5);
    expect(tagOverlap(['db', 'index', 'perf'], new Set(['perf']))).toBeCloseTo(1 / 3, 12);
    expect(tagOverlap([], ['db'])).toBe(0);
    expect(tagOverlap(['db'], [])).toBe(0);
  });
  it('is not Jaccard: extra memory tags do not lower it', () => {
    expect(tagOverlap(['a'], ['a', 'b', 'c', 'd'])).toBe(1); // Jaccard would be 0.25
  });
  it('uses weights when given', () => {
    // 1 / (1 + 1 + 0.5)
    const q = [{ tag: 'a', weight: 1 }, { tag: 'b', weight: 1 }, { tag: 'c', weight: 0.5 }];
    expect(tagOverlap(q, ['a'])).toBeCloseTo(0.4, 12);
    expect(tagOverlap(q, ['a', 'c'])).toBeCloseTo(0.6, 12);
  });
});

describe('tagOverlap: a derived profile is normalised by its strongest tag', () => {
  const d = (tag: string, weight: number) => ({ tag, weight, derived: true });
  const profile = [d('a', 1), d('b', 0.5), d('c', 0.33)];
  it('sharing the dominant tag scores 1, only a weak one its relative weight', () => {
    expect(tagOverlap(profile, ['a'])).toBe(1);
    expect(tagOverlap(profile, ['c', 'x'])).toBeCloseTo(0.33, 12);
    expect(tagOverlap(profile, ['b'])).toBe(0.5);
    expect(tagOverlap(profile, ['x'])).toBe(0);
  });
  it('takes the strongest shared tag, not a sum: weak tags do not add up', () => {
    expect(tagOverlap(profile, ['b', 'c'])).toBe(0.5); // a capped sum would give 0.83
    expect(tagOverlap(profile, new Set(['a', 'b', 'c']))).toBe(1);
  });
  it('is scale-free: only relative weights count', () => {
    expect(tagOverlap([d('a', 4), d('c', 1)], ['c'])).toBe(0.25);
  });
  it('explicit tags are unchanged: the same weights without the derived mark are containment', () => {
    const explicit = [{ tag: 'a', weight: 1 }, { tag: 'b', weight: 0.5 }, { tag: 'c', weight: 0.33 }];
    expect(isDerivedProfile(explicit)).toBe(false);
    expect(tagOverlap(explicit, ['a'])).toBeCloseTo(1 / 1.83, 12);
    expect(tagOverlap(explicit, ['c'])).toBeCloseTo(0.33 / 1.83, 12);
    // one unmarked entry makes the whole list explicit
    expect(tagOverlap([d('a', 1), { tag: 'b', weight: 1 }], ['a'])).toBe(0.5);
    expect(tagOverlap(['a', 'b'], ['a'])).toBe(0.5);
    expect(isDerivedProfile(['a'])).toBe(false);
    expect(isDerivedProfile([])).toBe(false);
    expect(isDerivedProfile(profile)).toBe(true);
  });
});

describe('specificity of derived tags', () => {
  it('tagSpecificity = ln(1 + N / df), df at least 1', () => {
    expect(tagSpecificity(3, 323)).toBeCloseTo(Math.log(1 + 323 / 3), 12); // 4.688
    expect(tagSpecificity(3, 323)).toBeCloseTo(4.6883, 4);
    expect(tagSpecificity(50, 323)).toBeCloseTo(2.0096, 4);
    expect(tagSpecificity(0, 4)).toBeCloseTo(Math.log(5), 12);
  });
  it('weightBySpecificity multiplies each weight by the specificity over the candidates', () => {
    const cs = [{ tags: ['a'] }, { tags: ['a', 'a'] }, { tags: ['a', 'x'] }, { tags: new Set(['b']) }];
    const w = weightBySpecificity([{ tag: 'a', weight: 1, derived: true }, { tag: 'b', weight: 0.5, derived: true }], cs);
    // a: df 3 of 4 -> ln(1 + 4/3) = 0.8473; b: df 1 -> 0.5 * ln 5 = 0.8047
    expect(w[0]).toMatchObject({ tag: 'a', derived: true });
    expect(w[0].weight).toBeCloseTo(0.8473, 4);
    expect(w[1].weight).toBeCloseTo(0.8047, 4);
  });
});

describe('deriveQueryTags', () => {
  it('explicit tags win with weight 1; an explicit empty list means none', () => {
    expect(deriveQueryTags(['x', 'y'], [{ tags: ['z'] }], 5)).toEqual([
      { tag: 'x', weight: 1 },
      { tag: 'y', weight: 1 },
    ]);
    expect(deriveQueryTags([], [{ tags: ['z'] }], 5)).toEqual([]);
  });
  it('unions the top results, weighted 1/(rank+1), suggested at half, capped', () => {
    const docs = [
      { tags: ['db', 'perf'], suggestedTags: ['btree', 'db'] },
      { tags: ['db'], suggestedTags: ['cache'] },
      { tags: ['ops'] },
    ];
    // db: 1 + 1/2 = 1.5; perf: 1; btree: 0.5; ops: 1/3; cache: 0.25
    expect(deriveQueryTags(null, docs, 10)).toEqual([
      { tag: 'db', weight: 1.5, derived: true },
      { tag: 'perf', weight: 1, derived: true },
      { tag: 'btree', weight: 0.5, derived: true },
      { tag: 'ops', weight: 1 / 3, derived: true },
      { tag: 'cache', weight: 0.25, derived: true },
    ]);
    expect(deriveQueryTags(null, docs, 2).map((t) => t.tag)).toEqual(['db', 'perf']);
  });
  it('looks at the top 5 results only and breaks weight ties by tag', () => {
    const docs = [{ tags: ['b'] }, { tags: [] }, { tags: [] }, { tags: [] }, { tags: [] }, { tags: ['zzz'] }];
    expect(deriveQueryTags(null, docs, 5).map((t) => t.tag)).toEqual(['b']);
    expect(deriveQueryTags(null, [{ tags: ['b', 'a'] }], 5).map((t) => t.tag)).toEqual(['a', 'b']);
  });
});

const cand = (id: string, score: number, distance: number, tags: string[] = [], importance = 1, extra: Partial<LateralCandidate> = {}): LateralCandidate => ({
  id, score, distance, tags, importance, decay: 1, ...extra,
});

describe('recallWithLateral: the dual heap', () => {
  const opts = { topK: 2, lateralMode: true, lateralDistanceThreshold: 1.2, lateralMaxResults: 2, lateralMinTagOverlap: 0.5 };
  const candidates = [
    cand('a', 0.9, 0.5),
    cand('b', 0.8, 1.0),
    cand('c', 0.1, 1.1),
    cand('x', 0.0, 1.5, ['db', 'index']), // 0.6 * 1 = 0.6
    cand('y', 0.7, 2.0, ['db']), // 0.6667 * 0.5 = 0.3333 (a far standard hit is not standard)
    cand('z', 0.0, 1.9, []), // no overlap: dropped
    cand('w', 0.0, 1.3, ['db', 'index'], 0.5), // 1.3/2.3 * 0.5 = 0.2826: third, cut by N = 2
  ];

  it('fills standard (d <= threshold) and lateral (d > threshold, overlap >= min) heaps; lateral appended', () => {
    const r = recallWithLateral(candidates, ['db', 'index'], opts);
    expect(r.map((x) => [x.id, x.mode])).toEqual([
      ['a', 'standard'],
      ['b', 'standard'],
      ['x', 'lateral'],
      ['y', 'lateral'],
    ]);
    expect(r[2].lateralScore).toBeCloseTo(0.6, 12);
    expect(r[2].tagOverlap).toBe(1);
    expect(r[3].score).toBeCloseTo(1 / 3, 12);
    expect(r[3].distance).toBe(2);
  });

  it('the threshold is inclusive for standard; minOverlap is inclusive for lateral', () => {
    const r = recallWithLateral([cand('s', 0.5, 1.2), cand('l', 0, 1.2000001, ['a'])], ['a', 'b'], { ...opts, lateralMinTagOverlap: 0.5 });
    expect(r.map((x) => [x.id, x.mode])).toEqual([['s', 'standard'], ['l', 'lateral']]);
  });

  it('lateral-ineligible (suppressed) memories and unpooled near memories are skipped', () => {
    const r = recallWithLateral(
      [cand('n', 0.9, 0.3, [], 1, { pooled: false }), cand('x', 0, 1.5, ['a'], 1, { lateralEligible: false }), cand('y', 0, 1.5, ['a'], 1, { lateralBoost: 2 })],
      ['a'],
      opts,
    );
    expect(r.map((x) => x.id)).toEqual(['y']);
    expect(r[0].score).toBeCloseTo(1.2, 12);
  });

  it('a candidate without a known distance (NaN) is treated as near: standard if pooled, never lateral', () => {
    const r = recallWithLateral([cand('p', 0.5, Number.NaN, ['a']), cand('u', 0, Number.NaN, ['a'], 1, { pooled: false })], ['a'], opts);
    expect(r.map((x) => [x.id, x.mode])).toEqual([['p', 'standard']]);
  });

  it('no query tags -> no lateral results', () => {
    const r = recallWithLateral(candidates, [], opts);
    expect(r.every((x) => x.mode === 'standard')).toBe(true);
  });

  it('lateralMode off takes a separate path: no lateral check, distance and tags never read', () => {
    const spy = vi.fn();
    const touched: string[] = [];
    const guarded = candidates.map(
      (c) =>
        new Proxy(c, {
          get(t, k) {
            if (k === 'distance' || k === 'tags' || k === 'importance' || k === 'decay') touched.push(String(k));
            return Reflect.get(t, k);
          },
        }),
    );
    const r = recallWithLateral(guarded, ['db', 'index'], { ...opts, lateralMode: false }, { onLateralCheck: spy });
    expect(spy).not.toHaveBeenCalled();
    expect(touched).toEqual([]);
    // standard top-2 by score over all pooled candidates, whatever their distance
    expect(r.map((x) => [x.id, x.mode])).toEqual([['a', 'standard'], ['b', 'standard']]);
    expect(r[0].distance).toBeUndefined();
    // lateral on: the branch is entered for the 4 far candidates
    recallWithLateral(candidates, ['db'], opts, { onLateralCheck: spy });
    expect(spy).toHaveBeenCalledTimes(4);
  });
});

describe('recallWithLateral: derived query tags need no typed tag', () => {
  const opts = { topK: 4, lateralMode: true, lateralDistanceThreshold: 1.2, lateralMaxResults: 3, lateralMinTagOverlap: 0.5 };
  // the top results are gardening; one of them carries the cross-domain tag 'pruning'
  const world = [
    cand('s1', 0.9, 0.5, ['garden', 'pruning']),
    cand('s2', 0.8, 0.6, ['garden']),
    cand('s3', 0.7, 0.7, ['garden']),
    cand('s4', 0.6, 0.8, ['garden']),
    cand('farGarden', 0, 1.5, ['garden']),
    cand('gitBranches', 0, 1.5, ['pruning', 'git']),
  ];
  it('a far memory sharing the rare context tag is lateral; its overlap is the specificity-weighted relative weight', () => {
    const derived = [{ tag: 'garden', weight: 1, derived: true }, { tag: 'pruning', weight: 0.5, derived: true }];
    const r = recallWithLateral(world, derived, opts);
    // N = 6; garden df 5: 1 * ln(1 + 6/5) = 0.78846; pruning df 2: 0.5 * ln(1 + 6/2) = 0.69315
    const git = r.find((x) => x.id === 'gitBranches')!;
    expect(git.mode).toBe('lateral');
    expect(git.tagOverlap).toBeCloseTo(0.69315 / 0.78846, 4); // 0.8791
    expect(git.lateralScore).toBeCloseTo(0.6 * 0.87912, 4);
    expect(r.find((x) => x.id === 'farGarden')!.tagOverlap).toBe(1);
    expect(r.filter((x) => x.mode === 'standard').map((x) => x.id)).toEqual(['s1', 's2', 's3', 's4']);
  });
  it('with containment (the old rule for derived tags) the bridge memory fell under 0.5', () => {
    expect(tagOverlap([{ tag: 'garden', weight: 1 }, { tag: 'pruning', weight: 0.5 }], ['pruning', 'git'])).toBeCloseTo(1 / 3, 12);
  });
  it('explicit tags on the same world keep containment and weight 1 (no specificity)', () => {
    const r = recallWithLateral(world, ['garden', 'pruning'], opts);
    expect(r.filter((x) => x.mode === 'lateral').map((x) => [x.id, x.tagOverlap])).toEqual([
      ['farGarden', 0.5],
      ['gitBranches', 0.5],
    ]);
  });
  it('accepts a one-shot iterable of candidates with a derived profile', () => {
    function* gen() {
      yield* world;
    }
    const derived = [{ tag: 'garden', weight: 1, derived: true }, { tag: 'pruning', weight: 0.5, derived: true }];
    expect(recallWithLateral(gen(), derived, opts).map((x) => x.id)).toEqual(recallWithLateral(world, derived, opts).map((x) => x.id));
  });
});

describe('TopKHeap', () => {
  it('keeps the best K by score desc, id asc, for any insertion order', () => {
    const items = Array.from({ length: 50 }, (_, i) => ({ id: `m${String(i).padStart(2, '0')}`, score: (i * 7) % 5 }));
    const expected = items.slice().sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1)).slice(0, 7);
    for (let seed = 0; seed < 5; seed++) {
      const shuffled = items.slice().sort((a, b) => ((a.score * 31 + a.id.charCodeAt(2) * seed) % 11) - ((b.score * 31 + b.id.charCodeAt(2) * seed) % 11));
      const h = new TopKHeap<(typeof items)[number]>(7);
      shuffled.forEach((x) => h.push(x));
      expect(h.sorted()).toEqual(expected);
    }
  });
});

describe('recallWithLateral matches a brute-force reference (property)', () => {
  function rng(seed: number) {
    return () => ((seed = (seed * 1664525 + 1013904223) % 4294967296) / 4294967296);
  }
  it('for 50 random worlds', () => {
    const all = ['a', 'b', 'c', 'd', 'e'];
    for (let w = 0; w < 50; w++) {
      const r = rng(w + 1);
      const cs: LateralCandidate[] = Array.from({ length: 60 }, (_, i) => ({
        id: `m${String(i).padStart(2, '0')}`,
        score: Math.round(r() * 10) / 10, // many ties
        pooled: r() < 0.7,
        distance: r() * 2,
        tags: all.filter(() => r() < 0.4),
        importance: Math.round(r() * 4) / 4,
        decay: 1,
      }));
      const q = all.filter(() => r() < 0.5);
      const o = { topK: 1 + Math.floor(r() * 8), lateralMode: true, lateralDistanceThreshold: 0.8 + r() * 0.8, lateralMaxResults: 1 + Math.floor(r() * 4), lateralMinTagOverlap: r() * 0.8 };
      const order = (x: { id: string; score: number }, y: { id: string; score: number }) => y.score - x.score || (x.id < y.id ? -1 : 1);
      const std = cs.filter((c) => c.pooled && c.distance <= o.lateralDistanceThreshold).sort(order).slice(0, o.topK).map((c) => c.id);
      const lat = cs
        .filter((c) => c.distance > o.lateralDistanceThreshold)
        .map((c) => ({ id: c.id, ov: tagOverlap(q, c.tags as string[]), c }))
        .filter((x) => x.ov >= o.lateralMinTagOverlap && x.ov > 0)
        .map((x) => ({ id: x.id, score: lateralScore(x.c.distance, x.ov, x.c.importance, 1) }))
        .filter((x) => x.score > 0)
        .sort(order)
        .slice(0, o.lateralMaxResults)
        .map((x) => x.id);
      const got = recallWithLateral(cs, q, o);
      expect(got.filter((x) => x.mode === 'standard').map((x) => x.id)).toEqual(std);
      expect(got.filter((x) => x.mode === 'lateral').map((x) => x.id)).toEqual(lat);
      expect(got.map((x) => x.mode)).toEqual([...std.map(() => 'standard'), ...lat.map(() => 'lateral')]);
    }
  });
});

describe('lexical matches stay standard in lateral mode', () => {
  it('a far pooled hit with bm25 > 0 is standard, not lateral or dropped', () => {
    const o = { topK: 3, lateralMode: true, lateralDistanceThreshold: 1.2, lateralMaxResults: 2, lateralMinTagOverlap: 0.5 };
    const r = recallWithLateral(
      [
        cand('lex', 0.8, 1.5, ['a'], 1, { lexicalMatch: true }),
        cand('sem', 0.7, 1.5, ['a']), // far, pooled, no lexical match: lateral
        cand('unpooled', 0, 1.5, ['a'], 1, { lexicalMatch: true, pooled: false }), // not a pooled hit: lateral
      ],
      ['a'],
      o,
    );
    expect(r.map((x) => [x.id, x.mode])).toEqual([['lex', 'standard'], ['sem', 'lateral'], ['unpooled', 'lateral']]);
  });
});
