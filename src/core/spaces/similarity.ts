// The five similarity functions (cosine, Jaccard, Hamming, MaxSim, TransE) and the per-space
// dispatcher. Invalid input never throws here; as the thirteen-spaces design asks, NaN / Infinity
// in a vector -> 0 with a warning ("Invalid embedding value in <space>"), a zero-magnitude vector
// (division by zero) -> 0 with an error log, so one bad row cannot break a
// ranking. Every result is a finite number; cosine-based ones lie in [-1, 1], the rest in [0, 1].

import type { SpaceId } from '../types';
import { SPACES, spaceLabel } from './registry';
import type { BinaryVector, EntityFeatures, SparseVector, TokenMatrix, SpaceVector } from './vectors';

export interface SimilarityContext {
  /** Named in messages ("Invalid embedding value in E1 (Semantic)"). */
  space?: SpaceId;
  warn?: (message: string) => void;
}

const defaultWarn = (m: string) => console.warn(m);
const label = (ctx?: SimilarityContext) => (ctx?.space ? spaceLabel(ctx.space) : 'vector');

function invalid(ctx?: SimilarityContext): number {
  (ctx?.warn ?? defaultWarn)(`Invalid embedding value in ${label(ctx)}`);
  return 0;
}

function divisionByZero(ctx: SimilarityContext | undefined, na: number, nb: number): number {
  (ctx?.warn ?? defaultWarn)(
    `Similarity computation failed: division by zero in ${label(ctx)} (magnitudes ${na}, ${nb})`,
  );
  return 0;
}

function allFinite(a: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return false;
  return true;
}

/** Cosine of two equal-length dense vectors. Length mismatch, NaN/Infinity or a zero vector -> 0. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>, ctx?: SimilarityContext): number {
  if (a.length !== b.length) {
    (ctx?.warn ?? defaultWarn)(`Dimension mismatch in ${label(ctx)}: ${a.length} vs ${b.length}`);
    return 0;
  }
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (!Number.isFinite(dot) || !Number.isFinite(na) || !Number.isFinite(nb)) return invalid(ctx);
  if (na === 0 || nb === 0) return divisionByZero(ctx, Math.sqrt(na), Math.sqrt(nb));
  const c = dot / Math.sqrt(na * nb);
  return Math.max(-1, Math.min(1, c));
}

export type TermWeights = SparseVector | ReadonlyMap<string | number, number> | Readonly<Record<string, number>>;

function isSparse(v: TermWeights): v is SparseVector {
  return (v as SparseVector).indices instanceof Uint32Array;
}

/**
 * Weighted (Ruzicka) Jaccard: sum(min(a_i, b_i)) / sum(max(a_i, b_i)). With 0/1 weights this is
 * the set Jaccard |A ∩ B| / |A ∪ B| ({a,b} vs {a,c} = 1/3: intersection 1, union 3). Weights
 * must be finite and >= 0; an empty vector on either side gives 0 (no overlap), not an error.
 */
export function jaccard(a: TermWeights, b: TermWeights, ctx?: SimilarityContext): number {
  if (isSparse(a) && isSparse(b)) return jaccardSparse(a, b, ctx);
  const ma = toMap(a);
  const mb = toMap(b);
  if (ma.size === 0 || mb.size === 0) return 0;
  let inter = 0;
  let union = 0;
  for (const [k, va] of ma) {
    const vb = mb.get(k) ?? 0;
    inter += Math.min(va, vb);
    union += Math.max(va, vb);
  }
  for (const [k, vb] of mb) if (!ma.has(k)) union += vb;
  if (![...ma.values(), ...mb.values()].every((v) => Number.isFinite(v) && v >= 0)) return invalid(ctx);
  return union > 0 ? inter / union : 0;
}

function toMap(v: TermWeights): Map<string | number, number> {
  if (isSparse(v)) {
    const m = new Map<number, number>();
    v.indices.forEach((k, i) => m.set(k, v.values[i]));
    return m;
  }
  if (v instanceof Map) return new Map(v);
  return new Map(Object.entries(v as Record<string, number>));
}

