// The reader of the deep-search design (seed 003, C): one interface, scoring the query against each
// pooled memory directly, with reasons. The offline reader (this file, the default) compares:
//   meaning   the sentence-encoder cosine (E1), max(0, cos)
//   spaces    the mean of the positive similarities in the other content spaces both sides have
//             (E5..E13; the temporal E2..E4 say when, not what)
//   words     the share of the query's content words (stemmed, stopwords out) the memory contains
//   names     the share of the query's entities (E11 hashes) the memory mentions
//   time      whether a year or month the query names is the memory's (its date or its text)
//   late      with token matrices on both sides (the query's and the candidate's, as late
//             interaction reads them): max(0, MaxSim) of the query's tokens, each weighted by its
//             idf among the pool's candidates that have a matrix (src/core/pipeline/late-interaction.ts)
//   judge     with a judge's vectors (a stronger sentence encoder, judge-reader.ts): max(0, cosine)
//             of the query's and the memory's judge vectors, at the weight the judge reader gives
// score = the weighted mean of the parts present (weights below; a part neither side can speak to
// is left out, not counted as 0), so without token matrices the reader is what it was. The model
// reader (the person's language model) implements the same interface in the services.

import { analyze, analyzeWithSurface } from '../text';
import { spaceSimilarities, type SpaceFeatures } from '../spaces';
import { maxSim, tokenIdf, type TokenMatrix } from '../pipeline/late-interaction';
import type { MemoryId, SpaceId } from '../types';

export interface ReaderQuery {
  text: string;
  features: SpaceFeatures;
  /** The query's token matrix (late interaction); absent = no `late` part. */
  tokens?: TokenMatrix;
}

export interface ReaderCandidate {
  id: MemoryId;
  text: string;
  createdAt: number;
  features?: SpaceFeatures;
  /** The memory's token matrix (late interaction); absent = no `late` part for it. */
  tokens?: TokenMatrix;
}

export interface ReaderScore {
  id: MemoryId;
  /** 0..1 */
  score: number;
  /** Plain-language reasons, strongest first. */
  reasons: string[];
}

export interface ReadContext {
  signal?: { readonly aborted: boolean };
}

export interface Reader {
  readonly kind: 'offline' | 'model';
  /** Scores for the candidates it could read (a candidate left out counts as unread). */
  read(query: ReaderQuery, pool: readonly ReaderCandidate[], ctx?: ReadContext): Promise<ReaderScore[]>;
}

// late 2 (docs/research/quality.md "Deep search, third pass"): with every query escalated, MaxSim
// in the mean lifts the merged MRR@10 over the reader without it on both dev files (LoCoMo -1.9 ->
// -1.0, notes -2.5 -> +0.2 against the ranking alone) and recovers as much or more (0.017 -> 0.022,
// 0.036 -> 0.036); weight 1 recovered less on LoCoMo (0.015).
export const OFFLINE_READER_WEIGHTS = { meaning: 0.35, spaces: 0.1, words: 0.35, names: 0.1, time: 0.1, late: 2 } as const;

/** The parts of a reading: the offline reader's, and the judge's when a judge reader gives its cosine. */
export type ReaderPart = keyof typeof OFFLINE_READER_WEIGHTS | 'judge';

/** A judge's opinion of one candidate (judge-reader.ts): its cosine with the query and the part's weight. */
export interface JudgePart {
  cosine: number;
  weight: number;
}

const OTHER_SPACES: readonly SpaceId[] = ['E5', 'E6', 'E7', 'E8', 'E9', 'E10', 'E11', 'E12', 'E13'];
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** Years (1900..2099) and month names the text mentions. */
export function timeMentions(text: string): { years: number[]; months: number[] } {
  const years = [...text.matchAll(/\b(19|20)\d{2}\b/g)].map((m) => Number(m[0]));
  const lower = text.toLowerCase();
  const months = MONTHS.flatMap((m, i) => (new RegExp(`\\b${m}\\b`).test(lower) ? [i] : []));
  return { years: [...new Set(years)], months };
}

/** A matrix with every token's vector (a token-ids-only matrix cannot be MaxSim'd). */
const fullMatrix = (m: TokenMatrix | undefined): m is TokenMatrix => !!m && m.ids.length > 0 && m.vectors.length === m.ids.length * m.dim;

