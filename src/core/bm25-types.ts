// The BM25 index's parameters, answers and packed form (src/core/bm25.ts).

import { AppError } from './errors';
import type { MemoryId } from './types';

export interface Bm25Params {
  /** Term-frequency saturation (>= 0). */
  k1: number;
  /** Length normalisation, 0 (none) .. 1 (full). */
  b: number;
}

export const DEFAULT_BM25_PARAMS: Bm25Params = { k1: 1.2, b: 0.75 };

export interface Bm25Hit {
  id: MemoryId;
  score: number;
  /** The query's surface words that matched this document (query order, unique). */
  terms: string[];
  /** Sum of the idf of the query terms this document holds (how much of the query it explains). */
  matchedIdf: number;
}

export interface QueryTermStat {
  /** The analysed (stemmed) term. */
  term: string;
  /** Its first surface form in the query (what `Bm25Hit.terms` reports). */
  surface: string;
  /** Live documents holding it (0 = no document does). */
  df: number;
  idf: number;
}

export interface Bm25SearchOptions {
  topK: number;
  /** Only documents for which this returns true are ranked (applied to matching docs only). */
  accept?: (id: MemoryId) => boolean;
  params?: Partial<Bm25Params>;
}

/**
 * The index as packed arrays (a lexical snapshot, src/core/lexical-snapshot.ts): live documents
 * only, slot = position in `ids`; term t's postings are `docs` / `tfs` from `termStart[t]` to
 * `termStart[t + 1]`, slots ascending. `lengths`: each document's analysed token count.
 */
export interface PackedBm25 {
  terms: string[];
  termStart: Uint32Array;
  docs: Int32Array;
  tfs: Uint32Array;
  lengths: Uint32Array;
  ids: MemoryId[];
}

export function validateBm25Params(p: Partial<Bm25Params>): void {
  if (p.k1 !== undefined && !(Number.isFinite(p.k1) && p.k1 >= 0)) {
    throw new AppError('INVALID_CONFIG', `BM25 k1 must be a finite number >= 0 (got ${p.k1}).`);
  }
  if (p.b !== undefined && !(Number.isFinite(p.b) && p.b >= 0 && p.b <= 1)) {
    throw new AppError('INVALID_CONFIG', `BM25 b must be between 0 and 1 (got ${p.b}).`);
  }
}
