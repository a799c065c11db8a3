import { describe, expect, it } from 'vitest';
import { expandByEntities } from '../src/core/entities';
import { EntityGraph } from './entity-graph';
import { lazyEntities } from './engine-warm';
import { SpaceIndex } from '../src/core/pipeline';
import { seededUniform } from '../src/core/features/hash';
import { GraphologyEntityGraph } from '../scripts/lib/entity-graph-graphology';

const e11 = (...entities: number[]) => ({ E11: { entities: Uint32Array.from(entities), triples: { count: 0, dim: 32, heads: new Float32Array(), tails: new Float32Array(), relations: new Uint32Array() } } });

describe('EntityGraph (graphology, held)', () => {
  it('holds memory and entity nodes, follows upserts and removals, drops orphan entities', () => {
    const g = new EntityGraph();
    g.setFromFeatures('b', e11(7, 9));
    g.setFromFeatures('a', e11(7));
    g.setFromFeatures('c', {});
    expect([g.memoryCount(), g.entityCount(), g.graph.size]).toEqual([3, 2, 3]);
    expect(g.graph.order).toBe(4); // c (no entity) is counted, not a node: a, b, 7, 9
    g.setFromFeatures('c', e11(9)); // c now mentions 9: a node with an edge
    expect([g.memoryCount(), g.graph.order, g.membersOf(9)]).toEqual([3, 5, ['b', 'c']]);
    g.setFromFeatures('c', {}); // and back
    expect([g.memoryCount(), g.graph.order, g.membersOf(9)]).toEqual([3, 4, ['b']]);
    expect(g.membersOf(7)).toEqual(['a', 'b']);
    expect([...g.entitiesOf('b')].sort()).toEqual([7, 9]);
    g.setFromFeatures('b', e11(9)); // an edit: b no longer mentions 7
    expect(g.membersOf(7)).toEqual(['a']);
    g.remove('b');
    expect([g.memoryCount(), g.entityCount()]).toEqual([2, 1]); // 9 had only b
    expect(g.membersOf(9)).toEqual([]);
    expect(g.entitiesOf('zzz')).toEqual([]);
    g.remove('zzz'); // unknown: no-op
    // hashes above 2^31 stay unsigned
    g.setFromFeatures('d', e11(0xfffffff0));
    expect(g.entitiesOf('d')).toEqual([0xfffffff0]);
  });

  it('is an EntityLookup the core expansion reads', () => {
    const g = new EntityGraph();
    g.setMemory('s', [1]);
    g.setMemory('x', [1]);
    g.setMemory('y', [2]);
    expect(expandByEntities(g, ['s'], { minHubSize: 5 }).map((h) => h.id)).toEqual(['x']);
  });
});

