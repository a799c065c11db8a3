import { describe, expect, it } from 'vitest';
import { Bm25Index } from './bm25';
import { AppError } from './errors';

// Two documents after analysis: d1 = [apple, banana] (|d1| = 2), d2 = [apple, apple, cherri] (|d2| = 3).
function twoDocs(params = {}): Bm25Index {
  const ix = new Bm25Index(params);
  ix.upsert('d1', 'The apple and a banana');
  ix.upsert('d2', 'apple, apple, cherry!');
  return ix;
}

describe('Bm25Index scoring (k1 = 1.2, b = 0.75)', () => {
  it('scores a rare term by hand: idf = ln(1 + (N - df + 0.5) / (df + 0.5))', () => {
    // N = 2, df(banana) = 1 -> idf = ln 2; avgdl = 2.5; d1: tf 1, |d| 2
    // tf part = 1 * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 2 / 2.5)) = 2.2 / 2.02
    const hits = twoDocs().search('banana', { topK: 10 });
    expect(hits).toHaveLength(1);
    expect(hits[0].id).toBe('d1');
    expect(hits[0].score).toBeCloseTo(Math.log(2) * (2.2 / 2.02), 10);
    expect(hits[0].terms).toEqual(['banana']);
  });

  it('saturates term frequency and normalises length', () => {
    // df(apple) = 2 -> idf = ln(1 + 0.5 / 2.5) = ln 1.2
    // d2: tf 2, |d| 3: 2 * 2.2 / (2 + 1.2 * (0.25 + 0.75 * 3 / 2.5)) = 4.4 / 3.38
    // d1: tf 1, |d| 2: 2.2 / 2.02
    const hits = twoDocs().search('apples', { topK: 10 });
    expect(hits.map((h) => h.id)).toEqual(['d2', 'd1']);
    expect(hits[0].score).toBeCloseTo(Math.log(1.2) * (4.4 / 3.38), 10);
    expect(hits[1].score).toBeCloseTo(Math.log(1.2) * (2.2 / 2.02), 10);
  });

  it('honours k1 and b: with b = 0 length does not matter', () => {
    const hits = twoDocs({ k1: 1, b: 0 }).search('apple', { topK: 10 });
    // d2: 2 * 2 / (2 + 1) ; d1: 1 * 2 / (1 + 1)
    expect(hits[0].score).toBeCloseTo(Math.log(1.2) * (4 / 3), 10);
    expect(hits[1].score).toBeCloseTo(Math.log(1.2) * 1, 10);
  });

  it('sums over unique query terms and reports the matched surface words', () => {
    const hits = twoDocs().search('apple apple BANANAS and kiwi', { topK: 10 });
    expect(hits[0].id).toBe('d1');
    expect(hits[0].score).toBeCloseTo((Math.log(2) + Math.log(1.2)) * (2.2 / 2.02), 10);
    expect(hits[0].terms).toEqual(['apple', 'bananas']);
    expect(hits[1].terms).toEqual(['apple']);
  });

  it('returns [] for an empty index, no known term, stopword-only queries and topK 0', () => {
    expect(new Bm25Index().search('apple', { topK: 5 })).toEqual([]);
    const ix = twoDocs();
    expect(ix.search('kiwi', { topK: 5 })).toEqual([]);
    expect(ix.search('the and a', { topK: 5 })).toEqual([]);
    expect(ix.search('apple', { topK: 0 })).toEqual([]);
  });

  it('applies the accept filter', () => {
    expect(twoDocs().search('apple', { topK: 5, accept: (id) => id !== 'd2' }).map((h) => h.id)).toEqual(['d1']);
  });
});

describe('Bm25Index updates', () => {
  it('remove updates N, df and avgdl exactly', () => {
    const ix = twoDocs();
    expect(ix.remove('d1')).toBe(true);
    expect(ix.remove('d1')).toBe(false);
    expect(ix.size).toBe(1);
    // N = 1, df = 1 -> idf = ln(1 + 0.5 / 1.5); avgdl = 3: 4.4 / (2 + 1.2) = 1.375
    const hits = ix.search('apple', { topK: 5 });
    expect(hits.map((h) => h.id)).toEqual(['d2']);
    expect(hits[0].score).toBeCloseTo(Math.log(4 / 3) * 1.375, 10);
    expect(ix.search('banana', { topK: 5 })).toEqual([]);
  });

  it('upsert replaces the old text', () => {
    const ix = twoDocs();
    ix.upsert('d1', 'kiwi');
    expect(ix.size).toBe(2);
    expect(ix.search('banana', { topK: 5 })).toEqual([]);
    expect(ix.search('kiwi', { topK: 5 }).map((h) => h.id)).toEqual(['d1']);
  });

  it('after many removals (compaction) scores equal a fresh index of the survivors', () => {
    const words = ['river', 'stone', 'garden', 'music', 'paint', 'run', 'travel', 'book'];
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const texts = new Map<string, string>();
    for (let i = 0; i < 300; i++) {
      const n = 1 + Math.floor(rnd() * 6);
      texts.set(`m${i}`, Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(' '));
    }
    const ix = new Bm25Index();
    for (const [id, t] of texts) ix.upsert(id, t);
    for (let i = 0; i < 300; i += 1) if (i % 4 !== 0) ix.remove(`m${i}`);
    const fresh = new Bm25Index();
    for (const [id, t] of texts) if (ix.has(id)) fresh.upsert(id, t);
    expect(ix.size).toBe(75);
    for (const q of ['river stone', 'music', 'paint book travel']) {
      const a = ix.search(q, { topK: 100 });
      const b = fresh.search(q, { topK: 100 });
      expect(a.map((h) => h.id)).toEqual(b.map((h) => h.id));
      a.forEach((h, i) => expect(h.score).toBeCloseTo(b[i].score, 9));
      for (const h of a) expect(Number(h.id.slice(1)) % 4).toBe(0);
    }
  });
});

describe('Bm25Index validation', () => {
  it('rejects bad parameters with INVALID_CONFIG', () => {
    expect(() => new Bm25Index({ k1: -1 })).toThrow(AppError);
    expect(() => new Bm25Index({ b: 1.5 })).toThrow(/between 0 and 1/);
    expect(() => twoDocs().search('apple', { topK: 3, params: { k1: Number.NaN } })).toThrow(AppError);
  });
});

describe('Bm25Index query terms and matched idf', () => {
  it('reports every analysed query term with df and idf, unknown ones at the highest idf', () => {
    // N = 2: apple df 2 -> ln(1 + 0.5 / 2.5) = ln 1.2; banana df 1 -> ln 2; kiwi df 0 -> ln(1 + 2.5 / 0.5) = ln 6
    const terms = twoDocs().queryTerms('Apples, banana and a kiwi, apple');
    expect(terms.map((t) => [t.surface, t.df])).toEqual([
      ['apples', 2],
      ['banana', 1],
      ['kiwi', 0],
    ]);
    expect(terms[0].idf).toBeCloseTo(Math.log(1.2), 12);
    expect(terms[1].idf).toBeCloseTo(Math.log(2), 12);
    expect(terms[2].idf).toBeCloseTo(Math.log(6), 12);
  });

  it('each hit carries the idf mass of the query terms it holds', () => {
    const hits = twoDocs().search('apple banana kiwi', { topK: 10 });
    const byId = new Map(hits.map((h) => [h.id, h]));
    expect(byId.get('d1')!.matchedIdf).toBeCloseTo(Math.log(1.2) + Math.log(2), 12);
    expect(byId.get('d2')!.matchedIdf).toBeCloseTo(Math.log(1.2), 12);
  });
});
