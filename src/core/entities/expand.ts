// One-hop entity expansion (the search-options design's `expandHops: 1`): the memories retrieved by
// the first pass are seeds; the memories sharing a canonical entity with them form one more
// candidate list. Pure: the memory-entity graph is read through EntityLookup (the engine worker
// implements it over graphology; tests and the eval may use entityLookupFromMap).

import type { MemoryId } from '../types';

/** The memory-entity graph, read-only. Entities are E11 hashes (entityHash). */
export interface EntityLookup {
  entitiesOf(id: MemoryId): readonly number[];
  membersOf(entity: number): readonly MemoryId[];
  /** Memories in the graph (the idf's N). */
  memoryCount(): number;
}

export interface ExpandOptions {
  /** Seeds used, best first (default 10). */
  maxSeeds?: number;
  /**
   * An entity mentioned by more memories than this share of the collection (default 0.05, at
   * least `minHubSize`) is a hub (a speaker's own name in every turn): it links everything, so it
   * expands nothing.
   */
  hubShare?: number;
  minHubSize?: number;
  /** Length of the returned list (default 50). */
  limit?: number;
  /** Which memories may be returned (the status gate); default all. */
  accept?: (id: MemoryId) => boolean;
}

export interface ExpansionHit {
  id: MemoryId;
  score: number;
  /** Seed -> shared entities, for the explanation and the graph's expansion edges. */
  via: { seed: MemoryId; entities: number[] }[];
}

/**
 * score(m) = sum over seeds s (rank r, 0-based) and entities e shared by s and m of
 * idf(e) / (r + 1), idf(e) = ln(1 + N / df(e)). Seeds themselves are not returned. Ordered by
 * score desc, id asc.
 */
export function expandByEntities(lookup: EntityLookup, seeds: readonly MemoryId[], opts: ExpandOptions = {}): ExpansionHit[] {
  const maxSeeds = opts.maxSeeds ?? 10;
  const n = lookup.memoryCount();
  if (n === 0 || maxSeeds <= 0) return [];
  const hub = Math.max(opts.minHubSize ?? 20, Math.floor((opts.hubShare ?? 0.05) * n));
  const seedSet = new Set(seeds.slice(0, maxSeeds));
  const acc = new Map<MemoryId, ExpansionHit>();
  seeds.slice(0, maxSeeds).forEach((seed, rank) => {
    for (const e of lookup.entitiesOf(seed)) {
      const members = lookup.membersOf(e);
      if (members.length <= 1 || members.length > hub) continue;
      const w = Math.log(1 + n / members.length) / (rank + 1);
      for (const m of members) {
        if (seedSet.has(m) || (opts.accept && !opts.accept(m))) continue;
        let hit = acc.get(m);
        if (!hit) acc.set(m, (hit = { id: m, score: 0, via: [] }));
        hit.score += w;
        const v = hit.via.find((x) => x.seed === seed);
        if (v) v.entities.push(e);
        else hit.via.push({ seed, entities: [e] });
      }
    }
  });
  return [...acc.values()]
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, opts.limit ?? 50);
}

/** An EntityLookup over plain maps (memory -> entity hashes). */
export function entityLookupFromMap(entitiesByMemory: ReadonlyMap<MemoryId, readonly number[]>): EntityLookup {
  const members = new Map<number, MemoryId[]>();
  for (const [id, es] of [...entitiesByMemory].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    for (const e of new Set(es)) {
      let list = members.get(e);
      if (!list) members.set(e, (list = []));
      list.push(id);
    }
  }
  return {
    entitiesOf: (id) => entitiesByMemory.get(id) ?? [],
    membersOf: (e) => members.get(e) ?? [],
    memoryCount: () => entitiesByMemory.size,
  };
}
