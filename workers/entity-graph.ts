// The memory-entity graph of the engine worker, held in graphology (issue 11): an undirected graph
// with a node per memory that mentions an entity ("m:<id>"), a node per canonical entity
// ("e:<hash>", the E11 hash of its canonical key, src/core/entities, unsigned) and an edge per
// mention. It implements the core's EntityLookup (the one-hop expansion of expandHops 1, deep
// search's entity neighbours and its communities read it) and follows the engine's upsert / remove
// edge by edge: a memory's edit drops its node and adds it again, an entity no memory mentions any
// more is dropped. Memories without entities are counted (the idf's N), not nodes.
//
// Kept small for issue 13 (the fill after a start from the engine snapshot, the heap at 100k):
// - no attributes: every node and edge shares one frozen empty object (a node's kind is its key's
//   prefix, a memory's id and an entity's hash the rest of it), so a node or an edge costs no
//   object of its own, and a write to an attribute throws instead of reaching every node;
// - beside the graph, two small indexes: the entity keys by hash (one per entity, a few thousand:
//   no number-to-string per mention, and the entity count), and the sorted member lists made on
//   read (dropped when one of their memories changes); a memory's entities are its neighbours in
//   the graph, in the order first given (graphology keeps insertion order).
// Even so a graphology edge (an edge object, its key, two adjacency entries) costs several times
// the array slot the plain maps of issue 13 used: at 100k memories with 210k mentions the fill is
// x4.7 their CPU (~1.1 s) and x3.2 their heap (59 MiB), and a collection landing in a step can take
// it over 50 ms; with the scale corpus's 4k mentions x1.4 (scripts/bench/entity-fill.ts, whose
// baseline is scripts/lib/entity-graph-maps.ts; docs/benchmarks.md).
//
// After a start from the engine snapshot the graph is filled from the space index's E11 column
// (`EntityGraph.deferred`): in the background in steps (`fillFor`, engine-warm.ts's lazyEntities),
// and whatever is left at once by the first read (issue 13: the whole build took 1-3 s at 100k on
// the first one-hop query). Writes during the fill apply to the graph as it is; the fill reads each
// remaining memory from the index as it is then (every graph write follows the index's), so the
// result is the same.

import Graph from 'graphology';
import type { Attributes } from 'graphology-types';
import type { EntityLookup } from '../src/core/entities';
import type { SpaceFeatures } from '../src/core/spaces';
import type { MemoryId } from '../src/core/types';

/** The attributes of every node and edge: none (shared, frozen). */
const NONE: Attributes = Object.freeze({});
const memoryKey = (id: MemoryId): string => `m:${id}`;
/** The hash of an entity node's key ("e:<hash>"). */
const hashOf = (key: string): number => Number(key.slice(2));

/** The entities as unsigned hashes, each once, in the order first given (a memory has a few: a scan beats a Set). */
function distinctOf(entities: readonly number[]): number[] {
  const out: number[] = [];
  if (entities.length > 32) {
    for (const e of new Set(Array.from(entities, (x) => x >>> 0))) out.push(e);
    return out;
  }
  next: for (let i = 0; i < entities.length; i++) {
    const e = entities[i] >>> 0;
    for (let j = 0; j < out.length; j++) if (out[j] === e) continue next;
    out.push(e);
  }
  return out;
}

/** What a deferred graph is filled from (the space index). */
export interface EntitySource {
  ids(): MemoryId[];
  has(id: MemoryId): boolean;
  entitiesOf(id: MemoryId): readonly number[];
}

export class EntityGraph implements EntityLookup {
  private readonly g = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
  /** Each entity node's key by its hash (unsigned). */
  private readonly entityKeys = new Map<number, string>();
  /** Memories without entities: counted, never nodes. */
  private readonly plain = new Set<MemoryId>();
  /** Sorted member lists, made on read (dropped when one of their memories changes). */
  private readonly members = new Map<number, MemoryId[]>();
  /** The next edge's key: a counter (graphology's own keys are "geid_<graph>_<n>" strings, a concatenation flattened on each add). */
  private edgeKeys = 0;
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

  /**
   * The graph itself (a deferred one filled first): memory nodes "m:<id>", entity nodes "e:<hash>",
   * an edge per mention, no attributes. Read it, never write to it (the engine's writes go through
   * setMemory / remove).
   */
  get graph(): Graph {
    this.fillFor(Infinity);
    return this.g;
  }

  /** Sets the memory's entities (E11 hashes; replaces the previous ones). */
  setMemory(id: MemoryId, entities: readonly number[]): void {
    this.remove(id);
    // A memory without entities has no edge to walk: it is counted (the idf's N), not a node
    if (entities.length === 0) {
      this.plain.add(id);
      return;
    }
    const g = this.g;
    const key = memoryKey(id);
    g.addNode(key, NONE);
    for (const e of distinctOf(entities)) {
      let ek = this.entityKeys.get(e);
      if (ek === undefined) {
        ek = `e:${e}`;
        this.entityKeys.set(e, ek);
        g.addNode(ek, NONE);
      } else this.members.delete(e);
      g.addUndirectedEdgeWithKey(this.edgeKeys++, key, ek, NONE);
    }
  }

  /** Sets the memory's entities from its features (E11); no E11 = no entity. */
  setFromFeatures(id: MemoryId, features: SpaceFeatures): void {
    this.setMemory(id, features.E11 ? Array.from(features.E11.entities) : []);
  }

  remove(id: MemoryId): void {
    if (this.plain.delete(id)) return;
    const g = this.g;
    const key = memoryKey(id);
    if (!g.hasNode(key)) return;
    for (const ek of g.neighbors(key)) {
      const e = hashOf(ek);
      this.members.delete(e);
      if (g.degree(ek) > 1) continue;
      g.dropNode(ek); // no other memory mentions it
      this.entityKeys.delete(e);
    }
    g.dropNode(key);
  }

  clear(): void {
    this.pending = null;
    this.g.clear();
    this.entityKeys.clear();
    this.plain.clear();
    this.members.clear();
  }

  /** The memory's entities, in the order first given. */
  entitiesOf(id: MemoryId): readonly number[] {
    this.fillFor(Infinity);
    const key = memoryKey(id);
    return this.g.hasNode(key) ? this.g.neighbors(key).map(hashOf) : [];
  }

  /** Memories mentioning the entity, id ascending (cached until one of them changes). */
  membersOf(entity: number): readonly MemoryId[] {
    this.fillFor(Infinity);
    const hash = entity >>> 0;
    const cached = this.members.get(hash);
    if (cached) return cached;
    const ek = this.entityKeys.get(hash);
    if (ek === undefined) return [];
    const list = this.g.neighbors(ek).map((mk) => mk.slice(2)).sort();
    this.members.set(hash, list);
    return list;
  }

  memoryCount(): number {
    this.fillFor(Infinity);
    return this.g.order - this.entityKeys.size + this.plain.size;
  }

  entityCount(): number {
    this.fillFor(Infinity);
    return this.entityKeys.size;
  }
}
