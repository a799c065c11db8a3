import { describe, expect, it } from 'vitest';
import { escalated, wireLateInteraction } from './engine-late';
import type { PipelineContext } from '../src/core/pipeline';
import type { DeepReportView } from '../src/core/deep';
import { serializeSpace } from '../src/core/spaces';
import { engineDoc } from '../src/testing/engine';
import { EngineCore } from './engine-core';

const report = (status: DeepReportView['status']) => ({ status }) as DeepReportView;

describe('late interaction after an escalation', () => {
  it('an answer deep search changed (merged) is not offered for refinement; one it left as it was is', () => {
    expect(escalated({ deepSearch: report('merged') })).toBe(true);
    for (const s of ['off', 'confident', 'rate-limited', 'shadow', 'timeout', 'error'] as const) expect(escalated({ deepSearch: report(s) })).toBe(false);
    expect(escalated({})).toBe(false);
  });

  it('the first pass candidates reach the outcome only when nothing escalated', () => {
    const ctx = { ranking: { lateInteraction: 3 } } as unknown as PipelineContext;
    const late = wireLateInteraction(ctx, {});
    ctx.lateCandidates!(['a', 'b']);
    expect(late({})).toEqual({ lateCandidates: ['a', 'b'] });
    expect(late({ deepSearch: report('merged') })).toEqual({});
  });
});

describe('a refinement (or a repeat) is the same query again', () => {
  const docs = [
    { ...engineDoc('near', 'database indexing', [1, 0]), tags: ['storage'], sessionId: 's' },
    { ...engineDoc('far', 'tape vault', [0, 1]), tags: ['storage'], sessionId: 's' },
  ];
  const q = { text: 'database', features: { E1: serializeSpace('E1', Float32Array.of(1, 0)) }, tags: ['storage'] };
  const m = (v: number) => ({ ids: [7], vectors: Float32Array.of(v), dim: 1 });
  const tokens = { query: m(1), memories: { near: m(1), far: m(-1) } };

  it('the lateral evaluator counts the lateral results of the first pass only; the engine counts one recall', async () => {
    const core = new EngineCore();
    core.load(docs, { dim: 2 });
    const first = await core.recall(q, { profile: 'DIVERGENT' });
    expect(first.results.map((r) => [r.id, r.mode])).toEqual([
      ['near', 'standard'],
      ['far', 'lateral'],
    ]);
    expect(first.evaluator).toMatchObject({ returned: 1 });
    for (const again of [{ ...q, tokens }, { ...q, repeat: true }]) {
      const out = await core.recall(again, { profile: 'DIVERGENT' });
      expect(out.results.map((r) => [r.id, r.mode])).toEqual(first.results.map((r) => [r.id, r.mode])); // the same lateral found
      expect(out.evaluator).toBeNull(); // unchanged: nothing to save
      expect(out.lateralStatus.samples).toBe(1);
    }
    expect(core.stats().recalls).toBe(1);
  });

  it('a repeat never escalates (deep search logged and limited with the first pass)', async () => {
    const core = new EngineCore();
    core.load(docs, { dim: 2 });
    const deep = { deepSearch: { mode: 'shadow', threshold: 1 } } as const;
    expect((await core.recall(q, deep)).deepSearch?.status).toBe('shadow');
    expect((await core.recall({ ...q, repeat: true }, deep)).deepSearch).toBeUndefined();
  });
});
