// The memory-entity graph of the engine worker, on graphology: one node per memory ("m:<id>")
// and per canonical entity ("e:<hash>", the E11 hash of its canonical key, src/core/entities),
// an undirected edge for each mention. It implements the core's EntityLookup (the one-hop
// expansion of expandHops 1 reads it) and is kept in step with the engine's upsert / remove.
// Louvain communities over this graph: workers/communities.ts.
//
// After a start from the engine snapshot the graph is filled from the space index's E11 column
// (`EntityGraph.deferred`): in the background in steps (`fillFor`), and whatever is left at once
// by the first read (issue 13: the whole build took 1-3 s at 100k on the first one-hop query).
// Writes during the fill apply to the graph as it is; the fill reads each remaining memory from the
// index as it is then (every graph write follows the index's), so the result is the same.

import Graph from 'graphology';
import type { EntityLookup } from '../src/core/entities';
import type { SpaceFeatures } from '../src/core/spaces';
import type { MemoryId } from '../src/core/types';

/** What a deferred graph is filled from (the space index). */
export interface EntitySource {
  ids(): MemoryId[];
  has(id: MemoryId): boolean;
  entitiesOf(id: MemoryId): readonly number[];
}

const mNode = (id: MemoryId) => `m:${id}`;
const eNode = (hash: number) => `e:${hash >>> 0}`;

export class EntityGraph implements EntityLookup {
  private readonly g = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
  /** A deferred graph's memories still to read from its source (`next` onwards). */
  private pending: { source: EntitySource; ids: MemoryId[]; next: number } | null = null;

  /** A graph to be filled from `source` (its memories as they are when each is read): `fillFor` in steps, or all at once by the first read. */
  static deferred(source: EntitySource): EntityGraph {
    const g = new EntityGraph();
    g.pending = { source, ids: source.ids(), next: 0 };
    return g;
  }

  /** Fills a deferred graph for about `budgetMs` (checked every 32 memories); true when it is complete. */
  fillFor(budgetMs: number): boolean {
    const p = this.pending;
    if (!p) return true;
    const t0 = performance.now();
    while (p.next < p.ids.length) {
      const end = Math.min(p.ids.length, p.next + 32);
      for (; p.next < end; p.next++) {
        const id = p.ids[p.next];
        if (p.source.has(id)) this.setMemory(id, p.source.entitiesOf(id));
      }
      if (performance.now() - t0 >= budgetMs) break;
    }
    if (p.next < p.ids.length) return false;
    this.pending = null;
    return true;
  }

  /** True while a deferred graph is not filled yet. */
  get filling(): boolean {
    return this.pending !== null;
  }

  /** The graphology graph (a deferred one filled first). */
  get graph(): Graph {
    this.fillFor(Infinity);
    return this.g;
  }

  /** Memory nodes in the graph (memories with at least one entity). */
  private memories = 0;
  /** Memories without entities: counted, never a node. */
  private readonly plain = new Set<MemoryId>();
  private readonly members = new Map<number, MemoryId[]>();

  /** Sets the memory's entities (E11 hashes; replaces the previous ones). */
  setMemory(id: MemoryId, entities: readonly number[]): void {
    this.remove(id);
    // A memory without entities has no edge to walk: it is counted (the idf's N), not a graph node
    // (issue 13: a graphology node per memory was hundreds of bytes each at 100k memories).
    if (entities.length === 0) {
      this.plain.add(id);
      return;
    }
    const key = mNode(id);
    this.g.addNode(key, { kind: 'memory', id });
    this.memories++;
    for (const e of new Set(entities)) {
      const ek = eNode(e);
      if (!this.g.hasNode(ek)) this.g.addNode(ek, { kind: 'entity', hash: e >>> 0 });
      this.g.addEdge(key, ek);
      this.members.delete(e >>> 0);
    }
  }

  /** Sets the memory's entities from its features (E11); no E11 = no entity. */
  setFromFeatures(id: MemoryId, features: SpaceFeatures): void {
    this.setMemory(id, features.E11 ? Array.from(features.E11.entities) : []);
  }

  remove(id: MemoryId): void {
    if (this.plain.delete(id)) return;
    const key = mNode(id);
    if (!this.g.hasNode(key)) return;
    for (const ek of this.g.neighbors(key)) {
      this.members.delete(this.g.getNodeAttribute(ek, 'hash') as number);
      if (this.g.degree(ek) === 1) this.g.dropNode(ek);
    }
    this.g.dropNode(key);
    this.memories--;
  }

  clear(): void {
    this.pending = null;
    this.g.clear();
    this.plain.clear();
    this.members.clear();
    this.memories = 0;
  }

  entitiesOf(id: MemoryId): readonly number[] {
    this.fillFor(Infinity);
    const key = mNode(id);
    if (!this.g.hasNode(key)) return [];
    return this.g.neighbors(key).map((ek) => this.g.getNodeAttribute(ek, 'hash') as number);
  }

  /** Memories mentioning the entity, id ascending (cached until one of them changes). */
  membersOf(entity: number): readonly MemoryId[] {
    this.fillFor(Infinity);
    const hash = entity >>> 0;
    const cached = this.members.get(hash);
    if (cached) return cached;
    const ek = eNode(hash);
    const list = this.g.hasNode(ek) ? this.g.neighbors(ek).map((mk) => this.g.getNodeAttribute(mk, 'id') as MemoryId).sort() : [];
    this.members.set(hash, list);
    return list;
  }

  memoryCount(): number {
    this.fillFor(Infinity);
    return this.memories + this.plain.size;
  }

  entityCount(): number {
    this.fillFor(Infinity);
    return this.g.order - this.memories;
  }
}