function jaccardSparse(a: SparseVector, b: SparseVector, ctx?: SimilarityContext): number {
  const na = a.indices.length;
  const nb = b.indices.length;
  if (na === 0 || nb === 0) return 0;
  if (!allFinite(a.values) || !allFinite(b.values)) return invalid(ctx);
  let i = 0;
  let j = 0;
  let inter = 0;
  let union = 0;
  while (i < na && j < nb) {
    const ka = a.indices[i];
    const kb = b.indices[j];
    if (ka === kb) {
      const va = a.values[i++];
      const vb = b.values[j++];
      inter += Math.min(va, vb);
      union += Math.max(va, vb);
    } else if (ka < kb) union += a.values[i++];
    else union += b.values[j++];
  }
  while (i < na) union += a.values[i++];
  while (j < nb) union += b.values[j++];
  if (inter < 0 || union < 0) return invalid(ctx);
  return union > 0 ? inter / union : 0;
}

/**
 * Cosine of two sparse vectors: sum(a_i b_i) / (|a| |b|). E7's function: unlike weighted
 * Jaccard it is not dragged down by every unshared term at full weight, so a near-copy or the
 * same pattern with renamed variables scores high while unrelated code stays low. Weights must
 * be finite; either side empty -> 0 (no overlap, not an error).
 */
export function cosineSparse(a: SparseVector, b: SparseVector, ctx?: SimilarityContext): number {
  const na = a.indices.length;
  const nb = b.indices.length;
  if (na === 0 || nb === 0) return 0;
  if (!allFinite(a.values) || !allFinite(b.values)) return invalid(ctx);
  let dot = 0;
  for (let i = 0, j = 0; i < na && j < nb; ) {
    const ka = a.indices[i];
    const kb = b.indices[j];
    if (ka === kb) dot += a.values[i++] * b.values[j++];
    else if (ka < kb) i++;
    else j++;
  }
  let sa = 0;
  let sb = 0;
  for (let i = 0; i < na; i++) sa += a.values[i] * a.values[i];
  for (let j = 0; j < nb; j++) sb += b.values[j] * b.values[j];
  if (sa === 0 || sb === 0) return divisionByZero(ctx, Math.sqrt(sa), Math.sqrt(sb));
  return Math.max(-1, Math.min(1, dot / Math.sqrt(sa * sb)));
}

/**
 * Weighted containment of the LIGHTER side (smaller total weight) in the other: the weight of
 * its terms that the other side also holds, over its total weight. Length-robust where Jaccard is not: a
 * four-word query whose terms all occur in a long memory scores near 1, not ~0.1. Symmetric.
 * Used for divergence in the lexical spaces (E6, E13), never for ranking (a one-word memory
 * would then match everything that contains its word). Either side empty -> 0.
 */
export function containmentSparse(a: SparseVector, b: SparseVector, ctx?: SimilarityContext): number {
  const na = a.indices.length;
  const nb = b.indices.length;
  if (na === 0 || nb === 0) return 0;
  if (!allFinite(a.values) || !allFinite(b.values)) return invalid(ctx);
  let sa = 0;
  let sb = 0;
  for (let i = 0; i < na; i++) sa += a.values[i];
  for (let j = 0; j < nb; j++) sb += b.values[j];
  const aLighter = sa <= sb;
  let inter = 0;
  for (let i = 0, j = 0; i < na && j < nb; ) {
    const ka = a.indices[i];
    const kb = b.indices[j];
    if (ka === kb) {
      // a term counts in full when the other side holds it at all (BM25 length normalisation gives a long text
      // smaller weights for the same term, which must not read as "partly absent")
      inter += aLighter ? a.values[i] : b.values[j];
      i++;
      j++;
    } else if (ka < kb) i++;
    else j++;
  }
  const denom = aLighter ? sa : sb;
  if (!(denom > 0)) return 0;
  return Math.max(0, Math.min(1, inter / denom));
}

