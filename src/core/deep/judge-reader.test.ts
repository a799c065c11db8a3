import { describe, expect, it } from 'vitest';
import type { MemoryId } from '../types';
import { deepSearch, DEEP_SEARCH_DEFAULTS, expandPool, foundWords, JudgeReader, judgeCosine, judgeNearest, OfflineReader, readOffline, WAY_SHORT, type PoolDoc, type ReaderCandidate } from '.';

const timers = { setTimeout: (f: () => void, ms: number) => setTimeout(f, ms), clearTimeout: (h: never) => clearTimeout(h) };

// the query "where is the boat": one content word (boat); no features, so the offline reader has
// the words part alone (weight 0.35)
const q = { text: 'where is the boat', features: {} };
const cand = (id: MemoryId, text: string): ReaderCandidate => ({ id, text, createdAt: 0 });
const vectors: Record<MemoryId, number[]> = { m1: [0.6, 0.8], m2: [-1, 0], m3: [3, 4] };
const vectorOf = (id: MemoryId) => vectors[id];

describe('judge reader (the judge cosine as one more part of the offline mean)', () => {
  it('score = (0.35 x words + w x max(0, cos)) / (0.35 + w), worked by hand', () => {
    const r = new JudgeReader({ query: [1, 0], vectorOf, weight: 1 }).readSync(q, [cand('m1', 'the boat left'), cand('m2', 'the boat left'), cand('m4', 'the boat left'), cand('m3', 'a red kite')]);
    // m1: words 1, cos 0.6 -> (0.35 + 0.6) / 1.35
    expect(r[0].score).toBeCloseTo(0.95 / 1.35, 12);
    expect(r[0].reasons[0]).toBe('shares the words boat');
    expect(r[0].reasons[1]).toBe('the careful model reads it as close in meaning (0.60)');
    // m2: cos -1 clamps to 0 -> 0.35 / 1.35
    expect(r[1].score).toBeCloseTo(0.35 / 1.35, 12);
    // m4: no judge vector -> the offline score (words alone: 1)
    expect(r[2].score).toBe(1);
    // m3: no shared word, cos (3, 4)/5 . (1, 0) = 0.6 -> 0.6 / 1.35
    expect(r[3].score).toBeCloseTo(0.6 / 1.35, 12);
  });

  it('weight 2 counts the judge twice as much: (0.35 + 2 x 0.6) / 2.35', () => {
    const [r] = new JudgeReader({ query: [1, 0], vectorOf, weight: 2 }).readSync(q, [cand('m1', 'the boat left')]);
    expect(r.score).toBeCloseTo(1.55 / 2.35, 12);
    expect(readOffline(q, cand('m1', 'the boat left'), null, { cosine: 0.6, weight: 2 }).parts).toEqual({ words: 1, judge: 0.6 });
  });

  it('no query vector, weight 0, or a vector of another length = the offline reader exactly', () => {
    const pool = [cand('m1', 'the boat left'), cand('m3', 'a red kite')];
    const offline = new OfflineReader().readSync(q, pool);
    expect(new JudgeReader({ query: undefined, vectorOf }).readSync(q, pool)).toEqual(offline);
    expect(new JudgeReader({ query: [1, 0], vectorOf, weight: 0 }).readSync(q, pool)).toEqual(offline);
    expect(new JudgeReader({ query: [1, 0, 0], vectorOf }).readSync(q, pool)).toEqual(offline);
    expect(judgeCosine({ query: [1, 0, 0], vectorOf }, 'm1')).toBeUndefined();
    expect(judgeCosine({ query: [0, 2], vectorOf }, 'm1')).toBeCloseTo(0.8, 12);
  });

  it('in deepSearch: the memory the judge finds close outranks a primary result the words tie with', async () => {
    // one session of four turns; the primary top 2 is s0, s1 (weak: the seed's blend 0.5 x 0.1 + 0.3 x 0.1 + 0.2 = 0.28 < 0.3)
    const docs: PoolDoc[] = ['s0', 's1', 's2', 's3'].map((id, i) => ({ id, sessionId: 's', createdAt: i, status: 'active', deletedAt: null, validFrom: 0, validTo: null }));
    const text: Record<MemoryId, string> = { s0: 'a boat', s1: 'a boat', s2: 'a boat', s3: 'a kite' };
    const judge = { s0: [0, 1], s1: [0, 1], s2: [1, 0], s3: [0, 1] } as Record<MemoryId, number[]>;
    const out = await deepSearch({
      query: q,
      primary: [
        { id: 's0', score: 0.1 },
        { id: 's1', score: 0.09 },
      ],
      topK: 2,
      options: { ...DEEP_SEARCH_DEFAULTS, mode: 'active' },
      source: { docs },
      scope: {},
      candidateOf: (id) => cand(id, text[id]),
      reader: new JudgeReader({ query: [1, 0], vectorOf: (id) => judge[id], weight: 1 }),
      timers,
    });
    // reader: s0, s1 (words 1, cos 0) 0.35 / 1.35; s2 (words 1, cos 1) 1; s3 (cos 0, no word) 0
    // merge (weight 0.5, each list over its best): s2 0.5 x 1 = 0.5; s0 max(0.5 x 0.1 / 0.1, 0.5 x 0.35 / 1.35) = 0.5;
    // s1 0.45: the top 2 is s0, s2 (ties by id)
    expect(out.report.status).toBe('merged');
    expect(out.results.map((h) => [h.id, h.score])).toEqual([
      ['s0', 0.5],
      ['s2', 0.5],
    ]);
    expect(out.results[1].source).toBe('deep');
  });
});

