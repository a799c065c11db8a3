import { describe, expect, it } from 'vitest';
import { expandByEntities } from '../src/core/entities';
import { EntityGraph } from './entity-graph';

const e11 = (...entities: number[]) => ({ E11: { entities: Uint32Array.from(entities), triples: { count: 0, dim: 32, heads: new Float32Array(), tails: new Float32Array(), relations: new Uint32Array() } } });

describe('EntityGraph (graphology)', () => {
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
