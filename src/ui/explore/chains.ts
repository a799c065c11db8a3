// Which associative chains are worth showing (issue 12, point 5). Pure: the Explore view applies it
// to a recall's results before the list and the graph see them; scripts/measure-explore.ts
// measures it on the sample collection.
//
// The associative walk (src/core/recall) follows neighbours with cosine >= 0.72 for up to three
// hops and returns every memory it reached: with three hops a query returned 23 associative
// results next to 6 direct ones, some of them weak. A chain is worth showing when
//   1. every step after the direct hit is a close paraphrase: cosine >= MIN_STEP_COSINE (0.73, just
//      above the walk's own floor of 0.72: the steps that barely made it go; 0.75 was tried and
//      left the sample's flagship "why didn't my bread rise" (steps 0.72-0.75) with no chain), and
//   2. it is among the best: at most half as many associative results as direct hits (standard
//      and lateral), and never more than MAX_CHAIN_RESULTS (6), best score first.
// A memory of a kept chain that is itself a result keeps its place; the rest are hidden (counted,
// so the view can say how many weaker chains it left out).
import type { RecallView } from '../../services';

export const MIN_STEP_COSINE = 0.73;
export const MAX_CHAIN_RESULTS = 6;

export interface ChainFilter {
  minStepCosine: number;
  maxResults: number;
  /** Associative results per direct hit (0.5: half as many). */
  perDirect: number;
}

export const CHAIN_FILTER: Readonly<ChainFilter> = Object.freeze({ minStepCosine: MIN_STEP_COSINE, maxResults: MAX_CHAIN_RESULTS, perDirect: 0.5 });

interface ChainLike {
  mode: string;
  score: number;
  chain?: readonly { hop: number; cosine: number }[];
}

/** Every step after the first (the direct hit, whose cosine is to the query) is close enough. */
export function stepsClose(r: ChainLike, min = CHAIN_FILTER.minStepCosine): boolean {
  const steps = [...(r.chain ?? [])].sort((a, b) => a.hop - b.hop).slice(1);
  return steps.every((s) => Number.isFinite(s.cosine) && s.cosine >= min);
}

/** How many associative results may stay next to `direct` direct hits. */
export function chainBudget(direct: number, f: ChainFilter = CHAIN_FILTER): number {
  return Math.min(f.maxResults, Math.ceil(direct * f.perDirect));
}

/** The results with only the chains worth showing; `hidden` = associative results left out. */
export function keepChains<T extends ChainLike>(results: readonly T[], f: ChainFilter = CHAIN_FILTER): { kept: T[]; hidden: number } {
  const direct = results.filter((r) => r.mode !== 'associative').length;
  const budget = chainBudget(direct, f);
  const assoc = results
    .filter((r) => r.mode === 'associative' && stepsClose(r, f.minStepCosine))
    .sort((a, b) => b.score - a.score)
    .slice(0, budget);
  const keep = new Set<T>(assoc);
  const kept = results.filter((r) => r.mode !== 'associative' || keep.has(r));
  return { kept, hidden: results.length - kept.length };
}

/** keepChains over the services' recall views. */
export function keepChainViews(views: readonly RecallView[], f: ChainFilter = CHAIN_FILTER): { kept: RecallView[]; hidden: number } {
  const byResult = new Map(views.map((v) => [v.result as ChainLike, v]));
  const { kept, hidden } = keepChains([...byResult.keys()], f);
  return { kept: kept.map((r) => byResult.get(r)!), hidden };
}
