// Stage 2c, late interaction and speaker labels (quality work on issues 8 / 11).
//
// Late interaction (ColBERT's MaxSim, here over the sentence encoder's own un-pooled token
// outputs): the mean-pooled vector blurs a note into one point; comparing every query token with
// its best-matching token of the memory keeps which parts of the query the memory answers.
//
//   maxSim(q, m) = Σ_i w_i · max_j cos(q_i, m_j) / Σ_i w_i
//
// over the query's tokens i and the memory's tokens j (special tokens already removed by the
// producer), where w_i = max(0, ln((N + 1) / (df_i + 0.5))) is the query token's idf among the
// first `idfDepth` candidates (N of them; df_i = how many hold token id i): a token every candidate
// holds ("what", "did") weighs least (ln(101 / 100.5) = 0.005 among 100), the rare ones most.
//
//   score'(m) = (score(m) + weight x maxSim(q, m)) / (1 + weight)   for the top `depth` candidates
//   score'(m) = score(m) / (1 + weight)                              below them (maxSim not read)
//
// then re-sorted: dividing every candidate by the same 1 + weight keeps the scores on the hybrid's
// 0..1 scale (the trigger and the strong / good / weak words read it) without changing the order.
// No token matrix for the query, no lookup, or weight 0 = a no-op (the same array).
//
// Speaker labels: a memory whose text opens with a short capitalised label and a colon
// ("Caroline: ...", a transcript's speaker) gains `weight` when the query names that label ("When
// did Caroline ..."): the query is about what that person said or did. Added as it is, like session
// context's share (a named memory may pass 1; nothing named, or weight 0 = the same array).
//
// README "Late interaction" has the figures that chose the weights per encoder.

import { compareRanked } from '../recall';
import type { MemoryId, ScoredHit } from '../types';

/** A text's token vectors: `ids[i]` is token i's vocabulary id, its vector vectors[i·dim .. (i+1)·dim). */
export interface TokenMatrix {
  ids: ArrayLike<number>;
  vectors: Float32Array;
  dim: number;
}

export type TokensOf = (id: MemoryId) => TokenMatrix | undefined;

/** Idf of each query token among `docs` (the candidates): max(0, ln((N + 1) / (df + 0.5))). */
export function tokenIdf(queryIds: ArrayLike<number>, docs: readonly TokenMatrix[]): number[] {
  const want = new Set(Array.from(queryIds));
  const df = new Map<number, number>();
  for (const d of docs) {
    const seen = new Set<number>();
    for (let i = 0; i < d.ids.length; i++) {
      const t = d.ids[i];
      if (want.has(t) && !seen.has(t)) {
        seen.add(t);
        df.set(t, (df.get(t) ?? 0) + 1);
      }
    }
  }
  const n = docs.length;
  return Array.from(queryIds, (t) => Math.max(0, Math.log((n + 1) / ((df.get(t) ?? 0) + 0.5))));
}

function rowNorms(m: TokenMatrix): Float64Array {
  const rows = m.ids.length;
  const out = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let k = i * m.dim, e = k + m.dim; k < e; k++) s += m.vectors[k] * m.vectors[k];
    out[i] = Math.sqrt(s);
  }
  return out;
}

/**
 * Weighted MaxSim of `query` against `doc` (cosines, so the rows need not be unit length); 0 when
 * either has no tokens, the dimensions differ, or every weight is 0.
 */
export function maxSim(query: TokenMatrix, doc: TokenMatrix, weights: readonly number[]): number {
  const qn = query.ids.length;
  const dn = doc.ids.length;
  if (qn === 0 || dn === 0 || query.dim !== doc.dim) return 0;
  const dim = query.dim;
  const qNorm = rowNorms(query);
  const dNorm = rowNorms(doc);
  let num = 0;
  let den = 0;
  for (let i = 0; i < qn; i++) {
    const w = weights[i] ?? 0;
    if (!(w > 0) || qNorm[i] === 0) continue;
    let best = -1;
    for (let j = 0; j < dn; j++) {
      if (dNorm[j] === 0) continue;
      let s = 0;
      for (let k = 0, a = i * dim, b = j * dim; k < dim; k++) s += query.vectors[a + k] * doc.vectors[b + k];
      const c = s / (qNorm[i] * dNorm[j]);
      if (c > best) best = c;
    }
    num += w * best;
    den += w;
  }
  return den > 0 ? num / den : 0;
}

/** The late-interaction stage over hits sorted best first (best first on return). */
export function lateInteraction(
  hits: ScoredHit[],
  query: TokenMatrix | undefined,
  tokensOf: TokensOf | undefined,
  opts: { weight: number; depth: number; idfDepth: number },
): ScoredHit[] {
  if (!(opts.weight > 0) || !query || !tokensOf || hits.length === 0 || opts.depth <= 0) return hits;
  const idfDocs: TokenMatrix[] = [];
  for (const h of hits.slice(0, Math.max(opts.idfDepth, opts.depth))) {
    const t = tokensOf(h.id);
    if (t) idfDocs.push(t);
  }
  const weights = tokenIdf(query.ids, idfDocs);
  const scale = 1 / (1 + opts.weight);
  const head = hits.slice(0, opts.depth).map((h) => {
    const found = tokensOf(h.id);
    // a matrix of token ids only (the idf's candidates below the depth) is never MaxSim'd
    const t = found && found.vectors.length === found.ids.length * found.dim ? found : undefined;
    return { ...h, score: (h.score + (t ? opts.weight * maxSim(query, t, weights) : 0)) * scale };
  });
  return [...head.sort(compareRanked), ...hits.slice(opts.depth).map((h) => ({ ...h, score: h.score * scale }))];
}

const LABEL = /^([A-Z][\p{L}'’-]*(?: [A-Z][\p{L}'’-]*){0,2}):\s/u;

/** The speaker label a text opens with ("Caroline: hi" -> "Caroline"), or undefined. */
export function speakerLabel(text: string): string | undefined {
  return LABEL.exec(text)?.[1];
}

/** Whether the query names `label`: every word of the label appears among the query's words (any case). */
export function namesLabel(query: string, label: string): boolean {
  const words = new Set(query.toLowerCase().match(/[\p{L}\p{N}'’-]+/gu) ?? []);
  return label
    .toLowerCase()
    .split(' ')
    .every((w) => words.has(w) || words.has(`${w}'s`) || words.has(`${w}’s`));
}

/** The speaker-label stage: hits whose memory's label the query names gain `weight` (best first on return). */
export function speakerMatch(hits: ScoredHit[], queryText: string, textOf: (id: MemoryId) => string | undefined, weight: number): ScoredHit[] {
  if (!(weight > 0) || hits.length === 0) return hits;
  const memo = new Map<string, boolean>();
  let changed = false;
  const out = hits.map((h) => {
    const text = textOf(h.id);
    const label = text === undefined ? undefined : speakerLabel(text);
    if (!label) return h;
    let named = memo.get(label);
    if (named === undefined) memo.set(label, (named = namesLabel(queryText, label)));
    if (!named) return h;
    changed = true;
    return { ...h, score: h.score + weight };
  });
  return changed ? out.sort(compareRanked) : hits;
}
