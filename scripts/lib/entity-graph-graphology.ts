// The engine's entity graph as it was built on graphology nodes and edges before issue 13 (node
// attributes { kind, id } / { kind, hash }, graphology's own edge keys), kept as the reference its
// tests compare against (workers/entity-graph.test.ts: the same nodes, edges and answers) and a
// column of scripts/bench/entity-fill.ts. workers/entity-graph.ts holds the same graph in
// graphology again (issue 11), without the attributes. Not used by the app.

import Graph from 'graphology';
import type { EntityLookup } from '../../src/core/entities';
import type { SpaceFeatures } from '../../src/core/spaces';
import type { MemoryId } from '../../src/core/types';

const mNode = (id: MemoryId) => `m:${id}`;
const eNode = (hash: number) => `e:${hash >>> 0}`;

export class GraphologyEntityGraph implements EntityLookup {
  private readonly g = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
  /** The graphology graph. */
  get graph(): Graph {
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
    this.g.clear();
    this.plain.clear();
    this.members.clear();
    this.memories = 0;
  }

  entitiesOf(id: MemoryId): readonly number[] {
    const key = mNode(id);
    if (!this.g.hasNode(key)) return [];
    return this.g.neighbors(key).map((ek) => this.g.getNodeAttribute(ek, 'hash') as number);
  }

  /** Memories mentioning the entity, id ascending (cached until one of them changes). */
  membersOf(entity: number): readonly MemoryId[] {
    const hash = entity >>> 0;
    const cached = this.members.get(hash);
    if (cached) return cached;
    const ek = eNode(hash);
    const list = this.g.hasNode(ek) ? this.g.neighbors(ek).map((mk) => this.g.getNodeAttribute(mk, 'id') as MemoryId).sort() : [];
    this.members.set(hash, list);
    return list;
  }

  memoryCount(): number {
    return this.memories + this.plain.size;
  }

  entityCount(): number {
    return this.g.order - this.memories;
  }
}
