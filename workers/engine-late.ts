// Late interaction at query time, the engine's side (src/services/late-refine.ts has the rest):
// with the token matrices the services fetched, the pipeline reads them (ctx.tokensOf); without,
// and when the calibration turns the stage on, the first pass's candidates are kept for the outcome
// (`lateCandidates`), so the services can fetch theirs and recall again. The engine never calls
// the embed worker itself.
//
// A refinement (tokens given) or a repeat (`repeat`) is the query the person already asked,
// answered again: it counts nothing its first answer counted. It never escalates (the engine turns
// deep search off: its log, daily count and session limit follow the first pass), and the lateral
// evaluator it reads is a copy (same threshold, same answer; the laterals it returns are not
// counted twice).
import type { PipelineContext } from '../src/core/pipeline';
import { LateralEvaluator } from '../src/core/recall';
import type { MemoryId } from '../src/core/types';
import type { EngineRecallOutcome, EngineRecallQuery } from '../src/protocol/engine';

/** A refinement or a repeat of a query already answered (see the header). */
export const repeated = (q: Pick<EngineRecallQuery, 'tokens' | 'repeat'>): boolean => q.repeat === true || q.tokens !== undefined;

/** Wires `ctx` for `q`'s tokens and repeat; returns the outcome's part (call it after the recall's pipeline runs). */
export function wireLateInteraction(ctx: PipelineContext, q: Pick<EngineRecallQuery, 'tokens' | 'repeat'>): (after: Pick<EngineRecallOutcome, 'deepSearch' | 'iterative'>) => Pick<EngineRecallOutcome, 'lateCandidates'> {
  const { tokens } = q;
  let candidates: MemoryId[] | undefined;
  if (repeated(q) && ctx.evaluator) ctx.evaluator = LateralEvaluator.fromJSON(ctx.evaluator.toJSON());
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
