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
  // An answer deep search escalated (or iterative search built) is not refined: a second recall would
  // escalate again, spending the session's escalations twice and logging the query twice.
  return (after) => (candidates && !escalated(after) ? { lateCandidates: candidates } : {});
}

/** Deep search ran on this answer (watch-only, merged, timed out or failed), or iterative search did. */
export function escalated(after: Pick<EngineRecallOutcome, 'deepSearch' | 'iterative'>): boolean {
  const status = after.deepSearch?.status;
  return after.iterative !== undefined || (status !== undefined && status !== 'off' && status !== 'confident' && status !== 'rate-limited');
}
