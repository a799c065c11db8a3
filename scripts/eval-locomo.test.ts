import { describe, expect, it } from 'vitest';
import { bm25System, evaluate, parseArgs, prepare, type RetrievalSystem } from './eval-locomo';
import type { Conversation } from './lib/locomo';

const conv: Conversation = {
  sampleId: 'c',
  skippedQueries: 0,
  memories: [
    { id: 'D1:1', text: 'Ann: I adopted a puppy named Rex', time: 0, session: 1, speaker: 'Ann' },
    { id: 'D1:2', text: 'Bob: I went kayaking on the lake', time: 1000, session: 1, speaker: 'Bob' },
    { id: 'D1:3', text: 'Ann: Rex loves the park', time: 2000, session: 1, speaker: 'Ann' },
  ],
  queries: [
    { question: 'What is the name of the puppy?', category: 1, evidence: ['D1:1'] },
    { question: 'Where did Bob go kayaking?', category: 4, evidence: ['D1:2', 'D1:3'] },
  ],
};

describe('evaluate', () => {
  it('scores systems per query and per category, in percent', async () => {
    const prepared = await prepare([conv], null);
    const fixed: RetrievalSystem = { name: 'fixed', rank: () => ['D1:3', 'D1:1'] };
    const r = evaluate(prepared, [fixed, bm25System]);
    // fixed: q1 -> recall 1, MRR 1/2, nDCG 1/log2(3); q2 -> recall 1/2, MRR 1, nDCG 1 / (1 + 1/log2(3))
    expect(r.fixed.queries).toBe(2);
    expect(r.fixed.r10).toBe(75);
    expect(r.fixed.mrr10).toBe(75);
    expect(r.fixed.perCategory['1']).toEqual({ r10: 100, ndcg10: 63.1, mrr10: 50, top1: 0, queries: 1 });
    // top-1: q1's first result D1:3 is not its evidence, q2's is
    expect(r.fixed.top1).toBe(50);
    expect(r.fixed.perCategory['4'].r10).toBe(50);
    // bm25 finds "puppy" in D1:1 and "kayaking" in D1:2 only
    expect(r.bm25.perCategory['1'].r10).toBe(100);
    expect(r.bm25.perCategory['4'].r10).toBe(50);
    expect(r.bm25.medianMs).toBeGreaterThanOrEqual(0);
  });
});

describe('parseArgs', () => {
  it('reads --data, --json, --no-dense and rejects unknown flags', () => {
    expect(parseArgs(['--', '--data', 'x.json', '--json'])).toMatchObject({ data: 'x.json', json: true, dense: true });
    expect(parseArgs(['--no-dense']).dense).toBe(false);
    expect(() => parseArgs(['--nope'])).toThrow(/Unknown argument/);
  });

  it('reads --encoder, defaulting to the app\'s encoder (MiniLM)', () => {
    expect(parseArgs([]).encoder).toBe('all-MiniLM-L6-v2-int8');
    expect(parseArgs(['--encoder', 'use-lite']).encoder).toBe('use-lite');
    expect(() => parseArgs(['--encoder'])).toThrow(/needs an encoder id/);
    expect(() => parseArgs(['--encoder', '--json'])).toThrow(/needs an encoder id/);
  });

  it('applies the judge to the app row unless --no-judge', () => {
    expect(parseArgs([]).judge).toBe(true);
    expect(parseArgs(['--no-judge']).judge).toBe(false);
  });
});
