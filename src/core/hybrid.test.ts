import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { DEFAULT_HYBRID_CONFIG, HybridIndex, isShownHit, type IndexDoc } from './hybrid';
import type { ScoredHit } from './types';

const DIM = 4;
const vec = (...xs: number[]) => Float32Array.from(xs);

function doc(id: string, text: string, vector: Float32Array | null, extra: Partial<IndexDoc> = {}): IndexDoc {
  return {
    id,
    text,
    tags: [],
    importance: 0.5,
    createdAt: 0,
    validFrom: 0,
    validTo: null,
    status: 'active',
    vector,
    ...extra,
  };
}

function small(): HybridIndex {
  const ix = new HybridIndex(DIM, { lexicalWeight: 0.5, semanticWeight: 0.5 });
  ix.upsert(doc('a', 'walking the dog in the park', vec(1, 0, 0, 0)));
  ix.upsert(doc('b', 'painting a sunrise by the lake', vec(0, 1, 0, 0)));
  ix.upsert(doc('c', 'the dog chased a ball', vec(0.6, 0.8, 0, 0)));
  ix.upsert(doc('d', 'no vector yet: dog', null));
  return ix;
}

describe('HybridIndex basics', () => {
  it('stores docs and unit-normalises vectors', () => {
    const ix = new HybridIndex(DIM);
    ix.upsert(doc('x', 'hello', vec(3, 4, 0, 0)));
    expect(ix.size).toBe(1);
    expect(ix.has('x')).toBe(true);
    expect(Array.from(ix.vectorOf('x')!)).toEqual([Math.fround(0.6), Math.fround(0.8), 0, 0]);
    expect(ix.doc('x')!.text).toBe('hello');
    expect(ix.ids()).toEqual(['x']);
  });

  it('search on an empty index is []', () => {
    const ix = new HybridIndex(DIM);
    expect(ix.search({ text: 'anything', vector: vec(1, 0, 0, 0) }, { topK: 5 })).toEqual([]);
    expect(ix.candidates({ text: 'x', vector: null }, { topK: 5 })).toEqual({ lexical: [], dense: [] });
  });

  it('candidates returns the lexical list with matched terms and the dense list by cosine', () => {
    const { lexical, dense } = small().candidates({ text: 'dogs', vector: vec(1, 0, 0, 0) }, { topK: 3 });
    expect(lexical.map((h) => h.id).sort()).toEqual(['a', 'c', 'd']);
    for (const h of lexical) expect(h.terms).toEqual(['dogs']);
    expect(dense.map((h) => [h.id, h.score])).toEqual([
      ['a', 1],
      ['c', Math.fround(0.6)],
      ['b', 0],
    ]);
  });

  it('fuses by hand (weighted min-max, 0.5 / 0.5) and explains each hit', () => {
    const ix = small();
    // Dense: a 1, c 0.6, b 0 -> minmax a 1, c 0.6, b 0. Lexical "sunrise" matches b only -> 1.
    // Fused: a 0.5, b 0.5, c 0.3 (d: no vector, no lexical match -> absent).
    const hits = ix.search({ text: 'sunrise', vector: vec(1, 0, 0, 0) }, { topK: 10 });
    expect(hits.map((h) => h.id)).toEqual(['a', 'b', 'c']);
    expect(hits[0].score).toBeCloseTo(0.5, 6);
    expect(hits[1].score).toBeCloseTo(0.5, 6);
    expect(hits[2].score).toBeCloseTo(0.3, 6);
    const b = hits[1];
    expect(b.mode).toBe('standard');
    expect(b.why.lexical).toBeCloseTo(0.5, 6);
    expect(b.why.semantic).toBe(0);
    expect(b.why.bm25).toBeGreaterThan(0);
    expect(b.why.cosine).toBe(0);
    expect(b.why.matchedTerms).toEqual(['sunrise']);
    for (const h of hits) expect(h.why.lexical + h.why.semantic).toBeCloseTo(h.score, 9);
  });

  it('works without a query vector (lexical only) and without text (dense only)', () => {
    const ix = small();
    expect(ix.search({ text: 'sunrise', vector: null }, { topK: 5 }).map((h) => h.id)).toEqual(['b']);
    expect(ix.search({ text: '', vector: vec(0, 1, 0, 0) }, { topK: 1 }).map((h) => h.id)).toEqual(['b']);
  });

  it('indexes tags lexically', () => {
    const ix = new HybridIndex(DIM);
    ix.upsert(doc('t', 'a quiet morning', null, { tags: ['Holiday', 'beach-trip'] }));
    expect(ix.search({ text: 'beach holidays', vector: null }, { topK: 3 }).map((h) => [h.id, h.why.matchedTerms])).toEqual([
      ['t', ['beach', 'holidays']],
    ]);
  });

  it('explains the cosine of a hit that only the lexical list found', () => {
    const ix = new HybridIndex(DIM, { candidateK: 1 });
    ix.upsert(doc('near', 'unrelated words', vec(1, 0, 0, 0)));
    ix.upsert(doc('far', 'kayak', vec(0.6, 0.8, 0, 0)));
    const hits = ix.search({ text: 'kayak', vector: vec(1, 0, 0, 0) }, { topK: 2 });
    const far = hits.find((h) => h.id === 'far')!;
    expect(far.why.semantic).toBe(0); // not in the depth-1 dense list
    expect(far.why.cosine).toBeCloseTo(0.6, 6);
  });

  it('RRF through the config', () => {
    const hits = small().search({ text: 'sunrise', vector: vec(1, 0, 0, 0) }, { topK: 2, config: { fusion: 'rrf', rrfK: 60 } });
    // b: lexical rank 1 + dense rank 3 -> 0.5/61 + 0.5/63 beats a: dense rank 1 -> 0.5/61.
    expect(hits.map((h) => h.id)).toEqual(['b', 'a']);
    expect(hits[0].score).toBeCloseTo(0.5 / 61 + 0.5 / 63, 12);
  });
});

