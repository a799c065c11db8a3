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
//
// Layout (issue 13, measured at 100k memories): every memory has a dense integer slot; the
// inverted lists are typed slot lists (SlotPostings, 4 bytes an entry instead of a Set of id
// strings), the scanned spaces' holders a SlotSet, and a query's candidates are accumulated in a
// per-slot scratch (Touched) and kept by a bounded heap (TopK), never a sort of every match.
// E6 / E13 skip the exact weighted Jaccard of a memory whose upper bound (from the query weight
// it shares and its own total weight, see jaccardBound) cannot enter the top k: the list of a
// common word holds thousands of memories. The features themselves are held by FeatureColumns
// (feature-columns.ts): per space a few large typed arrays with a range per slot, no object per
// memory; E12's rows interned in one dictionary (token-dict.ts), each distinct word vector once.

import {
  similarity,
  SPACE_IDS,
  type EntityFeatures,
  type SpaceFeatures,
  type SpaceSims,
  type SparseVector,
  type SpaceVector,
} from '../spaces';
import type { MemoryId, SpaceId } from '../types';
import { TopK } from '../topk';
import { grown, SlotPostings, SlotSet, Touched } from './slot-postings';
import { unitTokens, type UnitTokens } from './unit-tokens';
import { FeatureColumns } from './feature-columns';

export { unitMaxsim, unitTokens, type UnitTokens } from './unit-tokens';
import { DENSE_INDEXED, DenseSpaces } from './dense-spaces';
import { invalid, type PackReader, type PackWriter } from '../snapshot-pack';

export interface SpaceCandidateHit {
  id: MemoryId;
  space: SpaceId;
  score: number;
}

/** Spaces SpaceIndex.candidates searches, in output order. */
export const CANDIDATE_SPACES: readonly SpaceId[] = ['E5', 'E6', 'E7', 'E8', 'E9', 'E10', 'E11', 'E13'];
const INVERTED: readonly SpaceId[] = ['E6', 'E7', 'E11', 'E13'];
const SCANNED: readonly SpaceId[] = ['E5', 'E8', 'E9', 'E10'];
/** Scanned spaces every memory holds: their candidates cost a pass over the whole collection. */
export const FULL_SCAN_SPACES: readonly SpaceId[] = ['E8', 'E9'];


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
 * Upper bound of the weighted Jaccard sum(min) / sum(max) of two non-negative sparse vectors, from
 * `shared` = the query's weight on the terms the memory holds, `wq` / `wm` = the two total weights:
 * the intersection I <= min(shared, wm) and the union = wq + wm - I, increasing in I.
 */
export function jaccardBound(shared: number, wq: number, wm: number): number {
  const u = Math.min(shared, wm);
  return u / (wq + wm - u);
}

/** Total weight of a sparse vector, NaN when any value is negative or not finite (no bound then). */
function totalWeight(v: SparseVector): number {
  let w = 0;
  for (let i = 0; i < v.values.length; i++) {
    const x = v.values[i];
    if (!(x >= 0) || x === Infinity) return NaN;
    w += x;
  }
  return w;
}

const BOUNDED: readonly SpaceId[] = ['E6', 'E13'];
/** Float slack on the bound, so rounding can never drop a memory that ties the k-th. */
const SLACK = 1e-9;

export class SpaceIndex {
  private readonly dense = new DenseSpaces();
  private readonly slotOf = new Map<MemoryId, number>();
  private idOf: (MemoryId | undefined)[] = [];
  /** Every memory's features by slot, per space in a few large typed arrays (feature-columns.ts). */
  private readonly cols = new FeatureColumns();
  private readonly free: number[] = [];
  private readonly postings = new Map<SpaceId, SlotPostings>(INVERTED.map((s) => [s, new SlotPostings()]));
  /** Per bounded space (E6, E13): each slot's total weight (NaN: no bound). */
  private readonly weights = new Map<SpaceId, Float64Array>(BOUNDED.map((s) => [s, new Float64Array(16)]));
  /** Per scanned space: the slots holding it. */
  private readonly holders = new Map<SpaceId, SlotSet>(SCANNED.map((s) => [s, new SlotSet()]));
  private readonly touched = new Touched();
  private readonly e1?: (id: MemoryId) => Float32Array | undefined;

