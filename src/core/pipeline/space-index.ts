// SpaceIndex: every memory's features in the non-dense spaces, and candidate generation from
// them, so a memory that only one space can see (same code identifiers, same named entity, same
// cause) reaches the ranking even when BM25 and the E1 scan both miss it.
//
// Candidates per space (each returns its own top k by the space's exact similarity):
//   E6 / E13 / E7 (sparse terms): inverted lists term -> ids; the exact similarity (weighted
//     Jaccard for E6 / E13, sparse cosine for E7) is computed only for ids sharing a term.
//   E11 (entities): inverted list entity -> ids; exact entitySimilarity for those ids.
//   E5 / E10 (dense, present on few memories): an int8 SIMD pass over their DenseStore (issue 13),
//     then the exact similarity for its certified short list only (see DenseSpaces below).
//   E8 (5-d emotion) / E9 (4096-bit HDC): a cheap scan of every memory.
//   E12 (token MaxSim) is too dear to scan (tokens x tokens x dim per memory): it only scores
//     candidates found by the others. E1 is the hybrid's dense scan; E2-E4 are temporal and
//     never find anything (they encode when, not what).
// Ties break by id ascending, so the output is deterministic.

import {
  similarity,
  type EntityFeatures,
  type SpaceFeatures,
  type SpaceSims,
  type SparseVector,
  type SpaceVector,
  type TokenMatrix,
} from '../spaces';
import type { MemoryId, SpaceId } from '../types';
import { DenseStore } from '../vectors';

export interface SpaceCandidateHit {
  id: MemoryId;
  space: SpaceId;
  score: number;
}

/** Spaces SpaceIndex.candidates searches, in output order. */
export const CANDIDATE_SPACES: readonly SpaceId[] = ['E5', 'E6', 'E7', 'E8', 'E9', 'E10', 'E11', 'E13'];
const INVERTED: readonly SpaceId[] = ['E6', 'E7', 'E11', 'E13'];
const SCANNED: readonly SpaceId[] = ['E5', 'E8', 'E9', 'E10'];

type Postings = Map<number, Set<MemoryId>>;

function keysOf(space: SpaceId, f: SpaceFeatures): Uint32Array | undefined {
  const v = f[space];
  if (v === undefined) return undefined;
  if (space === 'E11') return (v as EntityFeatures).entities;
  return (v as SparseVector).indices;
}

export interface SpaceCandidateOptions {
  /** Only these spaces (default CANDIDATE_SPACES). */
  spaces?: readonly SpaceId[];
  /** Skip ids for which this returns false (status gates). */
  accept?: (id: MemoryId) => boolean;
  warn?: (message: string) => void;
}

/**
 * E12 token rows normalised once (at upsert for memories, once per query), so MaxSim in the
 * ranking is a plain dot product per token pair: the same value as the registry's maxsim (mean
 * over the shorter side's non-zero tokens of the best cosine against the other side, clamped to
 * [-1, 1]; either side empty -> 0; any non-finite value -> 0), to float rounding.
 */
export interface UnitTokens {
  rows: number;
  dim: number;
  /** rows x dim, each non-zero row unit length. */
  data: Float32Array;
  /** 1 where the token row is non-zero. */
  live: Uint8Array;
  /** false when the matrix held NaN / Infinity (similarity 0, as maxsim). */
  finite: boolean;
}

export function unitTokens(m: TokenMatrix): UnitTokens {
  const { rows, dim } = m;
  const data = new Float32Array(rows * dim);
  const live = new Uint8Array(rows);
  let finite = true;
  for (let r = 0; r < rows; r++) {
    let ss = 0;
    for (let k = 0; k < dim; k++) {
      const x = m.data[r * dim + k];
      if (!Number.isFinite(x)) finite = false;
      ss += x * x;
    }
    if (ss > 0 && Number.isFinite(ss)) {
      const inv = 1 / Math.sqrt(ss);
      for (let k = 0; k < dim; k++) data[r * dim + k] = m.data[r * dim + k] * inv;
      live[r] = 1;
    }
  }
  return { rows, dim, data, live, finite };
}