describe('HybridIndex filters', () => {
  function filtered(): HybridIndex {
    const ix = new HybridIndex(DIM);
    ix.upsert(doc('act', 'garden roses', vec(1, 0, 0, 0)));
    ix.upsert(doc('quar', 'garden roses', vec(1, 0, 0, 0), { status: 'quarantined' }));
    ix.upsert(doc('arch', 'garden roses', vec(1, 0, 0, 0), { status: 'archived' }));
    ix.upsert(doc('dead', 'garden roses', vec(1, 0, 0, 0), { deletedAt: 5 }));
    ix.upsert(doc('past', 'garden roses', vec(1, 0, 0, 0), { validFrom: 0, validTo: 100 }));
    ix.upsert(doc('future', 'garden roses', vec(1, 0, 0, 0), { validFrom: 200, validTo: null }));
    return ix;
  }
  const q = { text: 'garden', vector: vec(1, 0, 0, 0) };
  const ids = (ix: HybridIndex, o: object) => ix.search(q, { topK: 10, ...o }).map((h) => h.id).sort();

  it('hides quarantined, archived and tombstoned docs by default', () => {
    expect(ids(filtered(), {})).toEqual(['act', 'future', 'past']);
  });

  it('includes quarantined / archived on request (both lists)', () => {
    const ix = filtered();
    expect(ids(ix, { includeQuarantined: true })).toEqual(['act', 'future', 'past', 'quar']);
    expect(ids(ix, { includeArchived: true })).toEqual(['act', 'arch', 'future', 'past']);
    expect(ix.candidates({ text: '', vector: q.vector }, { topK: 10, includeQuarantined: true }).dense.map((h) => h.id).sort()).toEqual([
      'act', 'future', 'past', 'quar',
    ]);
  });

  it('asOf keeps validFrom <= asOf < validTo (open-ended allowed)', () => {
    const ix = filtered();
    expect(ids(ix, { asOf: 50 })).toEqual(['act', 'past']);
    expect(ids(ix, { asOf: 100 })).toEqual(['act']); // validTo is exclusive
    expect(ids(ix, { asOf: 200 })).toEqual(['act', 'future']);
    expect(ix.candidates({ text: 'garden', vector: null }, { topK: 10, asOf: 150 }).lexical.map((h) => h.id)).toEqual(['act']);
  });
});

