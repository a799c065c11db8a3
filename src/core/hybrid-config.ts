// The hybrid's settings: BM25's k1 / b, the fusion and its weights, the candidate depth (with the
// measured reasons for the shipped values), and their validation. Used by src/core/hybrid.ts.

import { AppError } from './errors';
import { validateBm25Params } from './bm25';

export interface HybridConfig {
  fusion: 'weighted' | 'rrf';
  lexicalWeight: number;
  semanticWeight: number;
  candidateK: number;
  k1: number;
  b: number;
  rrfK: number;
  /**
   * How weighted fusion scores the lexical list: 'minmax' (BM25 min-max: the best lexical match
   * gets 1 whatever it matched) or 'coverage' (`idfCoverage`: the share of the query's idf mass the
   * memory holds, to the power `coveragePower`, so a lone shared everyday word counts for its share
   * only). BM25 still chooses the lexical candidates either way. See src/core/pipeline/README.md.
   */
  lexicalScore: 'minmax' | 'coverage';
  /** The power of the coverage share (1 = proportional; > 1 shrinks partial matches more). */
  coveragePower: number;
}

/**
 * The shipped hybrid, chosen on LoCoMo dev (scripts/eval-locomo.ts: 5 conversations, 760 queries,
 * categories 1-4; Recall@10 / nDCG@10):
 * - BM25 k1 = 0.9, b = 0.4: the Anserini / Pyserini defaults, not a grid optimum. Conversation
 *   turns are short and similar in length, so weaker length normalisation helps: 63.1 / 50.2
 *   vs 62.2 / 48.7 at the textbook 1.2 / 0.75 (b = 0.3 gave 63.5; we kept the published pair).
 *   Stemming (+4.5 R@10) and stopword removal (+5.5) both pay; see src/core/text.
 * - Weighted min-max fusion, equal weights: min-max needs a floor, and with a shallow candidate
 *   list the floor is "the 60th candidate", which shifts with the query. A deep list puts the
 *   floor near the collection's own minimum, and then the weights stop mattering much:
 *   depth 300-1000 x lexical weight 0.5-0.6 all land at 65.3-66.6 R@10, whereas depth 60 swings
 *   64.1-65.8 with the weight. We ship the neutral 0.5 / 0.5 at depth 500:
 *   66.3 R@10 / 51.7 nDCG@10 / 49.4 MRR@10 (BM25 alone 63.1, encoder alone 39.9,
 *   equal-weight RRF 58.5). Callers wanting cheaper candidate lists can pass a smaller candidateK.
 * - Also tried, not shipped: z-score normalisation (64.1-65.8 over the same grid, no better than
 *   min-max), RRF with a 2:1 lexical weight (61.1), no stemming (-3 to -4.5 R@10 for BM25),
 *   keeping stopwords (-3 to -5.5).
 * These are the base values. The app runs them patched with its encoder's calibration
 * (src/core/pipeline/calibration.ts: lexicalScore 'coverage' for every encoder today), chosen on
 * LoCoMo and on reworded questions over personal notes (src/core/pipeline/README.md, "Query-adaptive
 * fusion"): min-max alone let one shared everyday word win rank 1 there.
 */
export const DEFAULT_HYBRID_CONFIG: HybridConfig = {
  fusion: 'weighted',
  lexicalWeight: 0.5,
  semanticWeight: 0.5,
  candidateK: 500,
  k1: 0.9,
  b: 0.4,
  rrfK: 60,
  lexicalScore: 'minmax',
  coveragePower: 1,
};

export function resolveHybridConfig(base: HybridConfig, patch: Partial<HybridConfig> | undefined): HybridConfig {
  const c = { ...base, ...patch };
  if (c.fusion !== 'weighted' && c.fusion !== 'rrf') {
    throw new AppError('INVALID_CONFIG', `Fusion must be 'weighted' or 'rrf' (got ${String(c.fusion)}).`);
  }
  if (c.lexicalScore !== 'minmax' && c.lexicalScore !== 'coverage') {
    throw new AppError('INVALID_CONFIG', `lexicalScore must be 'minmax' or 'coverage' (got ${String(c.lexicalScore)}).`);
  }
  for (const key of ['lexicalWeight', 'semanticWeight', 'rrfK', 'coveragePower'] as const) {
    if (!Number.isFinite(c[key]) || c[key] < 0) {
      throw new AppError('INVALID_CONFIG', `${key} must be a finite number >= 0 (got ${c[key]}).`);
    }
  }
  if (!Number.isInteger(c.candidateK) || c.candidateK < 1) {
    throw new AppError('INVALID_CONFIG', `candidateK must be a whole number >= 1 (got ${c.candidateK}).`);
  }
  validateBm25Params({ k1: c.k1, b: c.b });
  return c;
}
