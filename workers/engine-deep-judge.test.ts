// Deep search's reader with careful ranking's judge, in the engine (engine-deep.ts): the judge is
// asked only when a query escalates, once, inside the timeout; with its vectors the JudgeReader
// reads at JUDGE_DEEP_SETTINGS (merge weight 0.7: the best reader score merges to 0.7, not 0.5);
// without them (absent, null, a failure, no member vector) the answer is today's, byte for byte.
import { describe, expect, it } from 'vitest';
import type { RecallOptionsInput } from '../src/core/recall';
import type { EngineJudgeSource, EngineJudgeVectors, EngineRecallOutcome } from '../src/protocol/engine';
import { deepActive as active, deepEngine as fresh, deepJudged as judged, deepQuery as query } from '../src/testing/deep-engine';


async function recall(options: RecallOptionsInput, judge?: EngineJudgeSource, core = fresh()): Promise<EngineRecallOutcome> {
  return core.recall(query, options, undefined, judge);
}
/** A judge that answers `with` and counts its calls (the pool's ids each time). */
function judge(answer: () => Promise<EngineJudgeVectors | null>) {
  const calls: string[][] = [];
  const fn: EngineJudgeSource = (ids) => {
    calls.push(ids);
    return answer();
  };
  return { fn, calls };
}

describe('deep search reads with the judge when the services hand it one', () => {
  it('escalated: one call with the pool, the JudgeReader reads, the merge weighs it 0.7', async () => {
    const plain = await recall(active());
    expect(plain.deepSearch?.status).toBe('merged');
    expect(plain.results[0].score).toBeCloseTo(0.5, 9); // the best of either list at weight 0.5
    expect(plain.results.some((r) => r.deep?.judge !== undefined)).toBe(false);

    const j = judge(async () => judged);
    const out = await recall(active(), j.fn);
    expect(j.calls).toHaveLength(1);
    expect(new Set(j.calls[0])).toEqual(new Set(out.deepSearch!.pool.map((p) => p.id)));
    expect(out.deepSearch).toMatchObject({ status: 'merged', judge: { read: out.deepSearch!.pool.length, of: out.deepSearch!.pool.length } });
    // 'x': judge part 1 at weight 2 of the reader's mean (the others' 0) -> the best reader score,
    // merged at 0.7 x 1; the best primary at 0.3 x 1
    expect(out.results[0]).toMatchObject({ id: 'x', deep: { source: 'deep', judge: 1 } });
    expect(out.results[0].score).toBeCloseTo(0.7, 9);
    expect(out.results[0].deep!.reasons[0]).toBe('the careful model reads it as close in meaning (1.00)');
    expect(out.results.find((r) => r.id === 'a')?.deep?.judge).toBe(0);
  });

  it('a weight the person chose stays', async () => {
    const out = await recall(active({ weight: 0.5 }), judge(async () => judged).fn);
    expect(out.deepSearch?.judge).toBeDefined();
    expect(out.results[0].score).toBeCloseTo(0.5, 9);
  });

  it('no judge, a null answer, a failure, or no member vector: the offline reader, byte-identical', async () => {
    const today = await recall(active());
    const same = (o: EngineRecallOutcome) => {
      expect(JSON.stringify(o.results)).toBe(JSON.stringify(today.results));
      expect(JSON.stringify(o.deepSearch!.scores)).toBe(JSON.stringify(today.deepSearch!.scores));
      expect(o.deepSearch!.judge).toBeUndefined();
    };
    same(await recall(active(), judge(async () => null).fn));
    same(await recall(active(), judge(() => Promise.reject(new Error('judge crashed'))).fn));
    same(await recall(active(), judge(async () => ({ ...judged, vectors: {} })).fn));
    same(await recall(active(), judge(async () => ({ ...judged, query: new Float32Array(0) })).fn));
    // a vector of another length than the query's is no vector
    same(await recall(active(), judge(async () => ({ ...judged, query: Float32Array.of(1, 0, 0) })).fn));
  });

  it('asked only when the query escalates, once per escalation (the rate limit counts it once)', async () => {
    const j = judge(async () => judged);
    expect((await recall({ topK: 2 }, j.fn)).deepSearch).toBeUndefined(); // off
    expect((await recall(active({ threshold: 0 }), j.fn)).deepSearch).toBeUndefined(); // confident
    expect(j.calls).toHaveLength(0);
    const core = fresh();
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await recall(active({ rateLimit: 2 }), j.fn, core)).deepSearch?.status);
    expect(statuses).toEqual(['merged', 'merged', 'rate-limited']);
    expect(j.calls).toHaveLength(2);
  });

  it('the timeout covers the judge: a judge that never answers -> the primary results, marked timeout', async () => {
    const off = await recall({ topK: 2 });
    const j = judge(() => new Promise<never>(() => undefined));
    const out = await recall(active({ timeoutMs: 30 }), j.fn);
    expect(j.calls).toHaveLength(1);
    expect(out.deepSearch?.status).toBe('timeout');
    expect(out.deepSearch?.judge).toBeUndefined();
    expect(JSON.stringify(out.results)).toBe(JSON.stringify(off.results));
  });

  it("shadow: the judge reader's scores logged, the results unchanged", async () => {
    const off = await recall({ topK: 2 });
    const out = await recall({ topK: 2, deepSearch: { mode: 'shadow', threshold: 1 } }, judge(async () => judged).fn);
    expect(out.deepSearch).toMatchObject({ status: 'shadow', judge: { of: out.deepSearch!.pool.length } });
    expect(JSON.stringify(out.results)).toBe(JSON.stringify(off.results));
    const x = out.deepSearch!.scores.find((s) => s.id === 'x')!;
    expect(x.reasons[0]).toBe('the careful model reads it as close in meaning (1.00)');
    expect(Math.max(...out.deepSearch!.scores.map((s) => s.score))).toBe(x.score);
  });
});