describe('HybridIndex updates', () => {
  it('remove never returns the doc again; swap-remove keeps the other vectors right', () => {
    const ix = small();
    ix.remove('a');
    ix.remove('a'); // idempotent
    expect(ix.has('a')).toBe(false);
    expect(ix.vectorOf('a')).toBeUndefined();
    expect(Array.from(ix.vectorOf('c')!)).toEqual([Math.fround(0.6), Math.fround(0.8), 0, 0]);
    expect(Array.from(ix.vectorOf('b')!)).toEqual([0, 1, 0, 0]);
    const hits = ix.search({ text: 'dog walking park', vector: vec(1, 0, 0, 0) }, { topK: 10 });
    expect(hits.map((h) => h.id)).not.toContain('a');
  });

  it('upsert replaces text, vector and status', () => {
    const ix = small();
    ix.upsert(doc('b', 'kayak trip', vec(0, 0, 1, 0), { status: 'archived' }));
    expect(ix.size).toBe(4);
    expect(ix.search({ text: 'sunrise', vector: null }, { topK: 5 })).toEqual([]);
    expect(ix.search({ text: 'kayak', vector: null }, { topK: 5 })).toEqual([]);
    expect(ix.search({ text: 'kayak', vector: null }, { topK: 5, includeArchived: true }).map((h) => h.id)).toEqual(['b']);
    ix.upsert(doc('b', 'kayak trip', null));
    expect(ix.vectorOf('b')).toBeUndefined();
  });

  it('grows past its initial capacity', () => {
    const ix = new HybridIndex(DIM);
    for (let i = 0; i < 300; i++) ix.upsert(doc(`m${String(i).padStart(3, '0')}`, `note ${i}`, vec(1, i, 0, 0)));
    expect(ix.size).toBe(300);
    const v = ix.vectorOf('m299')!;
    expect(v[1] / v[0]).toBeCloseTo(299, 3);
  });

  it('property: random upserts / removes -> results sorted, unique, only live visible docs', () => {
    let seed = 99;
    const rnd = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const words = ['sea', 'hill', 'cake', 'song', 'bike', 'rain'];
    const ix = new HybridIndex(DIM);
    const live = new Set<string>();
    for (let step = 0; step < 400; step++) {
      const id = `m${Math.floor(rnd() * 80)}`;
      if (rnd() < 0.3) {
        ix.remove(id);
        live.delete(id);
      } else {
        const text = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => words[Math.floor(rnd() * words.length)]).join(' ');
        const v = rnd() < 0.2 ? null : vec(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5, rnd() - 0.5);
        ix.upsert(doc(id, text, v, { status: rnd() < 0.2 ? 'quarantined' : 'active' }));
        live.add(id);
      }
      if (step % 20 === 0) {
        const hits = ix.search({ text: words[step % words.length], vector: vec(rnd(), rnd(), rnd(), rnd()) }, { topK: 15 });
        const seen = new Set<string>();
        hits.forEach((h, i) => {
          expect(live.has(h.id)).toBe(true);
          expect(ix.doc(h.id)!.status).toBe('active');
          expect(seen.has(h.id)).toBe(false);
          seen.add(h.id);
          expect(Number.isFinite(h.score)).toBe(true);
          if (i > 0) {
            const p = hits[i - 1];
            expect(p.score > h.score || (p.score === h.score && p.id < h.id)).toBe(true);
          }
        });
        expect(ix.size).toBe(live.size);
      }
    }
  });
});

describe('HybridIndex validation', () => {
  it('rejects wrong dimensions and non-finite vectors without changing the index', () => {
    const ix = small();
    expect(() => ix.upsert(doc('z', 'x', vec(1, 2)))).toThrow(AppError);
    expect(() => ix.upsert(doc('z', 'x', vec(1, Number.NaN, 0, 0)))).toThrow(/NaN or Infinity/);
    expect(ix.has('z')).toBe(false);
    expect(ix.size).toBe(4);
    expect(() => ix.search({ text: 'x', vector: vec(1, 0) }, { topK: 3 })).toThrow(/dimensions/);
  });

  it('rejects bad importance, status, config and topK', () => {
    const ix = small();
    expect(() => ix.upsert(doc('z', 'x', null, { importance: 2 }))).toThrow(AppError);
    expect(() => ix.upsert(doc('z', 'x', null, { status: 'gone' as never }))).toThrow(AppError);
    expect(() => new HybridIndex(0)).toThrow(AppError);
    expect(() => new HybridIndex(DIM, { candidateK: 0 })).toThrow(/candidateK/);
    expect(() => ix.search({ text: 'dog', vector: null }, { topK: 3, config: { lexicalWeight: -1 } })).toThrow(AppError);
    expect(() => ix.search({ text: 'dog', vector: null }, { topK: -1 })).toThrow(/topK/);
    expect(ix.search({ text: 'dog', vector: null }, { topK: 0 })).toEqual([]);
  });

  it('ships a valid default config', () => {
    expect(() => new HybridIndex(512, DEFAULT_HYBRID_CONFIG)).not.toThrow();
  });
});

describe('isShownHit (what a plain search shows)', () => {
  const hit = (score: number, bm25: number, cosine: number, matchedTerms: string[] = []): ScoredHit => ({
    id: 'x',
    score,
    mode: 'standard',
    why: { lexical: 0, semantic: 0, bm25, cosine, matchedTerms },
  });

  it('shows a word match always, a meaning-only hit only with cosine > 0 and fused score > 0', () => {
    expect(isShownHit(hit(0, 1.2, -0.5))).toBe(true);
    expect(isShownHit(hit(0, 0, 0, ['dog']))).toBe(true);
    expect(isShownHit(hit(0.1, 0, 0.3))).toBe(true);
    expect(isShownHit(hit(0, 0, 0.3))).toBe(false); // fused to 0: the weakest of the dense list
    expect(isShownHit(hit(0.1, 0, 0))).toBe(false);
    expect(isShownHit(hit(0.1, 0, -0.2))).toBe(false);
  });

  it('hides the dense list\'s floor in a real search', () => {
    // 'park' is only in a; dense cosines a 1, c 0.6, b 0 (the list's minimum, so b fuses to 0)
    const hits = small().search({ text: 'park', vector: vec(1, 0, 0, 0) }, { topK: 10 });
    expect(hits.map((h) => h.id)).toContain('b');
    expect(hits.filter(isShownHit).map((h) => h.id)).toEqual(['a', 'c']);
  });
});

