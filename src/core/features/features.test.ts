// Pure featurizers, with hand-computed values where the maths is ours.
import { describe, expect, it } from 'vitest';
import { cosine, cosineSparse, hamming, jaccard, maxsim, entitySimilarity } from '../spaces/similarity';
import { extractCausalClauses } from './causal';
import { codeFeatures, extractCode, splitIdentifier } from './code';
import { emotionFeatures, emotionScores } from './emotion';
import { capitalisedPhrases, entityFeatures, extractRelations, mergeMentions } from './entities';
import { HDC_BITS, hdcFeatures } from './hdc';
import { lateFeatures } from './late';
import { mediaTexts, meanVector } from './media';
import type { WordVectors } from './resources';
import { bm25Terms, expandedFeatures, sparseFeatures } from './sparse';
import { periodicFeatures, positionFeatures, recencyFeatures } from './temporal';

describe('temporal (E2-E4)', () => {
  it('E3: 06:00 UTC Thursday 1 Jan 1970 -> hour angle pi/2', () => {
    const v = periodicFeatures(6 * 3_600_000);
    expect(v[0]).toBeCloseTo(0, 6); // cos(2pi 6/24)
    expect(v[1]).toBeCloseTo(1, 6); // sin
    // day of week 4 (Thursday) + 0.25 -> angle 2pi 4.25/7
    expect(v[2]).toBeCloseTo(Math.cos((2 * Math.PI * 4.25) / 7), 6);
    expect(v[4]).toBeCloseTo(1, 6); // January -> month angle 0
    // 23:30 and 00:30 are neighbours on the hour circle
    const a = periodicFeatures(Date.UTC(2024, 0, 1, 23, 30)).subarray(0, 2);
    const b = periodicFeatures(Date.UTC(2024, 0, 2, 0, 30)).subarray(0, 2);
    expect(cosine(a, b)).toBeCloseTo(Math.cos((2 * Math.PI) / 24), 5);
  });
  it('E4: position 0 -> all cos 1, sin 0; position 2 at period 4 -> cos -1', () => {
    expect(Array.from(positionFeatures(0))).toEqual([1, 0, 1, 0, 1, 0, 1, 0]);
    expect(positionFeatures(2)[0]).toBeCloseTo(-1, 6);
  });
  it('E2: an hour apart is closer than a month apart', () => {
    const t = Date.UTC(2024, 5, 1);
    const near = cosine(recencyFeatures(t), recencyFeatures(t + 3_600_000));
    const far = cosine(recencyFeatures(t), recencyFeatures(t + 40 * 86_400_000));
    expect(near).toBeGreaterThan(0.99);
    expect(far).toBeLessThan(near);
  });
});

describe('causal clauses (E5)', () => {
  it('cause after "because", before "so"', () => {
    expect(extractCausalClauses('I moved out because the rent rose.').map((c) => [c.cause, c.effect])).toEqual([
      ['the rent rose', 'I moved out'],
    ]);
    expect(extractCausalClauses('The rent went up, so I left the flat.')[0].text).toBe('The rent went up => I left the flat');
    expect(extractCausalClauses('The storm led to a power cut')[0].text).toBe('The storm => a power cut');
  });
  it('a why-question yields the effect it asks about', () => {
    expect(extractCausalClauses('Why did Caroline move to Boston?').map((c) => c.text)).toEqual(['did Caroline move to Boston']);
    expect(extractCausalClauses('What made Jon quit his job?')[0].effect).toBe('Jon quit his job');
  });
  it('absent when no marker; temporal "since 2019" is not causal', () => {
    expect(extractCausalClauses('We had lunch by the lake.')).toEqual([]);
    expect(extractCausalClauses('I have lived here since 2019.')).toEqual([]);
  });
});

