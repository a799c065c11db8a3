// SpaceIndex: every memory's features in the non-dense spaces, and candidate generation from
// them, so a memory that only one space can see (same code identifiers, same named entity, same
// cause) reaches the ranking even when BM25 and the E1 scan both miss it.
//
// Candidates per space (each returns its own top k by the space's exact similarity):
//   E6 / E13 / E7 (sparse terms): inverted lists term -> ids; the exact weighted Jaccard is
//     computed only for ids sharing at least one term with the query.
//   E11 (entities): inverted list entity -> ids; exact entitySimilarity for those ids.
//   E5 / E10 (dense, present on few memories): a scan of the memories that have them.
//   E8 (5-d emotion) / E9 (4096-bit HDC): a cheap scan of every memory.
//   E12 (token MaxSim) is too dear to scan (tokens x tokens x dim per memory): it only scores
//     candidates found by the others. E1 is the hybrid's dense scan; E2-E4 are temporal and
//     never find anything (they encode when, not what).
// Ties break by id ascending, so the output is deterministic.

import { similarity, type SpaceFeatures, type SparseVector, type SpaceVector, type EntityFeatures } from '../spaces';
import type { MemoryId, SpaceId } from '../types';

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

export class SpaceIndex {
  private readonly feats = new Map<MemoryId, SpaceFeatures>();
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
  }

  remove(id: MemoryId): void {
    const old = this.feats.get(id);
    if (!old) return;
    this.feats.delete(id);
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
      } else if (s === 'E5' || s === 'E10') pool = this.holders.get(s)!;
      else pool = this.holders.get(s)!;
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
