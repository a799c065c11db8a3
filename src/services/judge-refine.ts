// The refinement's last step with careful ranking on: the judge (src/core/pipeline/judge.ts)
// re-scores the refined ranking's top `depth`, exactly as the eval applies it to the pipeline's
// ranked output (scripts/lib/eval-judge.ts), then the answer is cut back to the topK asked. The
// engine was asked for max(topK, depth) standard results for it (`widenForJudge`: the same
// candidates as the first pass, so the late-interaction matrices fetched for them still fit), so
// a memory at rank 11..30 can rise into the answer. Only everyday answers (standard results
// alone: no lateral results, associative hops or grouping, whose lists depend on topK) are judged.
import { judgeRerank, type JudgeSpec } from '../core/pipeline';
import type { RecallOptions, RecallOptionsInput } from '../core/recall';
import type { MemoryId, ScoredHit } from '../core/types';
import type { JudgePrepared } from './judge';

/** What the answer's details say about careful ranking. */
export type CarefulNote =
  | { applied: true; model: string; depth: number; weight: number; readNow: number; ms: number }
  | { applied: false; reason: 'reading'; percent: number };

/** Whether careful ranking may judge an answer asked with these options (standard results only). */
export function judgeable(o: Pick<RecallOptions, 'lateralMode' | 'assocHops' | 'groupBy'>): boolean {
  return !o.lateralMode && o.assocHops === 0 && o.groupBy === 'none';
}

/** The refinement's options with the judge's depth: topK widened, the candidate pool the first pass's. */
export function widenForJudge(asked: RecallOptionsInput, resolved: Pick<RecallOptions, 'topK' | 'candidateK'>, depth: number): RecallOptionsInput {
  if (resolved.topK >= depth) return asked;
  return { ...asked, topK: depth, candidateK: Math.max(resolved.candidateK, depth) };
}

/**
 * The answer judged (or not) and cut to `topK`: the standard results' top `spec.depth` re-scored
 * by the judge's cosine with the query; results of other modes keep their place after them.
 */
export function judgeAnswer<T extends ScoredHit>(results: T[], topK: number, prepared: JudgePrepared, ms = 0): { results: T[]; note?: CarefulNote } {
  const standard = results.filter((r) => r.mode === 'standard');
  const others = results.filter((r) => r.mode !== 'standard');
  if (!prepared || prepared.kind === 'reading') {
    return { results: [...standard.slice(0, topK), ...others], ...(prepared ? { note: { applied: false, reason: 'reading', percent: prepared.percent } } : {}) };
  }
  const spec: JudgeSpec = prepared.spec;
  const judged = judgeRerank(standard, prepared.query, (id: MemoryId) => prepared.vectors.get(id), spec);
  return {
    results: [...judged.slice(0, topK), ...others],
    note: { applied: true, model: spec.id, depth: spec.depth, weight: spec.weight, readNow: prepared.readNow, ms: Math.round(ms) },
  };
}