  /**
   * `e1`: where E1 lives when another index already holds it (the engine's hybrid matrix): E1 is
   * then not kept here a second time, and `features(id)` reads it from there (unit length; the
   * cosines that read it do not depend on the length). Issue 13: a second f32 copy of every E1.
   */
  constructor(opts: { e1?: (id: MemoryId) => Float32Array | undefined } = {}) {
    this.e1 = opts.e1;
  }

  get size(): number {
    return this.slotOf.size;
  }

  features(id: MemoryId): SpaceFeatures | undefined {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return undefined;
    // fresh arrays: the columns move when they change (a caller may hand them back to an upsert)
    const out = this.cols.copy(slot, SPACE_IDS);
    const v = this.e1?.(id);
    if (v) out.E1 = v.slice();
    return out;
  }

  has = (id: MemoryId): boolean => this.slotOf.has(id);

  /** The memory's E11 entity hashes (empty: none), as the entity graph takes them. */
  entitiesOf(id: MemoryId): number[] {
    const slot = this.slotOf.get(id);
    const keys = slot === undefined ? undefined : this.cols.keys(slot, 'E11');
    return keys ? Array.from(keys) : [];
  }

  ids(): MemoryId[] {
    return this.idOf.filter((id): id is MemoryId => id !== undefined);
  }

  /** Drops the feature columns' growth slack (after a load: the columns then hold their values exactly). */
  trim(): void {
    this.cols.trim();
    for (const p of this.postings.values()) p.trim();
  }

  /** Bytes of the feature columns (capacity; benches). */
  get featureBytes(): number {
    return this.cols.bytes;
  }

  /** Into an engine snapshot (src/core/snapshot-pack.ts): every structure as it is (E1 is not here: the hybrid's store packs it). */
  pack(w: PackWriter, name: string): void {
    w.putStrings(`${name}.ids`, this.idOf.map((id) => id ?? ''));
    w.put(`${name}.free`, Int32Array.from(this.free));
    this.cols.pack(w, `${name}.cols`);
    for (const [s, p] of this.postings) p.pack(w, `${name}.post.${s}`);
    for (const [s, a] of this.weights) w.put(`${name}.weights.${s}`, a.subarray(0, this.idOf.length));
    for (const [s, h] of this.holders) w.put(`${name}.holders.${s}`, h.slots());
    this.dense.pack(w, `${name}.dense`);
  }

  /** A packed index, checked structure by structure (SNAPSHOT_INVALID); `e1` as the constructor's. */
  static unpack(r: PackReader, name: string, opts: { e1?: (id: MemoryId) => Float32Array | undefined } = {}): SpaceIndex {
    const x = new SpaceIndex(opts);
    const idOf = r.strings(`${name}.ids`).map((id) => id || undefined);
    const n = idOf.length;
    idOf.forEach((id, slot) => id !== undefined && x.slotOf.set(id, slot));
    const free = Array.from(r.get(`${name}.free`, 'i32'));
    if (x.slotOf.size + free.length !== n || new Set(free).size !== free.length || free.some((s) => !(s >= 0 && s < n) || idOf[s] !== undefined)) throw invalid(`${name}: slots unaccounted for`);
    x.idOf = idOf;
    x.free.push(...free);
    const live = (slot: number) => slot < n && idOf[slot] !== undefined;
    Object.assign(x, { cols: FeatureColumns.unpack(r, `${name}.cols`, live), dense: DenseSpaces.unpack(r, `${name}.dense`, (id) => x.slotOf.has(id)) });
    for (const s of INVERTED) x.postings.set(s, SlotPostings.unpack(r, `${name}.post.${s}`, n));
    for (const s of BOUNDED) x.weights.set(s, r.get(`${name}.weights.${s}`, 'f64', n).slice());
    for (const s of SCANNED) x.holders.set(s, SlotSet.unpack(r, `${name}.holders.${s}`, n));
    return x;
  }

