import { describe, expect, it } from 'vitest';
import { escalated, wireLateInteraction } from './engine-late';
import type { PipelineContext } from '../src/core/pipeline';
import type { DeepReportView } from '../src/core/deep';

const report = (status: DeepReportView['status']) => ({ status }) as DeepReportView;

describe('late interaction after an escalation', () => {
  it('an answer deep search changed (merged) is not offered for refinement; one it left as it was is', () => {
    expect(escalated({ deepSearch: report('merged') })).toBe(true);
    for (const s of ['off', 'confident', 'rate-limited', 'shadow', 'timeout', 'error'] as const) expect(escalated({ deepSearch: report(s) })).toBe(false);
    expect(escalated({})).toBe(false);
  });

  it('the first pass candidates reach the outcome only when nothing escalated', () => {
    const ctx = { ranking: { lateInteraction: 3 } } as unknown as PipelineContext;
    const late = wireLateInteraction(ctx, undefined);
    ctx.lateCandidates!(['a', 'b']);
    expect(late({})).toEqual({ lateCandidates: ['a', 'b'] });
    expect(late({ deepSearch: report('merged') })).toEqual({});
  });
});