describe("lexicalScore 'coverage': the lexical list weighed by how much of the query it explains", () => {
  // N = 4. Query "nights rota today": night df 0, rota df 0 -> idf ln(1 + 4.5 / 0.5) = ln 10 each;
  // today df 2 -> ln(1 + 2.5 / 2.5) = ln 2. Query idf mass = 2 ln 10 + ln 2.
  function notes(): HybridIndex {
    const ix = new HybridIndex(DIM);
    ix.upsert(doc('a', 'today I repotted the fern', vec(0, 1, 0, 0))); // shares the everyday word, unrelated
    ix.upsert(doc('b', 'working late shifts from the 12th to the 15th', vec(0.8, 0.6, 0, 0))); // the target: no shared word
    ix.upsert(doc('c', 'today the bins went out', vec(0, 0, 1, 0)));
    ix.upsert(doc('d', 'lunch with Sam', vec(-1, 0, 0, 0)));
    return ix;
  }
  const q = { text: 'nights rota today', vector: vec(1, 0, 0, 0) };

  it('min-max lets one shared everyday word win rank 1', () => {
    // lexical min-max: a and c 1 (same tf, same length); dense min-max over cos (0, .8, 0, -1): b 1, a and c 1/1.8, d 0
    // a = 0.5 + 0.5 / 1.8 = 0.778 > b = 0.5
    const hits = notes().search(q, { topK: 4 });
    expect(hits[0].id).toBe('a');
    expect(hits[0].score).toBeCloseTo(0.5 + 0.5 / 1.8, 6);
  });

  it('coverage gives that word its share of the query (ln 2 / (2 ln 10 + ln 2) = 0.131): the meaning wins', () => {
    const share = Math.log(2) / (2 * Math.log(10) + Math.log(2));
    const hits = notes().search(q, { topK: 4, config: { lexicalScore: 'coverage' } });
    expect(hits.map((h) => h.id)).toEqual(['b', 'a', 'c', 'd']);
    expect(hits[0].score).toBeCloseTo(0.5, 6); // b: 0 + 0.5 x 1
    expect(hits[1].score).toBeCloseTo(0.5 * share + 0.5 / 1.8, 6); // a: 0.065 + 0.278
    expect(hits[1].why.coverage).toBeCloseTo(share, 10);
    expect(hits[1].why.bm25).toBeGreaterThan(0); // the raw BM25 score is still explained
    // power 2: a partial match shrinks further
    const sq = notes().search(q, { topK: 4, config: { lexicalScore: 'coverage', coveragePower: 2 } });
    expect(sq[1].score).toBeCloseTo(0.5 * share * share + 0.5 / 1.8, 6);
  });

  it('a query whose rare terms are all matched keeps the lexical list strong', () => {
    // kalymnos and flight each df 1 of N = 4: t holds both -> coverage 1 -> 0.5 x 1
    const ix = new HybridIndex(DIM);
    ix.upsert(doc('t', 'Jet2 changed the Kalymnos flights', vec(0, 1, 0, 0))); // the encoder misses it (cos 0)
    ix.upsert(doc('u', 'holiday travel plans', vec(0.9, Math.sqrt(1 - 0.81), 0, 0))); // near in meaning, no word
    ix.upsert(doc('v', 'bins on odd weeks', vec(0, 0, 1, 0)));
    ix.upsert(doc('w', 'lunch with Sam', vec(-1, 0, 0, 0)));
    const hits = ix.search({ text: 'Kalymnos flight', vector: vec(1, 0, 0, 0) }, { topK: 4, config: { lexicalScore: 'coverage', coveragePower: 1.5 } });
    // t = 0.5 x 1 + 0.5 x (0 + 1) / 1.9 = 0.763; u = 0 + 0.5 x 1 = 0.5
    expect(hits[0].id).toBe('t');
    expect(hits[0].score).toBeCloseTo(0.5 + 0.5 / 1.9, 5);
    expect(hits[0].why.coverage).toBe(1);
    expect(hits[1].id).toBe('u');
  });

  it('rejects an unknown lexical score or a bad power', () => {
    expect(() => new HybridIndex(DIM, { lexicalScore: 'max' as never })).toThrow(AppError);
    expect(() => new HybridIndex(DIM, { coveragePower: -1 })).toThrow(/coveragePower/);
  });
});
