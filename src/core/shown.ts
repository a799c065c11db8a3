// What a plain search shows of the hybrid's ranking (re-exported by hybrid.ts).
import type { ScoredHit } from './types';

/**
 * Whether a plain search shows a hit. A hit that matched a word of the query is shown; one found
 * on meaning alone is shown only with a cosine > 0 and a fused score > 0 (the dense scan returns
 * its top candidates however unlike the query, and min-max fusion gives 0 to the weakest of each
 * list, i.e. "less like the query than everything else").
 */
export function isShownHit(h: ScoredHit): boolean {
  return h.why.bm25 > 0 || h.why.matchedTerms.length > 0 || (h.why.cosine > 0 && h.score > 0);
}