/** Overlap coefficient of two strictly increasing id lists: |A ∩ B| / min(|A|, |B|). */
export function setContainment(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 || b.length === 0) return 0;
  let inter = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) {
      inter++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return inter / Math.min(a.length, b.length);
}

const POPCOUNT = (() => {
  const t = new Uint8Array(256);
  for (let i = 1; i < 256; i++) t[i] = (i & 1) + t[i >> 1];
  return t;
})();

/** 1 - (differing bits / total bits) over bit-packed vectors of equal length. Random pairs ~0.5. */
export function hamming(a: BinaryVector, b: BinaryVector, ctx?: SimilarityContext): number {
  if (a.length !== b.length) {
    (ctx?.warn ?? defaultWarn)(`Dimension mismatch in ${label(ctx)}: ${a.length * 8} vs ${b.length * 8} bits`);
    return 0;
  }
  if (a.length === 0) return divisionByZero(ctx, 0, 0);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff += POPCOUNT[(a[i] ^ b[i]) & 0xff];
  return 1 - diff / (a.length * 8);
}

function asMatrix(m: TokenMatrix | ArrayLike<number>[]): TokenMatrix {
  if ((m as TokenMatrix).data instanceof Float32Array) return m as TokenMatrix;
  const rows = m as ArrayLike<number>[];
  const dim = rows.length ? rows[0].length : 0;
  const data = new Float32Array(rows.length * dim);
  rows.forEach((r, i) => data.set(Array.from(r).slice(0, dim), i * dim));
  return { rows: rows.length, dim, data };
}

/**
 * ColBERT-style MaxSim: for each token of one sequence, the best cosine against any token of
 * the other; the mean of those maxima. Different token counts: the design says MaxSim takes "max
 * over shorter sequence", read here as: the outer loop runs over the SHORTER sequence (a on ties)
 * and the max over the longer, so the score is symmetric and a short query is not penalised for a
 * long memory's extra tokens. Either side empty -> 0.
 */
export function maxsim(
  a: TokenMatrix | ArrayLike<number>[],
  b: TokenMatrix | ArrayLike<number>[],
  ctx?: SimilarityContext,
): number {
  let q = asMatrix(a);
  let d = asMatrix(b);
  if (q.rows === 0 || d.rows === 0) return 0;
  if (q.dim !== d.dim) {
    (ctx?.warn ?? defaultWarn)(`Dimension mismatch in ${label(ctx)}: ${q.dim} vs ${d.dim}`);
    return 0;
  }
  if (!allFinite(q.data) || !allFinite(d.data)) return invalid(ctx);
  if (d.rows < q.rows) [q, d] = [d, q];
  const dim = q.dim;
  const dn = rowNorms(d);
  const qn = rowNorms(q);
  let sum = 0;
  let counted = 0;
  for (let i = 0; i < q.rows; i++) {
    if (qn[i] === 0) continue; // a zero token vector (unknown word) carries no evidence
    let best = -1;
    const qo = i * dim;
    for (let j = 0; j < d.rows; j++) {
      if (dn[j] === 0) continue;
      const doff = j * dim;
      let dot = 0;
      for (let k = 0; k < dim; k++) dot += q.data[qo + k] * d.data[doff + k];
      const c = dot / (qn[i] * dn[j]);
      if (c > best) best = c;
    }
    sum += Math.max(-1, Math.min(1, best));
    counted++;
  }
  return counted > 0 ? sum / counted : 0;
}

function rowNorms(m: TokenMatrix): Float32Array {
  const out = new Float32Array(m.rows);
  for (let i = 0; i < m.rows; i++) {
    let s = 0;
    for (let k = 0; k < m.dim; k++) {
      const v = m.data[i * m.dim + k];
      s += v * v;
    }
    out[i] = Math.sqrt(s);
  }
  return out;
}