describe('BM25 terms (E6) and expansion (E13)', () => {
  it('BM25 TF saturation with length normalisation (no resources: idf 1)', () => {
    // "apples apples bananas": 3 terms, avg 12 -> norm = 0.25 + 0.75 * 3/12 = 0.4375
    const { weights } = bm25Terms('apples apples bananas');
    expect(weights.get('appl')).toBeCloseTo((2 * 2.2) / (2 + 1.2 * 0.4375), 6);
    expect(weights.get('banana')).toBeCloseTo(2.2 / (1 + 1.2 * 0.4375), 6);
  });
  it('absent without content terms; identical texts -> 1; disjoint -> 0', () => {
    expect(sparseFeatures('the and of')).toBeUndefined();
    const a = sparseFeatures('red bicycle')!;
    expect(jaccard(a, sparseFeatures('a red bicycle')!)).toBeCloseTo(1, 6);
    expect(jaccard(a, sparseFeatures('green tea')!)).toBe(0);
  });
  it('IDF prior from frequency rank: frequent words weigh less', () => {
    const vectors = fakeVectors({ common: [1, 0], rare: [0, 1] }, 5000);
    const { weights } = bm25Terms('common rare', { vectors });
    expect(weights.get('rare')!).toBeGreaterThan(weights.get('common')!);
  });
  it('E13 adds synonyms at source weight x relation weight x 0.8, so "car" meets "automobile"', () => {
    const vectors = fakeVectors({ car: [1, 0], automobile: [0, 1] });
    const synonyms = new Map([['car', [['automobile', 0.6]] as [string, number][]]]);
    const res = { vectors, synonyms };
    const car = expandedFeatures('car', res)!;
    const auto = expandedFeatures('automobile', res)!;
    const wCar = bm25Terms('car', res).weights.get('car')!;
    const wAuto = bm25Terms('automobile', res).weights.get('automobil')!;
    // car: {car: wCar, automobil: 0.48 wCar}; automobile: {automobil: wAuto}
    const expected = Math.min(0.48 * wCar, wAuto) / (wCar + Math.max(0.48 * wCar, wAuto));
    expect(jaccard(car, auto)).toBeCloseTo(expected, 5);
    expect(jaccard(sparseFeatures('car', res)!, sparseFeatures('automobile', res)!)).toBe(0);
  });
});