describe('EntityGraph filled in the background (a start from the engine snapshot)', () => {
  /** A stand-in for the space index's E11 column: memory m<i> mentions entities i % 7 and 100 + i % 3 (none when i % 5 === 0). */
  function source(n: number) {
    const rows = new Map<string, number[]>();
    for (let i = 0; i < n; i++) rows.set(`m${String(i).padStart(4, '0')}`, i % 5 === 0 ? [] : [i % 7, 100 + (i % 3)]);
    return { rows, src: { ids: () => [...rows.keys()], has: (id: string) => rows.has(id), entitiesOf: (id: string) => rows.get(id) ?? [] } };
  }
  const shape = (g: EntityGraph) => ({ memories: g.memoryCount(), entities: g.entityCount(), e0: g.membersOf(0), e101: g.membersOf(101).length, m0003: [...g.entitiesOf('m0003')].sort() });

  it('steps fill it; writes between steps apply; the result equals a graph built from the final index', () => {
    const { rows, src } = source(700);
    const g = EntityGraph.deferred(src);
    expect(g.fillFor(0)).toBe(false); // 32 memories per check: 22 steps for 700
    expect(g.filling).toBe(true);
    // writes as the engine makes them (the index first, then the graph), before and after the fill's cursor
    const write = (id: string, e: number[] | null) => {
      if (e === null) {
        rows.delete(id);
        g.remove(id);
      } else {
        rows.set(id, e);
        g.setMemory(id, e);
      }
    };
    write('m0003', [0, 55]); // already filled
    write('m0600', [0]); // not yet
    write('m0601', null); // removed before the cursor reaches it
    write('m0010', null); // removed after
    write('new', [0]); // not in the fill's list
    let steps = 1;
    while (!g.fillFor(0)) steps++;
    expect([steps + 1, g.filling]).toEqual([22, false]); // ceil(700 / 32)
    const eager = new EntityGraph();
    for (const [id, e] of rows) eager.setMemory(id, e);
    expect(shape(g)).toEqual(shape(eager));
    // hand-worked: 700 - 2 removed + 1 new = 699 memories (plain ones counted); entities 0-6,
    // 100-102 and 55 = 11; entity 0: the 100 multiples of 7 in 0..699 less the 20 of 35 (plain) = 80,
    // + m0003, m0600 (was plain) and new
    expect(shape(g)).toMatchObject({ memories: 699, entities: 11, m0003: [0, 55] });
    expect(g.membersOf(0).length).toBe(80 + 3);
  });

  it('the first read fills whatever is left at once', () => {
    const { src } = source(700);
    const g = EntityGraph.deferred(src);
    expect(g.membersOf(6)).toContain('m0006');
    expect(g.filling).toBe(false);
    expect(g.memoryCount()).toBe(700);
  });
});

describe('lazyEntities (the engine snapshot\'s adoption)', () => {
  it('fills in scheduled steps and stops when the engine holds another graph', () => {
    const spaces = new SpaceIndex();
    for (let i = 0; i < 600; i++) spaces.upsert(`m${i}`, e11(i % 4));
    const queue: (() => void)[] = [];
    let current: EntityGraph | null = null;
    const g = lazyEntities(() => spaces, () => current!, (f) => queue.push(f));
    current = g;
    let steps = 0;
    while (queue.length) {
      queue.shift()!();
      steps++;
    }
    expect(g.filling).toBe(false);
    expect(steps).toBeGreaterThanOrEqual(1);
    expect([g.memoryCount(), g.entityCount(), g.membersOf(3).length]).toEqual([600, 4, 150]);
    const orphan = lazyEntities(() => spaces, () => current!, (f) => queue.push(f));
    queue.shift()!(); // the engine holds g, not this one: its fill stops, nothing scheduled
    expect([queue.length, orphan.filling]).toEqual([0, true]);
  });
});

