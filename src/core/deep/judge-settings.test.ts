// JUDGE_DEEP_SETTINGS (judge-reader.ts; docs/research/quality.md "Sixth pass"): every query escalates,
// the pool adds the judge's nearest, and the merge keeps the answer's top 7 and gives places 8-10 to
// the reader's best from outside the answer's top 10.
import { describe, expect, it } from 'vitest';
import type { MemoryId } from '../types';
import { deepSearch, DEEP_SEARCH_DEFAULTS, JudgeReader, JUDGE_DEEP_SETTINGS, resolveDeepSearch, type PoolDoc } from '.';

const timers = { setTimeout: (f: () => void, ms: number) => setTimeout(f, ms), clearTimeout: (h: never) => clearTimeout(h) };

describe('deep search as JUDGE_DEEP_SETTINGS runs it', () => {
  it('a confident answer still escalates; the judge\'s nearest memory takes place 8, the answer\'s 8th and 9th move down', async () => {
    const ids = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9', 'x', 'y'];
    // one session, in this order: the seeds p0..p4 and their turns ±2 reach p6 at most, so x and y come only from `nearest`
    const docs: PoolDoc[] = ids.map((id, i) => ({ id, sessionId: 's', createdAt: i, status: 'active', deletedAt: null, validFrom: 0, validTo: null }));
    // the answer: p0..p9 scored 1.0, 0.95, ..., 0.55; the seed's confidence 0.5 x 1 + 0.3 x 0.05 + 0.2 x 1 = 0.715, below threshold 1
    const primary = ids.slice(0, 10).map((id, i) => ({ id, score: 1 - 0.05 * i }));
    // no word of "boat" anywhere, so the reader's score is the judge part alone: 2 x max(0, cos) / (0.35 + 2)
    const vec: Record<MemoryId, number[]> = Object.fromEntries(ids.map((id) => [id, id === 'x' ? [1, 0] : [0, 1]]));
    const options = resolveDeepSearch({ ...DEEP_SEARCH_DEFAULTS, mode: 'active', threshold: JUDGE_DEEP_SETTINGS.threshold, keepTop: JUDGE_DEEP_SETTINGS.keepTop, reserveSlots: JUDGE_DEEP_SETTINGS.reserveSlots, weight: JUDGE_DEEP_SETTINGS.mergeWeight });
    const out = await deepSearch({
      query: { text: 'where is the boat', features: {} },
      primary,
      topK: 10,
      options,
      source: { docs, nearest: ['x', 'y'] },
      scope: {},
      candidateOf: (id) => ({ id, text: 'a kite', createdAt: 0 }),
      reader: new JudgeReader({ query: [1, 0], vectorOf: (id) => vec[id], weight: JUDGE_DEEP_SETTINGS.readerWeight }),
      timers,
    });
    expect(out.report.confidence.value).toBeCloseTo(0.715, 12);
    expect(out.report.status).toBe('merged');
    // x: 2 x 1 / 2.35; y and every p: cos 0 -> 0, so x is the only pick (a reader score of 0 takes no slot)
    expect(out.report.scores.find((s) => s.id === 'x')!.score).toBeCloseTo(2 / 2.35, 12);
    expect(out.results.map((h) => h.id)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'x', 'p7', 'p8']);
    // place 8 keeps the answer's 8th score over its best (0.65), so the list stays ordered by score
    expect(out.results[7]).toMatchObject({ id: 'x', source: 'deep' });
    expect(out.results[7].score).toBeCloseTo(0.65, 12);
    expect(out.results[8]).toMatchObject({ id: 'p7', source: 'primary' });
    expect(out.results[8].score).toBeCloseTo(0.6, 12);
  });
});