describe('code (E7)', () => {
  it('splits identifiers', () => {
    expect(splitIdentifier('parseHTTPResponse_v2')).toEqual(['parse', 'http', 'response', 'v2']);
    expect(splitIdentifier('user_id')).toEqual(['user', 'id']);
  });
  it('finds fenced, inline and code-like lines; absent in prose', () => {
    expect(extractCode('run ```js\nconst a = 1;\n``` then')).toEqual(['const a = 1;\n']);
    expect(extractCode('call `getUser()` here')).toEqual(['getUser()']);
    expect(extractCode('x = compute_total(items);')).toHaveLength(1);
    expect(codeFeatures('We walked to the beach and had ice cream.')).toBeUndefined();
  });
  it('same identifiers in different code -> higher than unrelated code', () => {
    const a = codeFeatures('`const user = getUserById(id);`')!;
    const b = codeFeatures('`let user = getUserById(userId);`')!;
    const c = codeFeatures('`for (i = 0; i < n; i++) total += prices[i];`')!;
    expect(jaccard(a, b)).toBeGreaterThan(jaccard(a, c));
    expect(cosineSparse(a, b)).toBeGreaterThan(cosineSparse(a, c));
    expect(jaccard(a, a)).toBe(1);
  });
  it('hand case: f(a) vs f(b) (renamed argument) and g(a) (other call)', () => {
    // f(a): api f 1.5, id f 0.4, id a 0.4, op ( 0.25, op ) 0.25, shingles "f ( ID" 1 and the
    // punctuation-and-ID shingle "( ID )" 0.5; |v|^2 = 2.25 + 0.16 + 0.16 + 0.0625 * 2 + 1 + 0.25 = 3.945
    const fa = codeFeatures('`f(a)`')!;
    expect(cosineSparse(fa, fa)).toBeCloseTo(1, 6);
    // f(b) shares all but id a / id b: 3.945 - 0.16
    expect(cosineSparse(fa, codeFeatures('`f(b)`')!)).toBeCloseTo(3.785 / 3.945, 5);
    // g(a) shares id a, ( , ) and "( ID )": 0.16 + 0.0625 * 2 + 0.25
    expect(cosineSparse(fa, codeFeatures('`g(a)`')!)).toBeCloseTo(0.535 / 3.945, 5);
  });
  it('E7 (sparse cosine): identical 1, same pattern renamed >= 0.8, unrelated < 0.35, prose absent', () => {
    const sum = '```js\nfunction total(items) {\n  let sum = 0;\n  for (const item of items) {\n    sum += item.price * item.qty;\n  }\n  return sum;\n}\n```';
    const renamed = 'Same again: ```js\nfunction totalCost(rows) {\n  let acc = 0;\n  for (const row of rows) {\n    acc += row.price * row.qty;\n  }\n  return acc;\n}\n```';
    const py = '```py\nimport requests\nresp = requests.get(url, timeout=5)\ndata = resp.json()\nprint(data["name"])\n```';
    const sql = '```sql\nSELECT name, email FROM users WHERE active = 1 ORDER BY name;\n```';
    const a = codeFeatures(sum)!;
    expect(cosineSparse(a, codeFeatures(sum)!)).toBeCloseTo(1, 6);
    expect(cosineSparse(a, codeFeatures(renamed)!)).toBeGreaterThanOrEqual(0.8);
    expect(jaccard(a, codeFeatures(renamed)!)).toBeLessThan(0.8); // why E7 is not Jaccard
    expect(cosineSparse(a, codeFeatures(py)!)).toBeLessThan(0.35);
    expect(cosineSparse(a, codeFeatures(sql)!)).toBeLessThan(0.35);
    expect(codeFeatures('Fed the starter at 9 and baked two loaves.')).toBeUndefined();
  });
});

describe('emotion (E8)', () => {
  const lex = { vader: new Map([['good', 1.9], ['awful', -2.0]]), afinn: new Map([['good', 3]]) };
  it('VADER compound: s / sqrt(s^2 + 15), negation x -0.74, booster +0.293', () => {
    expect(emotionScores('good', lex).compound).toBeCloseTo(1.9 / Math.sqrt(1.9 ** 2 + 15), 6);
    const neg = 1.9 * -0.74;
    expect(emotionScores('not good', lex).compound).toBeCloseTo(neg / Math.sqrt(neg ** 2 + 15), 6);
    expect(emotionScores('very good', lex).compound).toBeCloseTo(2.193 / Math.sqrt(2.193 ** 2 + 15), 6);
    // AFINN: 3 / sqrt(9 + 16) = 0.6; negated -> -0.6
    expect(emotionScores('good', lex).afinn).toBeCloseTo(0.6, 6);
    expect(emotionScores('not good', lex).afinn).toBeCloseTo(-0.6, 6);
  });
  it('absent without affect; positive vs negative -> negative cosine', () => {
    expect(emotionFeatures('the table is wooden', lex)).toBeUndefined();
    const p = emotionFeatures('a good day', lex)!;
    const n = emotionFeatures('an awful day', lex)!;
    expect(cosine(p, n)).toBeLessThan(0);
    expect(cosine(p, emotionFeatures('good', lex)!)).toBeGreaterThan(0.9);
  });
});

describe('HDC (E9)', () => {
  it('4096 bits; identical 1; word order matters; unrelated near 0.5', () => {
    const a = hdcFeatures('the dog chased the cat across the garden')!;
    expect(a.length * 8).toBe(HDC_BITS);
    expect(hamming(a, hdcFeatures('the dog chased the cat across the garden')!)).toBe(1);
    const swapped = hamming(a, hdcFeatures('the cat chased the dog across the garden')!);
    expect(swapped).toBeLessThan(1);
    expect(swapped).toBeGreaterThan(0.6);
    const unrelated = hamming(a, hdcFeatures('quarterly revenue forecasts improved sharply')!);
    expect(unrelated).toBeGreaterThan(0.4);
    expect(unrelated).toBeLessThan(swapped);
    expect(hdcFeatures('  ')).toBeUndefined();
  });
});

