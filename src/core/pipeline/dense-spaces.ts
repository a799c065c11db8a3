// The dense spaces' int8 prefilter of the space index (space-index.ts, issue 13), and its packing
// into an engine snapshot (src/core/snapshot-pack.ts).

import type { SpaceVector, SpaceFeatures } from '../spaces';
import type { MemoryId, SpaceId } from '../types';
import { DenseStore } from '../vectors';
import { packDenseStore, unpackDenseStore } from '../vectors/store-pack';
import { invalid, type PackReader, type PackWriter } from '../snapshot-pack';

/** Dense spaces whose candidates come from an int8 DenseStore (src/core/vectors). */
export const DENSE_INDEXED: readonly SpaceId[] = ['E5', 'E10'];

/**
 * The dense spaces' int8 prefilter (issue 13). The stores hold int8 codes only (the exact values
 * stay in `feats`), one per dimension; a vector no store can hold (NaN, all zero) is kept in `odd`,
 * and it and the vectors of another dimension than the query's are always scored the old way, so
 * their warnings still come. The store's short list for the best k is
 * certified (src/core/vectors/README.md) to hold every memory that can be in the exact top k, and
 * the exact similarity then ranks the short list plus `odd`: the same candidates as a full scan.
 */
export class DenseSpaces {
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

  pack(w: PackWriter, name: string): void {
    for (const sp of DENSE_INDEXED) {
      const byDim = this.stores.get(sp)!;
      w.meta[`${name}.${sp}.dims`] = [...byDim.keys()].join(',');
      for (const [dim, store] of byDim) packDenseStore(w, `${name}.${sp}.${dim}`, store);
      w.putStrings(`${name}.${sp}.odd`, [...this.odd.get(sp)!]);
    }
  }

  /** Packed stores, checked (store-pack.ts), each of its space, its dimension and int8 only; their ids must be `held`. */
  static unpack(r: PackReader, name: string, held: (id: MemoryId) => boolean): DenseSpaces {
    const d = new DenseSpaces();
    for (const sp of DENSE_INDEXED) {
      for (const dim of r.str(`${name}.${sp}.dims`).split(',').filter(Boolean).map(Number)) {
        const store = unpackDenseStore(r, `${name}.${sp}.${dim}`);
        if (store.encoder !== sp || store.dim !== dim || store.keepFloat || store.idList().some((id) => !held(id))) throw invalid(`${name}: a bad ${sp} store`);
        d.stores.get(sp)!.set(dim, store);
      }
      for (const id of r.strings(`${name}.${sp}.odd`)) {
        if (!held(id)) throw invalid(`${name}: a bad ${sp} id`);
        d.odd.get(sp)!.add(id);
      }
    }
    return d;
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
