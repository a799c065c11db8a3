// Late interaction and speaker labels: values worked by hand from
// maxSim = Σ w_i max_j cos(q_i, m_j) / Σ w_i, w_i = max(0, ln((N + 1) / (df_i + 0.5))).
import { describe, expect, it } from 'vitest';
import { HybridIndex } from '../hybrid';
import type { ScoredHit } from '../types';
import { lateInteraction, maxSim, namesLabel, speakerLabel, speakerMatch, tokenIdf, type TokenMatrix } from './late-interaction';
import { runPipeline } from './pipeline';
import { resolveRanking } from './ranking';
import { SpaceIndex } from './space-index';

const hit = (id: string, score: number): ScoredHit => ({ id, score, mode: 'standard', why: { lexical: 0, semantic: 0, bm25: 0, cosine: 0, matchedTerms: [] } });
const mat = (ids: number[], rows: number[][]): TokenMatrix => ({ ids, vectors: new Float32Array(rows.flat()), dim: rows[0]?.length ?? 2 });

describe('tokenIdf', () => {
  it('weighs each query token by ln((N + 1) / (df + 0.5)) among the candidates', () => {
    const docs = [mat([5, 7, 5], [[1, 0], [0, 1], [1, 0]]), mat([5], [[1, 0]])];
    const w = tokenIdf([5, 7, 9], docs);
    expect(w[0]).toBeCloseTo(Math.log(3 / 2.5), 10); // 0.1823: in both (counted once per doc)
    expect(w[1]).toBeCloseTo(Math.log(2), 10); // 0.6931: in one
    expect(w[2]).toBeCloseTo(Math.log(6), 10); // 1.7918: in none
  });
  it('a token every candidate holds weighs least: ln(6 / 5.5) = 0.087 among 5', () => {
    const docs = Array.from({ length: 5 }, () => mat([1], [[1, 0]]));
    expect(tokenIdf([1], docs)[0]).toBeCloseTo(Math.log(6 / 5.5), 10);
  });
});

describe('maxSim', () => {
  it('is the weighted mean over query tokens of the best cosine with a memory token', () => {
    const q = mat([1, 2], [[1, 0], [0, 1]]);
    const d = mat([3, 4], [[1, 0], [2, 2]]); // (2, 2): not unit length, cosine with (0, 1) = 0.70711
    // q1: best 1 (d1); q2: best 0.70711 (d2); weights 1 and 3 -> (1 + 3 x 0.70711) / 4 = 0.78033
    expect(maxSim(q, d, [1, 3])).toBeCloseTo((1 + 3 * Math.SQRT1_2) / 4, 6);
  });
  it('is 0 without tokens, with zero weights, or across dimensions', () => {
    const q = mat([1], [[1, 0]]);
    expect(maxSim(q, { ids: [], vectors: new Float32Array(0), dim: 2 }, [1])).toBe(0);
    expect(maxSim(q, mat([1], [[1, 0]]), [0])).toBe(0);
    expect(maxSim(q, mat([1], [[1, 0, 0]]), [1])).toBe(0);
  });
});

describe('lateInteraction', () => {
  const tokens: Record<string, TokenMatrix> = {
    a: mat([8], [[0, 1]]), // cosine 0 with the query token
    b: mat([9], [[1, 0]]), // cosine 1
    c: mat([8, 9], [[1, 0], [1, 0]]), // cosine 1, but below the depth
  };
  const query = mat([9], [[1, 0]]);
  it('adds weight x maxSim to the top `depth` hits, divides every score by 1 + weight, re-sorts the top', () => {
    const hits = [hit('a', 0.5), hit('b', 0.45), hit('c', 0.1)];
    const out = lateInteraction(hits, query, (id) => tokens[id], { weight: 1, depth: 2, idfDepth: 3 });
    // token 9 is in b and c of 3 candidates: idf ln(4 / 2.5) > 0; one query token -> maxSim = its best cosine
    // b (0.45 + 1) / 2 = 0.725, a (0.5 + 0) / 2 = 0.25; c below the depth: 0.1 / 2 = 0.05 (its maxSim 1 is not read)
    expect(out.map((h) => [h.id, Number(h.score.toFixed(6))])).toEqual([
      ['b', 0.725],
      ['a', 0.25],
      ['c', 0.05],
    ]);
  });
  it('is a no-op (the same array) at weight 0, without the query tokens or without a lookup', () => {
    const hits = [hit('a', 0.5), hit('b', 0.45)];
    expect(lateInteraction(hits, query, (id) => tokens[id], { weight: 0, depth: 2, idfDepth: 2 })).toBe(hits);
    expect(lateInteraction(hits, undefined, (id) => tokens[id], { weight: 1, depth: 2, idfDepth: 2 })).toBe(hits);
    expect(lateInteraction(hits, query, undefined, { weight: 1, depth: 2, idfDepth: 2 })).toBe(hits);
  });
  it('counts an ids-only matrix (below the depth) in the idf and never MaxSims one within it', () => {
    const idsOnly = (ids: number[]): TokenMatrix => ({ ids, vectors: new Float32Array(0), dim: 2 });
    const hits = [hit('a', 0.5), hit('b', 0.45), hit('c', 0.1)];
    // same idf as the first case (c holds token 9 by its ids alone); a ids-only within the depth: no maxSim, no NaN
    const out = lateInteraction(hits, query, (id) => (id === 'a' ? idsOnly([8]) : id === 'c' ? idsOnly([8, 9]) : tokens[id]), { weight: 1, depth: 2, idfDepth: 3 });
    expect(out.map((h) => [h.id, Number(h.score.toFixed(6))])).toEqual([
      ['b', 0.725],
      ['a', 0.25],
      ['c', 0.05],
    ]);
  });
  it('weighs query tokens by idf: the rare token decides', () => {
    // query tokens 1 (in both candidates: idf ln(3 / 2.5) = 0.18232) and 2 (in neither: ln(3 / 0.5) = 1.79176)
    const docs: Record<string, TokenMatrix> = { a: mat([1], [[1, 0]]), b: mat([1], [[0.6, 0.8]]) };
    const q = mat([1, 2], [[1, 0], [0, 1]]);
    const out = lateInteraction([hit('a', 0.5), hit('b', 0.5)], q, (id) => docs[id], { weight: 1, depth: 2, idfDepth: 2 });
    const w1 = Math.log(3 / 2.5);
    const w2 = Math.log(6);
    // a: q1 best 1, q2 best 0 -> w1 / (w1 + w2) = 0.09231; b: q1 0.6, q2 0.8 -> (0.6 w1 + 0.8 w2) / (w1 + w2) = 0.78154
    expect(out.map((h) => h.id)).toEqual(['b', 'a']);
    expect(out[0].score).toBeCloseTo((0.5 + (0.6 * w1 + 0.8 * w2) / (w1 + w2)) / 2, 6);
    expect(out[1].score).toBeCloseTo((0.5 + w1 / (w1 + w2)) / 2, 6);
  });
});