/** The query tokens' idf weights among the pool's candidates with a full matrix (null: no `late` part). */
export function poolIdf(q: ReaderQuery, pool: readonly ReaderCandidate[]): number[] | null {
  if (!fullMatrix(q.tokens)) return null;
  const docs = pool.map((c) => c.tokens).filter(fullMatrix);
  return docs.length ? tokenIdf(q.tokens.ids, docs) : null;
}

/**
 * The offline reader's parts and score for one candidate (exported for tests and the explanation);
 * `idf`: the query tokens' weights for the `late` part (poolIdf), absent = no late part.
 */
export function readOffline(q: ReaderQuery, c: ReaderCandidate, idf?: readonly number[] | null, judge?: JudgePart): ReaderScore & { parts: Partial<Record<ReaderPart, number>> } {
  const parts: Partial<Record<ReaderPart, number>> = {};
  const reasons: [number, string][] = [];
  const f = c.features ?? {};
  const sims = spaceSimilarities(q.features, f);
  if (sims.E1 !== undefined) {
    parts.meaning = Math.max(0, sims.E1);
    reasons.push([parts.meaning, `close in meaning (cosine ${sims.E1.toFixed(2)})`]);
  }
  const others = OTHER_SPACES.filter((s) => sims[s] !== undefined).map((s) => Math.max(0, Math.min(1, sims[s]!)));
  if (others.length) parts.spaces = others.reduce((a, b) => a + b, 0) / others.length;
  const qTok = analyzeWithSurface(q.text);
  const qTerms = new Map(qTok.map((t) => [t.term, t.surface]));
  if (qTerms.size) {
    const mine = new Set(analyze(c.text));
    const shared = [...qTerms].filter(([t]) => mine.has(t)).map(([, s]) => s);
    parts.words = shared.length / qTerms.size;
    if (shared.length) reasons.push([parts.words, `shares the words ${shared.slice(0, 5).join(', ')}`]);
  }
  const qe = q.features.E11?.entities;
  if (qe && qe.length) {
    const me = new Set(f.E11?.entities ?? []);
    const n = [...new Set(qe)].filter((e) => me.has(e)).length;
    parts.names = n / new Set(qe).size;
    if (n) reasons.push([parts.names, `mentions ${n} of the names in the question`]);
  }
  const qt = timeMentions(q.text);
  if (qt.years.length || qt.months.length) {
    const d = new Date(c.createdAt);
    const ct = timeMentions(c.text);
    const yearOk = qt.years.length === 0 || qt.years.some((y) => y === d.getUTCFullYear() || ct.years.includes(y));
    const monthOk = qt.months.length === 0 || qt.months.some((m) => m === d.getUTCMonth() || ct.months.includes(m));
    parts.time = (yearOk ? 0.5 : 0) + (monthOk ? 0.5 : 0);
    if (parts.time > 0) reasons.push([parts.time, 'from the time the question names']);
  }
  if (idf && fullMatrix(q.tokens) && fullMatrix(c.tokens)) {
    parts.late = Math.max(0, maxSim(q.tokens, c.tokens, idf));
    reasons.push([parts.late, `its words answer the question's closely (${parts.late.toFixed(2)})`]);
  }
  if (judge && judge.weight > 0 && Number.isFinite(judge.cosine)) {
    parts.judge = Math.max(0, Math.min(1, judge.cosine));
    reasons.push([parts.judge, `the careful model reads it as close in meaning (${parts.judge.toFixed(2)})`]);
  }
  let num = 0;
  let den = 0;
  for (const [k, v] of Object.entries(parts) as [ReaderPart, number][]) {
    const w = k === 'judge' ? judge!.weight : OFFLINE_READER_WEIGHTS[k];
    num += w * v;
    den += w;
  }
  const score = den > 0 ? num / den : 0;
  return { id: c.id, score, reasons: reasons.sort((a, b) => b[0] - a[0]).map(([, r]) => r), parts };
}

/** The offline reader: deterministic, no network, no model beyond the stored features. */
export class OfflineReader implements Reader {
  readonly kind = 'offline' as const;
  readSync(query: ReaderQuery, pool: readonly ReaderCandidate[]): ReaderScore[] {
    const idf = poolIdf(query, pool);
    return pool.map((c) => {
      const { id, score, reasons } = readOffline(query, c, idf);
      return { id, score, reasons };
    });
  }
  read(query: ReaderQuery, pool: readonly ReaderCandidate[]): Promise<ReaderScore[]> {
    return Promise.resolve(this.readSync(query, pool));
  }
}
