// Deep search's reader with the language model on this computer, in the engine (engine-deep.ts):
// asked only when a query escalates, once, with the pool's ids and texts; its scores merged at the
// ordinary weight (0.5), each reason said as the model's; a null answer, a failure or no score
// and the reader it stands in front of reads instead (careful ranking's judge when handed one,
// else the offline reader: byte-identical to today).
import { describe, expect, it } from 'vitest';
import type { RecallOptionsInput } from '../src/core/recall';
import type { EngineJudgeSource, EngineModelScores, EngineModelSource, EngineRecallOutcome } from '../src/protocol/engine';
import { deepActive as active, deepEngine as fresh, deepJudged as judged, deepQuery as query } from '../src/testing/deep-engine';

const ranked: EngineModelScores = { scores: [{ id: 'x', score: 0.8, reasons: ['seedlings go in the garden'] }, { id: 'y', score: 0.2, reasons: [] }], ms: 12 };

const recall = (o: RecallOptionsInput, judge?: EngineJudgeSource, model?: EngineModelSource, core = fresh()): Promise<EngineRecallOutcome> => core.recall(query, o, undefined, judge, model);
function model(answer: () => Promise<EngineModelScores | null>) {
  const calls: { id: string; text: string }[][] = [];
  const fn: EngineModelSource = (pool) => {
    calls.push(pool);
    return answer();
  };
  return { fn, calls };
}
function judge() {
  let calls = 0;
  const fn: EngineJudgeSource = async () => (calls++, judged);
  return { fn, calls: () => calls };
}

describe('deep search reads with the language model when the services hand it one', () => {
  it('escalated: one call with the pool, its scores merged at weight 0.5, its reasons said as the model’s; the judge not asked', async () => {
    const m = model(async () => ranked);
    const j = judge();
    const out = await recall(active(), j.fn, m.fn);
    expect(m.calls).toHaveLength(1);
    expect(m.calls[0].map((c) => c.id).sort()).toEqual(out.deepSearch!.pool.map((p) => p.id).sort());
    expect(m.calls[0].find((c) => c.id === 'x')?.text).toBe('bought tomato seedlings');
    expect(j.calls()).toBe(0);
    expect(out.deepSearch).toMatchObject({ status: 'merged', model: { read: 2, of: out.deepSearch!.pool.length, ms: 12 } });
    expect(out.deepSearch!.judge).toBeUndefined();
    const x = out.results.find((r) => r.id === 'x')!;
    expect(x.deep).toMatchObject({ source: 'deep', readerScore: 0.8, reasons: ['the language model on this computer: seedlings go in the garden'] });
    expect(x.score).toBeCloseTo(0.5, 9); // 0.5 x 0.8 / 0.8, tied with the best primary (0.5 x 1)
  });

  it('a null answer, a failure or no score: the offline reader byte-identical, or the judge when handed one', async () => {
    const today = await recall(active());
    const withJudge = await recall(active(), judge().fn);
    for (const bad of [async () => null, () => Promise.reject(new Error('model crashed')), async () => ({ scores: [], ms: 1 })]) {
      const off = await recall(active(), undefined, model(bad).fn);
      expect(JSON.stringify(off.results)).toBe(JSON.stringify(today.results));
      expect(JSON.stringify(off.deepSearch!.scores)).toBe(JSON.stringify(today.deepSearch!.scores));
      expect(off.deepSearch!.model).toBeUndefined();
      const j = judge();
      const judgedOut = await recall(active(), j.fn, model(bad).fn);
      expect(j.calls()).toBe(1);
      expect(JSON.stringify(judgedOut.results)).toBe(JSON.stringify(withJudge.results));
      expect(judgedOut.deepSearch!.judge).toBeDefined();
    }
  });

  it('asked only on escalation; the timeout covers it (primary results, marked); shadow logs its scores only', async () => {
    const m = model(async () => ranked);
    await recall({ topK: 2 }, undefined, m.fn);
    await recall(active({ threshold: 0 }), undefined, m.fn);
    expect(m.calls).toHaveLength(0);
    const off = await recall({ topK: 2 });
    const slow = await recall(active({ timeoutMs: 30 }), undefined, model(() => new Promise<never>(() => undefined)).fn);
    expect(slow.deepSearch?.status).toBe('timeout');
    expect(JSON.stringify(slow.results)).toBe(JSON.stringify(off.results));
    const shadow = await recall({ topK: 2, deepSearch: { mode: 'shadow', threshold: 1 } }, undefined, m.fn);
    expect(shadow.deepSearch).toMatchObject({ status: 'shadow', model: { read: 2 } });
    expect(shadow.deepSearch!.scores.find((s) => s.id === 'x')?.reasons).toEqual(['the language model on this computer: seedlings go in the garden']);
    expect(JSON.stringify(shadow.results)).toBe(JSON.stringify(off.results));
  });
});