export function unitMaxsim(a: UnitTokens, b: UnitTokens): number {
  if (a.rows === 0 || b.rows === 0 || a.dim !== b.dim) return 0;
  if (!a.finite || !b.finite) return 0;
  const [q, d] = b.rows < a.rows ? [b, a] : [a, b];
  const dim = q.dim;
  let sum = 0;
  let counted = 0;
  for (let i = 0; i < q.rows; i++) {
    if (!q.live[i]) continue;
    let best = -1;
    const qo = i * dim;
    for (let j = 0; j < d.rows; j++) {
      if (!d.live[j]) continue;
      const doff = j * dim;
      let dot = 0;
      for (let k = 0; k < dim; k++) dot += q.data[qo + k] * d.data[doff + k];
      if (dot > best) best = dot;
    }
    sum += Math.max(-1, Math.min(1, best));
    counted++;
  }
  return counted > 0 ? sum / counted : 0;
}

/** Dense spaces whose candidates come from an int8 DenseStore (src/core/vectors). */
const DENSE_INDEXED: readonly SpaceId[] = ['E5', 'E10'];

/**
 * The dense spaces' int8 prefilter (issue 13). The stores hold int8 codes only (the exact values
 * stay in `feats`), one per dimension; a vector no store can hold (NaN, all zero) is kept in `odd`,
 * and it and the vectors of another dimension than the query's are always scored the old way, so
 * their warnings still come. The store's short list for the best k is
 * certified (src/core/vectors/README.md) to hold every memory that can be in the exact top k, and
 * the exact similarity then ranks the short list plus `odd`: the same candidates as a full scan.
 */
class DenseSpaces {
  /** Per space, one store per dimension met (normally one: the encoder's). */
  private readonly stores = new Map<SpaceId, Map<number, DenseStore>>(DENSE_INDEXED.map((sp) => [sp, new Map()]));
  private readonly odd = new Map<SpaceId, Set<MemoryId>>(DENSE_INDEXED.map((sp) => [sp, new Set()]));

  upsert(id: MemoryId, f: SpaceFeatures): void {
    for (const sp of DENSE_INDEXED) {
      const v = f[sp];
      if (v === undefined) continue;
      if (!(v instanceof Float32Array) || v.length === 0 || !v.every(Number.isFinite) || !v.some((x) => x !== 0)) {
        this.odd.get(sp)!.add(id);
        continue;
      }
      const byDim = this.stores.get(sp)!;
      let store = byDim.get(v.length);
      if (!store) byDim.set(v.length, (store = new DenseStore({ dim: v.length, encoder: sp, keepFloat: false })));
      store.set(id, v);
    }
  }

  remove(id: MemoryId): void {
    for (const byDim of this.stores.values()) for (const store of byDim.values()) store.remove(id);
    for (const set of this.odd.values()) set.delete(id);
  }

  /** The ids to score exactly for the best k of `space`, or undefined (scan every holder). */
  pool(space: SpaceId, q: SpaceVector, k: number, accept: (id: MemoryId) => boolean): MemoryId[] | undefined {
    const byDim = this.stores.get(space);
    const store = byDim && q instanceof Float32Array ? byDim.get(q.length) : undefined;
    if (!byDim || !store || !(q as Float32Array).every(Number.isFinite)) return undefined;
    const short = store.shortlist(store.prepare(q as Float32Array), k, { accept: (slot) => accept(store.idAt(slot)) });
    const ids = Array.from(short, (slot) => store.idAt(slot));
    for (const id of this.odd.get(space)!) ids.push(id);
    // vectors of another dimension: scored the old way (their mismatch warning still comes)
    for (const other of byDim.values()) if (other !== store) ids.push(...other.idList());
    return ids;
  }
}

export class SpaceIndex {
  private readonly dense = new DenseSpaces();
  private readonly feats = new Map<MemoryId, SpaceFeatures>();
  private readonly tokens = new Map<MemoryId, UnitTokens>();
  private readonly postings = new Map<SpaceId, Postings>(INVERTED.map((s) => [s, new Map()]));
  /** Per scanned space: the ids holding it. */
  private readonly holders = new Map<SpaceId, Set<MemoryId>>(SCANNED.map((s) => [s, new Set()]));

  get size(): number {
    return this.feats.size;
  }

  features(id: MemoryId): SpaceFeatures | undefined {
    return this.feats.get(id);
  }

