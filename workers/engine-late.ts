// Late interaction at query time, the engine's side (src/services/late-refine.ts has the rest):
// with the token matrices the services fetched, the pipeline reads them (ctx.tokensOf); without,
// and when the calibration turns the stage on, the first pass's candidates are kept for the outcome
// (`lateCandidates`), so the services can fetch theirs and recall again. The engine never calls
// the embed worker itself.
import type { PipelineContext } from '../src/core/pipeline';
import type { MemoryId } from '../src/core/types';
import type { EngineRecallOutcome, EngineRecallQuery } from '../src/protocol/engine';

/** Wires `ctx` for `tokens`; returns the outcome's part (call it after the recall's pipeline runs). */
export function wireLateInteraction(ctx: PipelineContext, tokens: EngineRecallQuery['tokens']): (after: Pick<EngineRecallOutcome, 'deepSearch' | 'iterative'>) => Pick<EngineRecallOutcome, 'lateCandidates'> {
  let candidates: MemoryId[] | undefined;
  if (tokens) ctx.tokensOf = (id) => tokens.memories[id];
  else if ((ctx.ranking?.lateInteraction ?? 0) > 0) ctx.lateCandidates = (ids) => void (candidates ??= [...ids]); // the first pass's only
  // An answer deep search changed (merged) or iterative search built is not refined: the
  // refinement runs without escalating (the services keep the first pass's report), so it would
  // drop what deep search added. Watch-only, timed-out, failed and rate-limited escalations leave
  // the primary results, so their answer is refined like any other (watch-only changes nothing).
  return (after) => (candidates && !escalated(after) ? { lateCandidates: candidates } : {});
}

/** Deep search changed this answer (merged its finds), or iterative search built it. */
export function escalated(after: Pick<EngineRecallOutcome, 'deepSearch' | 'iterative'>): boolean {
  return after.iterative !== undefined || after.deepSearch?.status === 'merged';
}