  upsert(id: MemoryId, features: SpaceFeatures): void {
    if (typeof id !== 'string' || id.length === 0) throw new TypeError('SpaceIndex.upsert: a memory id must be a non-empty string');
    this.remove(id);
    const slot = this.free.pop() ?? this.idOf.length;
    this.slotOf.set(id, slot);
    this.idOf[slot] = id;
    let f = features;
    if (this.e1 && f.E1) {
      const { E1: _held, ...rest } = f;
      f = rest;
    }
    this.cols.set(slot, f);
    for (const s of INVERTED) {
      const keys = keysOf(s, f);
      if (!keys) continue;
      const p = this.postings.get(s)!;
      for (const k of keys) p.add(k, slot);
    }
    for (const s of BOUNDED) {
      const w = grown(this.weights.get(s)!, slot + 1, (n) => new Float64Array(n));
      this.weights.set(s, w);
      const v = f[s] as SparseVector | undefined;
      w[slot] = v ? totalWeight(v) : NaN;
    }
    for (const s of SCANNED) if (f[s] !== undefined) this.holders.get(s)!.add(slot);
    this.dense.upsert(id, features);
  }

  remove(id: MemoryId): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.idOf[slot] = undefined;
    for (const s of INVERTED) {
      const keys = this.cols.keys(slot, s);
      if (!keys) continue;
      const p = this.postings.get(s)!;
      for (const k of keys) p.delete(k, slot);
    }
    this.cols.delete(slot);
    for (const s of SCANNED) this.holders.get(s)!.delete(slot);
    this.free.push(slot);
    this.dense.remove(id);
  }

  /**
   * The similarity of `query` to memory `id` in each of `spaces` both have (absent spaces left
   * out), as spaceSimilarities — E12 through the pre-normalised tokens (pass the query's
   * `unitTokens` as `queryTokens` to normalise it once per query).
   */
  similarities(query: SpaceFeatures, id: MemoryId, spaces: readonly SpaceId[], queryTokens?: UnitTokens, warn: (m: string) => void = () => {}): SpaceSims {
    const slot = this.slotOf.get(id);
    const out: SpaceSims = {};
    if (slot === undefined) return out;
    for (const s of spaces) {
      if (s === 'E12') {
        if (!query.E12 || !this.cols.hasTokens(slot)) continue;
        out.E12 = this.cols.maxsim(queryTokens ?? unitTokens(query.E12), slot);
        continue;
      }
      const q = query[s] as SpaceVector | undefined;
      if (q === undefined) continue;
      const v = similarity(q, this.cols.get(slot, s), s, warn);
      if (v !== undefined) out[s] = v;
    }
    return out;
  }

  /**
   * Per space, the k memories most similar to `query` in that space (score = the space's exact
   * similarity, > 0 only; best first, ties by id). One entry per (id, space): an id found by
   * three spaces appears three times.
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
      const heap = new TopK<number>(k);
      const offer = (slot: number) => {
        const id = this.idOf[slot]!;
        if (!accept(id)) return;
        const score = similarity(qv, this.cols.get(slot, s), s, warn);
        if (score !== undefined && score > 0 && score >= heap.threshold()) heap.push(id, score, slot);
      };
      if (INVERTED.includes(s)) this.inverted(s, query, heap, offer);
      else {
        // E5 / E10: the int8 store's certified short list; else every memory holding the space
        const pool = DENSE_INDEXED.includes(s) ? this.dense.pool(s, qv, k, accept) : undefined;
        if (pool) {
          for (const id of pool) {
            const slot = this.slotOf.get(id);
            if (slot !== undefined) offer(slot);
          }
        } else for (const slot of this.holders.get(s)!.slots()) offer(slot);
      }
      for (const e of heap.sorted()) out.push({ id: e.id, space: s, score: e.score });
    }
    return out;
  }

  /** The memories sharing a key with the query, each offered once (E6 / E13: unless its bound cannot enter the heap). */
  private inverted(s: SpaceId, query: SpaceFeatures, heap: TopK<number>, offer: (slot: number) => void): void {
    const keys = keysOf(s, query);
    if (!keys) return;
    const p = this.postings.get(s)!;
    const t = this.touched;
    const qv = BOUNDED.includes(s) ? (query[s] as SparseVector) : undefined;
    const wq = qv ? totalWeight(qv) : NaN;
    const bounded = !Number.isNaN(wq);
    for (let i = 0; i < keys.length; i++) {
      const list = p.get(keys[i]);
      const w = bounded ? qv!.values[i] : 0;
      for (let j = 0; j < list.length; j++) t.add(list[j], w);
    }
    const weights = this.weights.get(s);
    try {
      for (let i = 0; i < t.count; i++) {
        const slot = t.list[i];
        if (bounded && jaccardBound(t.acc[slot], wq, weights![slot]) + SLACK < heap.threshold()) continue;
        offer(slot);
      }
    } finally {
      t.reset();
    }
  }
}