  ids(): MemoryId[] {
    return [...this.feats.keys()];
  }

  upsert(id: MemoryId, features: SpaceFeatures): void {
    if (typeof id !== 'string' || id.length === 0) throw new TypeError('SpaceIndex.upsert: a memory id must be a non-empty string');
    this.remove(id);
    this.feats.set(id, features);
    if (features.E12) this.tokens.set(id, unitTokens(features.E12));
    for (const s of INVERTED) {
      const keys = keysOf(s, features);
      if (!keys) continue;
      const p = this.postings.get(s)!;
      for (const k of keys) {
        let set = p.get(k);
        if (!set) p.set(k, (set = new Set()));
        set.add(id);
      }
    }
    for (const s of SCANNED) if (features[s] !== undefined) this.holders.get(s)!.add(id);
    this.dense.upsert(id, features);
  }

  remove(id: MemoryId): void {
    const old = this.feats.get(id);
    if (!old) return;
    this.feats.delete(id);
    this.tokens.delete(id);
    for (const s of INVERTED) {
      const keys = keysOf(s, old);
      if (!keys) continue;
      const p = this.postings.get(s)!;
      for (const k of keys) {
        const set = p.get(k);
        if (!set) continue;
        set.delete(id);
        if (set.size === 0) p.delete(k);
      }
    }
    for (const s of SCANNED) this.holders.get(s)!.delete(id);
    this.dense.remove(id);
  }

  /**
   * The similarity of `query` to memory `id` in each of `spaces` both have (absent spaces left
   * out), as spaceSimilarities — E12 through the pre-normalised tokens (pass the query's
   * `unitTokens` as `queryTokens` to normalise it once per query).
   */
  similarities(query: SpaceFeatures, id: MemoryId, spaces: readonly SpaceId[], queryTokens?: UnitTokens, warn: (m: string) => void = () => {}): SpaceSims {
    const f = this.feats.get(id);
    const out: SpaceSims = {};
    if (!f) return out;
    for (const s of spaces) {
      if (s === 'E12') {
        const mt = this.tokens.get(id);
        if (!query.E12 || !mt) continue;
        out.E12 = unitMaxsim(queryTokens ?? unitTokens(query.E12), mt);
        continue;
      }
      const v = similarity(query[s] as SpaceVector | undefined, f[s] as SpaceVector | undefined, s, warn);
      if (v !== undefined) out[s] = v;
    }
    return out;
  }

  /**
   * Per space, the k memories most similar to `query` in that space (score = the space's exact
   * similarity, > 0 only). One entry per (id, space): an id found by three spaces appears three times.
   */
  candidates(query: SpaceFeatures, k: number, opts: SpaceCandidateOptions = {}): SpaceCandidateHit[] {
    if (!Number.isInteger(k) || k < 0) throw new RangeError(`SpaceIndex.candidates: k must be a whole number >= 0 (got ${k})`);
    if (k === 0) return [];
    const out: SpaceCandidateHit[] = [];
    const warn = opts.warn ?? (() => {});
    const accept = opts.accept ?? (() => true);
    for (const s of opts.spaces ?? CANDIDATE_SPACES) {
      if (!CANDIDATE_SPACES.includes(s)) continue;
      const qv = query[s] as SpaceVector | undefined;
      if (qv === undefined) continue;
      let pool: Iterable<MemoryId>;
      if (INVERTED.includes(s)) {
        const ids = new Set<MemoryId>();
        const p = this.postings.get(s)!;
        for (const key of keysOf(s, query) ?? []) for (const id of p.get(key) ?? []) ids.add(id);
        pool = ids;
      } else pool = (DENSE_INDEXED.includes(s) ? this.dense.pool(s, qv, k, accept) : undefined) ?? this.holders.get(s)!; // scanned: every memory holding the space
      const scored: SpaceCandidateHit[] = [];
      for (const id of pool) {
        if (!accept(id)) continue;
        const score = similarity(qv, this.feats.get(id)![s] as SpaceVector | undefined, s, warn);
        if (score !== undefined && score > 0) scored.push({ id, space: s, score });
      }
      scored.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      for (let i = 0; i < Math.min(k, scored.length); i++) out.push(scored[i]);
    }
    return out;
  }
}
