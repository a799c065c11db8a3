// Iterative search (seed 001's searchIterative): a difficulty gate, then passes of
// retrieve -> grade -> reformulate or widen -> stop, or abstain.
//
// Gate (decided here): pass 1 is the ordinary search, graded by the reader on its top K. The query
// is hard when `forceHard`, or the primary confidence (trigger.ts) is below `threshold` (0.3, the
// deep-search default), or no result grades at least `goodEnough` (0.5). An easy query returns
// pass 1 untouched (the loop cannot lower the ranking of queries the search already answers).
// Passes 2..maxIterations (clamped to [1, 5], default 3), each after checking the AbortSignal:
//   reformulate  the query transformer's next variant not tried yet, fed back the best texts so far
//   widen        when there is no new variant: the original query with one hop over shared names
//                (expandHops 1), once
// Each pass grades the memories it adds; the loop stops when a pass adds one grading >= goodEnough,
// when nothing is left to try, or at maxIterations. The final ranking is the deep-search merge of
// pass 1 with every grade (mergeDeep: weighted, duplicates keep the higher), capped at topK. When
// no memory grades at least `abstainBelow` (0.2) the result abstains: `abstained` is true and the
// explanation says nothing was good enough (the closest results are still returned, marked).

import type { QueryTransformer } from '../query';
import type { SpaceFeatures } from '../spaces';
import type { MemoryId } from '../types';
import { mergeDeep, type MergedHit } from './merge';
import type { Reader, ReaderCandidate, ReaderScore } from './reader';
import { confidenceOf, type ConfidenceModel } from './trigger';

export interface RetrievedHit {
  id: MemoryId;
  score: number;
}

export interface IterativeDeps {
  /** One retrieval pass (the app's search with every base option); expandHops 1 = widened. */
  retrieve(query: string, pass: { expandHops: 0 | 1 }): RetrievedHit[] | Promise<RetrievedHit[]>;
  candidateOf(id: MemoryId): ReaderCandidate | undefined;
  reader: Reader;
  transformer?: QueryTransformer;
  queryFeatures: SpaceFeatures;
}

export interface IterativeOptions {
  maxIterations?: number;
  forceHard?: boolean;
  topK?: number;
  signal?: { readonly aborted: boolean };
  threshold?: number;
  goodEnough?: number;
  abstainBelow?: number;
  weight?: number;
  /** The encoder's calibrated confidence for the difficulty gate (absent = the seed's fixed blend). */
  confidenceModel?: ConfidenceModel;
}

export interface IterativePass {
  pass: number;
  action: 'retrieve' | 'reformulate' | 'widen';
  query: string;
  added: MemoryId[];
  bestGrade: number;
  /** For the explanation: "pass 2: reformulated as "...", added 3". */
  text: string;
}

export type IterativeStop = 'easy' | 'good-enough' | 'max-iterations' | 'exhausted' | 'aborted';

export interface IterativeResult {
  results: MergedHit[];
  passes: IterativePass[];
  hard: boolean;
  abstained: boolean;
  stoppedBy: IterativeStop;
  /** The explanation, one line a pass, then the abstention if any. */
  explanation: string[];
}

export const DEFAULT_MAX_ITERATIONS = 3;

/** maxIterations clamped to [1, 5]; absent or not a number = 3. */
export function clampIterations(n: number | undefined): number {
  if (n === undefined || !Number.isFinite(n)) return DEFAULT_MAX_ITERATIONS;
  return Math.min(5, Math.max(1, Math.round(n)));
}

const best = (xs: readonly ReaderScore[]) => xs.reduce((m, x) => Math.max(m, x.score), 0);

export async function searchIterative(query: string, deps: IterativeDeps, opts: IterativeOptions = {}): Promise<IterativeResult> {
  const topK = Math.max(1, Math.floor(opts.topK ?? 10));
  const max = clampIterations(opts.maxIterations);
  const threshold = opts.threshold ?? 0.3;
  const goodEnough = opts.goodEnough ?? 0.5;
  const abstainBelow = opts.abstainBelow ?? 0.2;
  const weight = opts.weight ?? 0.5;
  const q = { text: query, features: deps.queryFeatures };
  const grade = async (ids: readonly MemoryId[]) => {
    const cands = ids.map((id) => deps.candidateOf(id)).filter((c): c is ReaderCandidate => c !== undefined);
    return cands.length ? deps.reader.read(q, cands, { signal: opts.signal }) : [];
  };
  const first = (await deps.retrieve(query, { expandHops: 0 })).slice(0, topK);
  const grades = new Map<MemoryId, ReaderScore>();
  for (const g of await grade(first.map((h) => h.id))) grades.set(g.id, g);
  const g1 = best([...grades.values()]);
  const passes: IterativePass[] = [
    { pass: 1, action: 'retrieve', query, added: first.map((h) => h.id), bestGrade: g1, text: `pass 1: searched "${query}", ${first.length} results, best grade ${g1.toFixed(2)}` },
  ];
  const hard = opts.forceHard === true || confidenceOf(first.map((h) => h.score), topK, opts.confidenceModel).value < threshold || g1 < goodEnough;
  const finish = (stoppedBy: IterativeStop): IterativeResult => {
    const all = [...grades.values()];
    const abstained = hard && best(all) < abstainBelow;
    const results = stoppedBy === 'easy' ? first.map((h): MergedHit => ({ id: h.id, score: h.score, source: 'primary' })) : mergeDeep(first, all, { weight, topK });
    const explanation = passes.map((p) => p.text);
    if (abstained) explanation.push(`nothing good enough: the best grade ${best(all).toFixed(2)} is below ${abstainBelow}`);
    return { results, passes, hard, abstained, stoppedBy, explanation };
  };
  if (!hard) return finish('easy');
  const tried = new Set([query.trim().toLowerCase()]);
  let widened = false;
  for (let pass = 2; pass <= max; pass++) {
    if (opts.signal?.aborted) return finish('aborted');
    const feedback = [...grades.values()].sort((a, b) => b.score - a.score).slice(0, 5).map((g) => deps.candidateOf(g.id)?.text ?? '');
    let variant: string | undefined;
    if (deps.transformer) {
      const vs = await deps.transformer.variants(query, 3, { feedback, signal: opts.signal });
      variant = vs.find((v) => !tried.has(v.trim().toLowerCase()));
    }
    if (opts.signal?.aborted) return finish('aborted');
    let action: IterativePass['action'];
    let hits: RetrievedHit[];
    if (variant !== undefined) {
      tried.add(variant.trim().toLowerCase());
      action = 'reformulate';
      hits = await deps.retrieve(variant, { expandHops: 0 });
    } else if (!widened) {
      widened = true;
      action = 'widen';
      hits = await deps.retrieve(query, { expandHops: 1 });
    } else return finish('exhausted');
    const added = hits.slice(0, topK).map((h) => h.id).filter((id) => !grades.has(id));
    const got = await grade(added);
    for (const g of got) grades.set(g.id, g);
    const bg = best(got);
    const how = action === 'reformulate' ? `reformulated as "${variant}"` : 'widened by one hop over shared names';
    passes.push({ pass, action, query: variant ?? query, added, bestGrade: bg, text: `pass ${pass}: ${how}, added ${added.length}` });
    if (bg >= goodEnough) return finish('good-enough');
  }
  return finish('max-iterations');
}