/**
 * TransE plausibility of a triple: how well the relation r translates head h onto tail t.
 * max(0, 1 - ||h + r - t|| / (||h|| + ||t||)): 1 for a perfect translation, 0 when the miss
 * is as large as the two entity vectors together.
 */
export function transe(
  h: ArrayLike<number>,
  r: ArrayLike<number>,
  t: ArrayLike<number>,
  ctx?: SimilarityContext,
): number {
  if (h.length !== r.length || h.length !== t.length) {
    (ctx?.warn ?? defaultWarn)(`Dimension mismatch in ${label(ctx)}: ${h.length}, ${r.length}, ${t.length}`);
    return 0;
  }
  let miss = 0;
  let nh = 0;
  let nt = 0;
  for (let i = 0; i < h.length; i++) {
    const e = h[i] + r[i] - t[i];
    miss += e * e;
    nh += h[i] * h[i];
    nt += t[i] * t[i];
  }
  if (!Number.isFinite(miss) || !Number.isFinite(nh) || !Number.isFinite(nt)) return invalid(ctx);
  const denom = Math.sqrt(nh) + Math.sqrt(nt);
  if (denom === 0) return divisionByZero(ctx, Math.sqrt(nh), Math.sqrt(nt));
  return Math.max(0, 1 - Math.sqrt(miss) / denom);
}

/** Set Jaccard over two strictly increasing id lists. */
function setJaccard(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 || b.length === 0) return 0;
  let i = 0;
  let j = 0;
  let inter = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      inter++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return inter / (a.length + b.length - inter);
}

/**
 * E11: entity-set Jaccard, raised by relation evidence when both sides hold triples: for each
 * query triple (h_q, t_q), the best TransE plausibility transe(h_q, r_m, t_q) over the memory's
 * stored relations r_m = t_m - h_m ("does the memory hold a relation that carries the query's
 * subject to its object?"), averaged over query triples. Result = max(Jaccard, that average).
 */
export function entitySimilarity(q: EntityFeatures, m: EntityFeatures, ctx?: SimilarityContext): number {
  const jac = setJaccard(q.entities, m.entities);
  const tq = q.triples;
  const tm = m.triples;
  if (tq.count === 0 || tm.count === 0 || tq.dim !== tm.dim) return jac;
  const dim = tq.dim;
  const r = new Float32Array(dim);
  let total = 0;
  for (let i = 0; i < tq.count; i++) {
    const h = tq.heads.subarray(i * dim, (i + 1) * dim);
    const t = tq.tails.subarray(i * dim, (i + 1) * dim);
    let best = 0;
    for (let j = 0; j < tm.count; j++) {
      for (let k = 0; k < dim; k++) r[k] = tm.tails[j * dim + k] - tm.heads[j * dim + k];
      best = Math.max(best, transe(h, r, t, ctx));
    }
    total += best;
  }
  return Math.max(jac, total / tq.count);
}

/**
 * Dispatch on the registry's similarity kind for `space`. `undefined` on either side means
 * the space is absent for that item: the caller must treat the space as absent, not as 0,
 * so this returns `undefined` then.
 */
export function similarity(
  a: SpaceVector | undefined,
  b: SpaceVector | undefined,
  space: SpaceId,
  warn?: (message: string) => void,
): number | undefined {
  if (a === undefined || b === undefined) return undefined;
  const ctx: SimilarityContext = { space, warn };
  switch (SPACES[space].similarity) {
    case 'cosine':
      return cosine(a as Float32Array, b as Float32Array, ctx);
    case 'jaccard':
      return jaccard(a as SparseVector, b as SparseVector, ctx);
    case 'sparse-cosine':
      return cosineSparse(a as SparseVector, b as SparseVector, ctx);
    case 'hamming':
      return hamming(a as BinaryVector, b as BinaryVector, ctx);
    case 'maxsim':
      return maxsim(a as TokenMatrix, b as TokenMatrix, ctx);
    case 'transe':
      return entitySimilarity(a as EntityFeatures, b as EntityFeatures, ctx);
  }
}
