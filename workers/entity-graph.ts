// The memory-entity graph of the engine worker, on graphology: one node per memory ("m:<id>")
// and per canonical entity ("e:<hash>", the E11 hash of its canonical key, src/core/entities),
// an undirected edge for each mention. It implements the core's EntityLookup (the one-hop
// expansion of expandHops 1 reads it) and is kept in step with the engine's upsert / remove.
// Louvain communities over this graph (graphology-communities-louvain) are the next step
// (issue 11, deep search escalation).

import Graph from 'graphology';
import type { EntityLookup } from '../src/core/entities';
import type { SpaceFeatures } from '../src/core/spaces';
import type { MemoryId } from '../src/core/types';

const mNode = (id: MemoryId) => `m:${id}`;
const eNode = (hash: number) => `e:${hash >>> 0}`;

export class EntityGraph implements EntityLookup {
  readonly graph = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
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
    this.graph.addNode(key, { kind: 'memory', id });
    this.memories++;
    for (const e of new Set(entities)) {
      const ek = eNode(e);
      if (!this.graph.hasNode(ek)) this.graph.addNode(ek, { kind: 'entity', hash: e >>> 0 });
      this.graph.addEdge(key, ek);
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
    if (!this.graph.hasNode(key)) return;
    for (const ek of this.graph.neighbors(key)) {
      this.members.delete(this.graph.getNodeAttribute(ek, 'hash') as number);
      if (this.graph.degree(ek) === 1) this.graph.dropNode(ek);
    }
    this.graph.dropNode(key);
    this.memories--;
  }

  clear(): void {
    this.graph.clear();
    this.plain.clear();
    this.members.clear();
    this.memories = 0;
  }

  entitiesOf(id: MemoryId): readonly number[] {
    const key = mNode(id);
    if (!this.graph.hasNode(key)) return [];
    return this.graph.neighbors(key).map((ek) => this.graph.getNodeAttribute(ek, 'hash') as number);
  }

  /** Memories mentioning the entity, id ascending (cached until one of them changes). */
  membersOf(entity: number): readonly MemoryId[] {
    const hash = entity >>> 0;
    const cached = this.members.get(hash);
    if (cached) return cached;
    const ek = eNode(hash);
    const list = this.graph.hasNode(ek) ? this.graph.neighbors(ek).map((mk) => this.graph.getNodeAttribute(mk, 'id') as MemoryId).sort() : [];
    this.members.set(hash, list);
    return list;
  }

  memoryCount(): number {
    return this.memories + this.plain.size;
  }

  entityCount(): number {
    return this.graph.order - this.memories;
  }
}