describe('deepSearch readDepth (the reader reads the primary results beyond the top K)', () => {
  const docs: PoolDoc[] = ['p0', 'p1', 'p2', 'p3', 'x'].map((id, i) => ({ id, sessionId: id, createdAt: i * 1000, status: 'active', deletedAt: null, validFrom: 0, validTo: null }));
  const primary = [
    { id: 'p0', score: 0.1 },
    { id: 'p1', score: 0.09 },
    { id: 'p2', score: 0.08 },
    { id: 'p3', score: 0.07 },
  ];
  const base = {
    query: q,
    primary,
    topK: 2,
    source: { docs },
    scope: {},
    candidateOf: (id: MemoryId) => cand(id, id === 'p3' ? 'the boat' : 'nothing'),
    reader: new OfflineReader(),
    timers,
  };

  it('default: the pool starts with the top K; readDepth 4: with the primary ranks 3 and 4, in order', async () => {
    const plain = await deepSearch({ ...base, options: { ...DEEP_SEARCH_DEFAULTS, mode: 'shadow', poolCap: 2 } });
    expect(plain.report.pool.map((p) => [p.id, p.primaryRank])).toEqual([
      ['p0', 0],
      ['p1', 1],
    ]);
    const deeper = await deepSearch({ ...base, readDepth: 4, options: { ...DEEP_SEARCH_DEFAULTS, mode: 'shadow', poolCap: 4 } });
    expect(deeper.report.pool.map((p) => [p.id, p.primaryRank])).toEqual([
      ['p0', 0],
      ['p1', 1],
      ['p2', 2],
      ['p3', 3],
    ]);
    // the trigger and the report's primary ids read the top K only
    expect(deeper.report.primaryIds).toEqual(['p0', 'p1']);
  });

  it('readDepth 4, active: the reader lifts primary rank 4 into the top 2 (words 1 -> 0.5, level with p0)', async () => {
    const out = await deepSearch({ ...base, readDepth: 4, options: { ...DEEP_SEARCH_DEFAULTS, mode: 'active', poolCap: 4 } });
    // p0 0.5 x 0.1 / 0.1 = 0.5; p3 max(0.5 x 0.07 / 0.1, 0.5 x 1 / 1) = 0.5; p1 0.45
    expect(out.results.map((h) => [h.id, h.score])).toEqual([
      ['p0', 0.5],
      ['p3', 0.5],
    ]);
  });
});

describe("the 'meaning' pool strategy (the judge's nearest memories to the question)", () => {
  const docs: PoolDoc[] = ['p0', 'n1', 'n2', 'gone'].map((id, i) => ({ id, sessionId: id, createdAt: i * 1000, status: id === 'gone' ? 'archived' : 'active', deletedAt: null, validFrom: 0, validTo: null }));

  it('adds the nearest in order after the primary (ranked among those in scope), skipping pooled ones, without a seed', () => {
    const pool = expandPool(['p0'], { docs, nearest: ['p0', 'gone', 'n2', 'n1'] }, {}, { turnWindow: 0, adjacentTurns: 0 });
    expect(pool.map((p) => [p.id, p.primaryRank, p.via.map((v) => `${v.strategy}:${v.seed}:${v.detail}`)])).toEqual([
      ['p0', 0, []],
      ['n2', null, ['meaning:n2:rank 2 by the careful model']],
      ['n1', null, ['meaning:n1:rank 3 by the careful model']],
    ]);
    expect(foundWords(pool[1].via)).toBe('close in meaning to your question');
    expect(WAY_SHORT.meaning).toBe('close in meaning');
  });

  it('takes turns with the other strategies: temporal, then meaning', () => {
    // one session s: p0 at 0, t1 at 1 (temporal from p0), far at 9; the judge's nearest: far
    const one: PoolDoc[] = ['p0', 't1', 'far'].map((id, i) => ({ id, sessionId: 's', createdAt: id === 'far' ? 9 : i, status: 'active', deletedAt: null, validFrom: 0, validTo: null }));
    const pool = expandPool(['p0'], { docs: one, nearest: ['far'] }, {}, { turnWindow: 1 });
    expect(pool.map((p) => [p.id, p.via.map((v) => v.strategy)])).toEqual([
      ['p0', []],
      ['t1', ['temporal']],
      ['far', ['meaning']],
    ]);
  });
});

describe('judgeNearest', () => {
  it('the k best by cosine, ties by id, skipping memories without a vector', () => {
    // query (1, 0): m1 (0.6, 0.8) 0.6, m3 (3, 4) 0.6, m2 (-1, 0) -1; m9 has no vector
    expect(judgeNearest({ query: [1, 0], vectorOf }, ['m2', 'm3', 'm9', 'm1'], 2)).toEqual(['m1', 'm3']);
    expect(judgeNearest({ query: [1, 0], vectorOf }, ['m2', 'm3', 'm1'], 5)).toEqual(['m1', 'm3', 'm2']);
    expect(judgeNearest({ query: undefined, vectorOf }, ['m1'], 2)).toEqual([]);
    expect(judgeNearest({ query: [1, 0], vectorOf }, ['m1'], 0)).toEqual([]);
  });
});