describe('entities (E11)', () => {
  it('capitalised phrases; sentence-initial common words dropped', () => {
    expect(capitalisedPhrases('Yesterday I met Anna Smith at the Golden Gate Bridge.').map((m) => m.text)).toEqual([
      'Anna Smith',
      'Golden Gate Bridge',
    ]);
    expect(capitalisedPhrases('call parseUserInput now').map((m) => m.text)).toEqual([]);
    expect(capitalisedPhrases("I'm home. It's great! OK, Jon's car is red.").map((m) => m.text)).toEqual(['Jon']);
    expect(capitalisedPhrases('Caroline: Hey Mel! The U.S. team won.').map((m) => m.text)).toEqual(['Caroline', 'Mel']);
  });
  it('relations between mentions in one sentence', () => {
    const text = 'Anna visited Paris. Then Bob phoned.';
    const m = capitalisedPhrases(text);
    expect(extractRelations(text, m)).toEqual([{ head: 'anna', relation: 'visited', tail: 'paris' }]);
  });
  it('entity Jaccard; absent without entities; same relation pair -> 1', () => {
    const f = (t: string) => {
      const m = mergeMentions(capitalisedPhrases(t));
      return entityFeatures(m, extractRelations(t, m));
    };
    expect(f('we had a quiet evening')).toBeUndefined();
    const a = f('Anna visited Paris with Tom.')!;
    const b = f('Anna loved Paris.')!;
    expect(entitySimilarity(f('Anna and Tom')!, f('Tom and Bob')!)).toBeCloseTo(1 / 3, 6);
    expect(entitySimilarity(a, b)).toBeCloseTo(1, 5); // both hold an anna -> paris relation
  });
});

describe('late interaction (E12) and media (E10)', () => {
  it('one row per unique in-vocabulary content token', () => {
    const vectors = fakeVectors({ cat: [127, 0], kitten: [90, 90], car: [0, 127] });
    const m = lateFeatures('The cat saw a cat and a car', vectors)!;
    expect(m.rows).toBe(2);
    expect(lateFeatures('the of and', vectors)).toBeUndefined();
    const q = lateFeatures('kitten', vectors)!;
    // kitten . cat = 90*127 / (|kitten| |cat|) = 1/sqrt2
    expect(maxsim(q, lateFeatures('cat', vectors)!)).toBeCloseTo(Math.SQRT1_2, 2);
  });
  it('media texts and mean pooling', () => {
    expect(mediaTexts([{ caption: 'A dog', alt: 'dog on grass' }, { caption: ' ' }])).toEqual(['A dog. dog on grass']);
    expect(mediaTexts(undefined)).toEqual([]);
    const m = meanVector([Float32Array.from([1, 0]), Float32Array.from([0, 1])])!;
    expect(m[0]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(meanVector([])).toBeUndefined();
  });
});

/** A tiny WordVectors; `pad` extra filler words go FIRST so listed words get a high rank. */
function fakeVectors(rows: Record<string, number[]>, pad = 0): WordVectors {
  const listed = Object.keys(rows);
  const dim = Object.values(rows)[0].length;
  const words = [...listed.slice(0, 1), ...Array.from({ length: pad }, (_, i) => `filler${i}`), ...listed.slice(1)];
  const data = new Int8Array(words.length * dim);
  words.forEach((w, i) => {
    const r = rows[w];
    if (r) r.forEach((v, k) => (data[i * dim + k] = Math.abs(v) <= 1 ? Math.round(v * 127) : v));
  });
  const index = new Map(words.map((w, i) => [w, i] as [string, number]));
  return { words, index, dim, data };
}