describe('speaker labels', () => {
  it('reads a short capitalised label before a colon', () => {
    expect(speakerLabel('Caroline: I went to the support group')).toBe('Caroline');
    expect(speakerLabel('Dr Smith: take two a day')).toBe('Dr Smith');
    expect(speakerLabel('note: lower case is not a label')).toBeUndefined();
    expect(speakerLabel('No label here, just a note')).toBeUndefined();
    expect(speakerLabel('Caroline:no space')).toBeUndefined();
  });
  it('a query names a label when it holds every word of it, possessives included', () => {
    expect(namesLabel("When did Caroline's dog get sick?", 'Caroline')).toBe(true);
    expect(namesLabel('what did caroline paint', 'Caroline')).toBe(true);
    expect(namesLabel('When did Melanie paint a sunrise?', 'Caroline')).toBe(false);
    expect(namesLabel('what did Smith say', 'Dr Smith')).toBe(false);
  });
  it('adds the weight to the memories whose label the query names, then re-sorts', () => {
    const text: Record<string, string> = { x: 'Melanie: I painted a lake', y: 'Caroline: I painted a sunrise', z: 'a plain note' };
    const out = speakerMatch([hit('x', 0.5), hit('y', 0.4), hit('z', 0.3)], 'What did Caroline paint?', (id) => text[id], 0.3);
    expect(out.map((h) => [h.id, Number(h.score.toFixed(6))])).toEqual([
      ['y', 0.7],
      ['x', 0.5],
      ['z', 0.3],
    ]);
    const hits = [hit('x', 0.5), hit('z', 0.3)];
    expect(speakerMatch(hits, 'What did Caroline paint?', (id) => text[id], 0.3)).toBe(hits); // nothing named
    expect(speakerMatch(hits, 'What did Melanie paint?', (id) => text[id], 0)).toBe(hits); // weight 0
  });
});

describe('in the pipeline', () => {
  it('rejects a negative weight and a fractional depth', () => {
    expect(() => resolveRanking({ lateInteraction: -1 })).toThrow(/lateInteraction/);
    expect(() => resolveRanking({ speakerLabel: -0.1 })).toThrow(/speakerLabel/);
    expect(() => resolveRanking({ lateDepth: 2.5 })).toThrow(/lateDepth/);
  });
  it('late interaction lifts the memory whose tokens answer the query above a closer sentence vector', () => {
    const hybrid = new HybridIndex(2);
    const add = (id: string, text: string, v: [number, number]) =>
      hybrid.upsert({ id, text, tags: [], importance: 0.5, createdAt: 0, validFrom: 0, validTo: null, status: 'active', vector: new Float32Array(v) });
    add('near', 'apples', [1, 0]);
    add('far', 'pears', [0.6, 0.8]);
    const tokens: Record<string, TokenMatrix> = { near: mat([1], [[0, 1]]), far: mat([2], [[1, 0]]) };
    const q = { text: 'fruit', features: { E1: new Float32Array([1, 0]) }, tokens: mat([2], [[1, 0]]) };
    const ctx = { hybrid, spaces: new SpaceIndex(), tokensOf: (id: string) => tokens[id] };
    const off = runPipeline({ ...ctx, ranking: { spaces: [] } }, q, { topK: 2 });
    const on = runPipeline({ ...ctx, ranking: { spaces: [], lateInteraction: 2 } }, q, { topK: 2 });
    expect(off.map((r) => r.id)).toEqual(['near', 'far']);
    expect(on.map((r) => r.id)).toEqual(['far', 'near']);
  });
});
