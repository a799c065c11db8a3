// The judge reader (docs/research/quality.md, "Fifth pass"): the offline reader (reader.ts) with one
// more part, the judge's opinion. The judge is a stronger sentence encoder than the one that built
// the index (all-mpnet-base-v2; src/core/pipeline/judge.ts uses it over the finished ranking's top
// 30); its vectors are computed outside the core (the app's judge worker stores one per memory; the
// eval reads them from its cache) and come in as data:
//   query     the judge's vector of the query text
//   vectorOf  the judge's vector of a memory, undefined when it has none yet (that memory is read
//             without the judge part: the offline reader's score)
//   weight    the judge part's weight in the reader's weighted mean (the offline parts weigh
//             meaning 0.35, spaces 0.1, words 0.35, names 0.1, time 0.1)
// judge = max(0, cosine(query, vectorOf(id))), clipped to 1. No query vector or weight 0 = the
// offline reader exactly. Deterministic, no model runtime.

import { cosine } from '../spaces/similarity';
import type { MemoryId } from '../types';
import { poolIdf, readOffline, type Reader, type ReaderCandidate, type ReaderQuery, type ReaderScore } from './reader';

export interface JudgeVectors {
  /** The judge's vector of the query (absent = no judge part anywhere). */
  query: ArrayLike<number> | undefined;
  /** The judge's vector of a memory (absent = no judge part for it). */
  vectorOf: (id: MemoryId) => ArrayLike<number> | undefined;
  /** The judge part's weight (default JUDGE_READER_WEIGHT). */
  weight?: number;
}

/** The judge part's weight, chosen on one half of each dev file and read on the other (quality.md, "Fifth pass"). */
export const JUDGE_READER_WEIGHT = 2;

/**
 * How deep search runs with the judge reader (quality.md, "Sixth pass"; the fifth pass chose the
 * reader weight and the 20 nearest): every query escalates (`threshold` 1: the confidence is always
 * below it), the pool is the shipped one plus the judge's 20 nearest (`judgeNearest` ->
 * `ExpansionSource.nearest`), and the merge is **reserved slots** (`deepSearch.keepTop` 7,
 * `deepSearch.reserveSlots` 3): the answer's top 7 stay, places 8-10 go to the reader's 3 best
 * memories from outside the answer's top 10, the answer's rank 8 on is dropped. `mergeInto` 'answer':
 * merged into the answer the person would see without deep search (the refined answer re-scored by
 * the judge), not into the first pass — merged into the first pass it loses the refinement and
 * LoCoMo's MRR@10 falls 3 points. Of the grid's settings that lowered MRR@10 on neither dev file nor
 * half over the judged answer, this one recovered most (LoCoMo recoveredShare 0.11, was 0.017). `mergeWeight` is the blend's
 * weight (the fifth pass's, used if reserveSlots is set to 0).
 */
export const JUDGE_DEEP_SETTINGS = {
  readerWeight: JUDGE_READER_WEIGHT,
  mergeWeight: 0.7,
  nearest: 20,
  threshold: 1,
  keepTop: 7,
  reserveSlots: 3,
  mergeInto: 'answer',
} as const;

/** The judge's cosine of one candidate, or undefined when either vector is missing. */
export function judgeCosine(judge: JudgeVectors, id: MemoryId): number | undefined {
  const q = judge.query;
  const v = judge.vectorOf(id);
  if (!q || q.length === 0 || !v || v.length !== q.length) return undefined;
  return cosine(q, v);
}

export class JudgeReader implements Reader {
  readonly kind = 'offline' as const;
  constructor(private readonly judge: JudgeVectors) {}
  readSync(query: ReaderQuery, pool: readonly ReaderCandidate[]): ReaderScore[] {
    const idf = poolIdf(query, pool);
    const weight = this.judge.weight ?? JUDGE_READER_WEIGHT;
    return pool.map((c) => {
      const cos = weight > 0 ? judgeCosine(this.judge, c.id) : undefined;
      const { id, score, reasons } = readOffline(query, c, idf, cos === undefined ? undefined : { cosine: cos, weight });
      return { id, score, reasons };
    });
  }
  read(query: ReaderQuery, pool: readonly ReaderCandidate[]): Promise<ReaderScore[]> {
    return Promise.resolve(this.readSync(query, pool));
  }
}

/**
 * The `k` memories nearest the query by the judge (cosine, best first; ties by id), among `ids`
 * (the caller passes the memories in the query's scope): deep search's `meaning` pool strategy
 * (ExpansionSource.nearest). Memories without a judge vector are skipped; no query vector = [].
 */
export function judgeNearest(judge: JudgeVectors, ids: Iterable<MemoryId>, k: number): MemoryId[] {
  if (!judge.query || judge.query.length === 0 || !(k > 0)) return [];
  const scored: { id: MemoryId; c: number }[] = [];
  for (const id of ids) {
    const c = judgeCosine(judge, id);
    if (c !== undefined) scored.push({ id, c });
  }
  return scored
    .sort((a, b) => b.c - a.c || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, k)
    .map((x) => x.id);
}
