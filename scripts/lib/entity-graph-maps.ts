// The engine's entity graph as two plain maps (workers/entity-graph.ts from issue 13 until issue 11
// put it back in graphology), kept as the baseline of scripts/bench/entity-fill.ts. Not used by the
// app. Its original header:
//
// The memory-entity graph of the engine worker: memories and canonical entities (the E11 hash of
// its canonical key, src/core/entities), an undirected link for each mention. It implements the
// core's EntityLookup (the one-hop expansion of expandHops 1 and deep search's communities read
// it) and is kept in step with the engine's upsert / remove.
//
// Held as two plain maps (each memory's entities as a typed array, each entity's memories as an
// array), not as graphology nodes and edges: filling graphology after a start from the engine
// snapshot was 1-3 s of CPU at 100k (a node and an attributes object per memory and per entity,
// an edge object and two adjacency entries per mention) for a graph that is only ever asked
// "this memory's entities" and "this entity's memories" (issue 13). `graph` builds the same graph
// in graphology on demand (tests, diagnostics).
//
// After a start from the engine snapshot the graph is filled from the space index's E11 column
// (`EntityGraph.deferred`): in the background in steps (`fillFor`), and whatever is left at once
// by the first read (issue 13: the whole build took 1-3 s at 100k on the first one-hop query).
// Writes during the fill apply to the graph as it is; the fill reads each remaining memory from the
// index as it is then (every graph write follows the index's), so the result is the same.

import Graph from 'graphology';
import type { EntitySource } from '../../workers/entity-graph';
import type { EntityLookup } from '../../src/core/entities';
import type { SpaceFeatures } from '../../src/core/spaces';
import type { MemoryId } from '../../src/core/types';

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


export class MapsEntityGraph implements EntityLookup {
  /** Each memory with entities: its entity hashes (unsigned, distinct, in the order first given). */
  private readonly entitiesBy = new Map<MemoryId, number[]>();
  /** Each entity: the memories mentioning it (in the order they came; sorted copies in `members`). */
  private readonly mentions = new Map<number, MemoryId[]>();
  /** A deferred graph's memories still to read from its source (`next` onwards). */
  private pending: { source: EntitySource; ids: MemoryId[]; next: number } | null = null;

  /** A graph to be filled from `source` (its memories as they are when each is read): `fillFor` in steps, or all at once by the first read. */
  static deferred(source: EntitySource): MapsEntityGraph {
    const g = new MapsEntityGraph();
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

  /** The same graph in graphology (a deferred one filled first): a node per memory with entities ("m:<id>", { kind, id }) and per entity ("e:<hash>", { kind, hash }), an edge per mention. Built on each read (tests, diagnostics). */
  get graph(): Graph {
    this.fillFor(Infinity);
    const g = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
    for (const [id, entities] of this.entitiesBy) {
      const key = `m:${id}`;
      g.addNode(key, { kind: 'memory', id });
      for (const e of entities) {
        const ek = `e:${e}`;
        if (!g.hasNode(ek)) g.addNode(ek, { kind: 'entity', hash: e });
        g.addEdge(key, ek);
      }
    }
    return g;
  }

  /** Memories without entities: counted, never in the maps. */
  private readonly plain = new Set<MemoryId>();
  /** Sorted member lists, made on read (dropped when one of their memories changes). */
  private readonly members = new Map<number, MemoryId[]>();

  /** Sets the memory's entities (E11 hashes; replaces the previous ones). */
  setMemory(id: MemoryId, entities: readonly number[]): void {
    this.remove(id);
    // A memory without entities has no link to walk: it is counted (the idf's N), not held
    if (entities.length === 0) {
      this.plain.add(id);
      return;
    }
    const distinct = distinctOf(entities);
    this.entitiesBy.set(id, distinct);
    for (const e of distinct) {
      const list = this.mentions.get(e);
      if (list) list.push(id);
      else this.mentions.set(e, [id]);
      this.members.delete(e);
    }
  }

  /** Sets the memory's entities from its features (E11); no E11 = no entity. */
  setFromFeatures(id: MemoryId, features: SpaceFeatures): void {
    this.setMemory(id, features.E11 ? Array.from(features.E11.entities) : []);
  }

  remove(id: MemoryId): void {
    if (this.plain.delete(id)) return;
    const entities = this.entitiesBy.get(id);
    if (!entities) return;
    for (const e of entities) {
      this.members.delete(e);
      const list = this.mentions.get(e)!;
      if (list.length === 1) {
        this.mentions.delete(e); // no memory mentions it any more
        continue;
      }
      const at = list.indexOf(id);
      list[at] = list[list.length - 1];
      list.pop();
    }
    this.entitiesBy.delete(id);
  }

  clear(): void {
    this.pending = null;
    this.entitiesBy.clear();
    this.mentions.clear();
    this.plain.clear();
    this.members.clear();
  }

  entitiesOf(id: MemoryId): readonly number[] {
    this.fillFor(Infinity);
    const entities = this.entitiesBy.get(id);
    return entities ? entities.slice() : [];
  }

  /** Memories mentioning the entity, id ascending (cached until one of them changes). */
  membersOf(entity: number): readonly MemoryId[] {
    this.fillFor(Infinity);
    const hash = entity >>> 0;
    const cached = this.members.get(hash);
    if (cached) return cached;
    const list = [...(this.mentions.get(hash) ?? [])].sort();
    this.members.set(hash, list);
    return list;
  }

  memoryCount(): number {
    this.fillFor(Infinity);
    return this.entitiesBy.size + this.plain.size;
  }

  entityCount(): number {
    this.fillFor(Infinity);
    return this.mentions.size;
  }
}