describe('EntityGraph in graphology: the same graph as the reference build (scripts/lib/entity-graph-graphology.ts)', () => {
  /** Everything a reader can ask, and the graph itself (node keys, edges; the held graph keeps no attributes). */
  function shapeOf(g: EntityGraph | GraphologyEntityGraph, ids: string[], entities: number[]) {
    const graph = g.graph;
    return {
      memories: g.memoryCount(),
      entities: g.entityCount(),
      of: ids.map((id) => g.entitiesOf(id)),
      members: entities.map((e) => g.membersOf(e)),
      nodes: graph.nodes().sort(),
      edges: graph.edges().map((e) => graph.extremities(e).slice().sort().join(' ')).sort(),
    };
  }
  const rowsSource = (rows: Map<string, number[]>) => ({ ids: () => [...rows.keys()], has: (id: string) => rows.has(id), entitiesOf: (id: string) => rows.get(id)! });
  const ids = [...Array(300).keys()].map((i) => `m${i}`);
  const entities = [...[...Array(60).keys()], ...[...Array(40).keys()].map((i) => 0x80000000 + i), 12345];

  /** A seeded random write: a set (repeats, hashes over 2^31, a few hubs, some with no entity) or a removal. */
  function writer(seed: number) {
    const rand = seededUniform(seed);
    const hash = () => (rand() < 0.2 ? 0x80000000 + Math.floor(rand() * 40) : Math.floor(rand() * 60));
    const mentions = () => Array.from({ length: rand() < 0.2 ? 0 : 1 + Math.floor(rand() * 5) }, hash);
    return (): [string, number[] | null] => [`m${Math.floor(rand() * 300)}`, rand() < 0.25 ? null : mentions()];
  }
  const reference = (rows: Map<string, number[]>) => {
    const r = new GraphologyEntityGraph();
    for (const [id, e] of rows) r.setMemory(id, e);
    return r;
  };

  it('after random sets, re-sets (edits), removals and plain memories, filled at once or in steps', () => {
    for (const seed of [1, 2, 3]) {
      const next = writer(seed);
      const old = new GraphologyEntityGraph();
      const now = new EntityGraph();
      const rows = new Map<string, number[]>();
      const held = now.graph; // the engine's graph: the same object throughout, changed in place
      for (let step = 0; step < 2000; step++) {
        const [id, e] = next();
        if (e === null) {
          old.remove(id);
          now.remove(id);
          rows.delete(id);
        } else {
          old.setMemory(id, e);
          now.setMemory(id, e);
          rows.set(id, e);
        }
        if (step % 50 === 0) for (let x = 0; x < 60; x += 3) expect(now.membersOf(x)).toEqual(old.membersOf(x)); // cached lists, dropped by later writes
      }
      const want = shapeOf(old, ids, entities);
      expect(want.edges.length).toBeGreaterThan(300);
      expect(now.graph).toBe(held);
      expect(shapeOf(now, ids, entities)).toEqual(want);
      // the same rows filled into a deferred graph, in steps
      const filled = EntityGraph.deferred(rowsSource(rows));
      while (!filled.fillFor(0));
      expect(shapeOf(filled, ids, entities)).toEqual(shapeOf(reference(rows), ids, entities));
    }
  });

  it('a deferred fill with writes between its steps equals the reference built from the final rows', () => {
    for (const seed of [4, 5]) {
      const next = writer(seed);
      const rows = new Map<string, number[]>();
      for (let i = 0; i < 1000; i++) {
        const [id, e] = next();
        if (e) rows.set(id, e);
      }
      const g = EntityGraph.deferred(rowsSource(rows));
      let steps = 0;
      do {
        steps++;
        for (let w = 0; w < 5; w++) {
          // the engine's order: the index (rows) first, then the graph
          const [id, e] = next();
          if (e === null) {
            rows.delete(id);
            g.remove(id);
          } else {
            rows.set(id, e);
            g.setMemory(id, e);
          }
        }
      } while (!g.fillFor(0));
      expect(steps).toBeGreaterThan(5); // writes landed before and after the cursor
      expect(shapeOf(g, ids, entities)).toEqual(shapeOf(reference(rows), ids, entities));
    }
  });

  it('keeps no attributes: one frozen empty object, which a write cannot change', () => {
    const g = new EntityGraph();
    g.setMemory('a', [1, 2]);
    g.setMemory('b', [2]);
    const graph = g.graph;
    expect(graph.nodes().sort()).toEqual(['e:1', 'e:2', 'm:a', 'm:b']);
    expect(graph.neighbors('e:2').sort()).toEqual(['m:a', 'm:b']);
    expect(graph.getNodeAttributes('m:a')).toEqual({});
    expect(graph.getNodeAttributes('m:a')).toBe(graph.getNodeAttributes('e:1'));
    expect(graph.getEdgeAttributes('m:a', 'e:1')).toBe(graph.getNodeAttributes('m:b'));
    expect(() => graph.setNodeAttribute('m:a', 'x', 1)).toThrow(TypeError);
    expect(graph.getNodeAttributes('m:b')).toEqual({});
  });
});
