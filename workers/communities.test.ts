import { describe, expect, it } from 'vitest';
import { buildNeighbourMatrix } from '../src/core/recall/matrix';
import { memoryCommunities } from './communities';
import { EntityGraph } from './entity-graph';

describe('memoryCommunities over the neighbour matrix and the held entity graph', () => {
  // a, b nearly parallel (cosine 0.995), c, d too; a.c = 0, b.d = 0.198 < minCosine 0.5: two
  // nearest-neighbour pairs. e has no vector: it joins through entity 7, which it shares with c
  const vectors = new Map([
    ['a', [1, 0]],
    ['b', [1, 0.1]],
    ['c', [0, 1]],
    ['d', [0.1, 1]],
  ]);
  const matrix = buildNeighbourMatrix(vectors.keys(), (id) => Float32Array.from(vectors.get(id)!));

  it('puts the pairs apart, the vectorless memory with its entity partner, and ignores hub entities', () => {
    const g = new EntityGraph();
    g.setMemory('c', [7]);
    g.setMemory('e', [7]);
    // entity 5: b, d and 19 more memories = 21 members, over maxEntityMembers 20: no edges
    g.setMemory('b', [5]);
    g.setMemory('d', [5]);
    for (let i = 0; i < 19; i++) g.setMemory(`h${i}`, [5]);
    const c = memoryCommunities(matrix, g);
    expect([...c.keys()].sort()).toEqual(['a', 'b', 'c', 'd', 'e']); // no h*: the hub linked nothing
    expect(c.get('a')).toBe(c.get('b'));
    expect([c.get('d'), c.get('e')]).toEqual([c.get('c'), c.get('c')]);
    expect(c.get('a')).not.toBe(c.get('c'));
  });

  it('with 20 members the entity links them (1/19 each pair)', () => {
    const g = new EntityGraph();
    g.setMemory('b', [5]);
    g.setMemory('d', [5]);
    for (let i = 0; i < 18; i++) g.setMemory(`h${i}`, [5]);
    const c = memoryCommunities(matrix, g);
    expect(c.size).toBe(4 + 18);
  });
});
