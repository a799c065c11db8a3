// Stage 5, associative merge: from each standard result, walk to its nearest memories
// (recall's `associate`), then keep a hop result only above a floor and up to a cap, so hops never
// displace strong direct hits (the associative-retrieval design: strict hop and beam caps limit the
// explosion; a memory reached both directly and by a walk keeps max(direct, associative)).

import { associate, type FeedbackState, type NeighbourMatrix, type RecallDoc, type RecallOptions, type RecallResult } from '../recall';
import { isRecallable } from '../status';
import { isShadowed } from './temporal';
import type { MemoryId, ScoredHit } from '../types';
import type { MemoryTable } from './memory-table';
import type { RankingConfig } from './types';

export interface AssociativeSource {
  matrix: NeighbourMatrix;
  docOf: (id: MemoryId) => RecallDoc | undefined;
  /** The blended hits: a walk reaching one of them keeps max(direct, associative) and its explanation. */
  scored: readonly ScoredHit[];
  /** Associative results carry their cosine to the query when it is known. */
  queryVector: Float32Array | null;
  feedback?: FeedbackState | null;
  /** The same memories as columns (the pipeline's index): the walk's closed rows without a lookup per memory. */
  table?: MemoryTable | null;
}

/**
 * `results` with the associative ones merged by score (lateral ones stay last). A walk never
 * reaches a memory the status gate refuses, a suppressed one, nor an earlier version of a memory that
 * passes the gate (isShadowed). Kept: hop results with score >=
 * assocFloor x the best standard score, at most assocMaxResults of them. assocHops 0: `results`.
 */
export function mergeAssociative(
  results: RecallResult[],
  src: AssociativeSource,
  o: RecallOptions,
  r: Pick<RankingConfig, 'assocFloor' | 'assocMaxResults'>,
): RecallResult[] {
  if (o.assocHops <= 0) return results;
  const eligible = (id: MemoryId) => {
    const d = src.docOf(id);
    return isRecallable(d, o) && src.feedback?.isSuppressed(id) !== true && !isShadowed(d, src.docOf, o);
  };
  const pool = new Map(src.scored.map((h) => [h.id, h]));
  const lists = src.matrix.neighbours;
  // neighbours from the dense store's cached lists when the matrix is the store's (same rows)
  const neighbours = lists ? (p: number, k: number, c: number, closed: Uint8Array) => lists.pick(p, k, c, closed) : undefined;
  const table = src.table;
  const closeIneligible = table ? (closed: Uint8Array) => closeRows(table, src, o, closed) : undefined;
  const outcome = associate(results, { matrix: src.matrix, eligible, closeIneligible, pool, queryVector: src.queryVector ?? undefined, neighbours }, o);
  const standardBest = results.reduce((m, x) => (x.mode === 'standard' && x.score > m ? x.score : m), 0);
  const floor = r.assocFloor * standardBest;
  let kept = 0;
  return outcome.results.filter((x) => {
    if (x.mode !== 'associative') return true;
    if (x.score < floor || kept >= r.assocMaxResults) return false;
    kept++;
    return true;
  });
}

/**
 * `eligible` for every row of the matrix from the table: a row of a memory the gate refuses, a
 * suppressed one, an earlier version shadowed by its memory, or one the table does not hold is
 * closed (tested against the lookup per memory).
 */
export function closeRows(t: MemoryTable, src: Pick<AssociativeSource, 'matrix' | 'docOf' | 'feedback'>, o: RecallOptions, closed: Uint8Array): void {
  const m = src.matrix;
  closed.fill(1);
  const rows = t.matrixRows(m);
  for (let r = 0; r < t.size; r++) {
    const row = rows[r];
    if (row >= 0 && t.recallable(r, o)) closed[row] = 0;
  }
  for (const id of src.feedback?.suppressedIds() ?? []) {
    const row = m.indexOf.get(id);
    if (row !== undefined) closed[row] = 1;
  }
  for (const r of t.superseded) {
    const row = rows[r];
    if (row >= 0 && isShadowed(t.docs[r], src.docOf, o)) closed[row] = 1;
  }
}
