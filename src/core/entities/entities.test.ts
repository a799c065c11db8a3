import { describe, expect, it } from 'vitest';
import { fnv1a } from '../features/hash';
import { canonicalEntityKey, entityHash, entityNodeOf, mentionRows } from './canonical';
import { entityLookupFromMap, expandByEntities } from './expand';

describe('canonical entity nodes', () => {
  it('keys are the E11 normalisation and hashes the ids E11 stores', () => {
    expect(canonicalEntityKey('The Golden Gate  Bridge')).toBe('golden gate bridge');
    expect(canonicalEntityKey("Caroline's")).toBe('caroline');
    expect(entityHash('caroline')).toBe(fnv1a('caroline'));
  });

  it('one mention row per key and memory, first spelling wins, empty keys dropped', () => {
    const rows = mentionRows('m1', [
      { text: 'Caroline', type: 'NAME' },
      { text: "Caroline's", type: 'NAME' },
      { text: '  ', type: 'NAME' },
      { text: '7 May 2023', type: 'DATE' },
    ]);
    expect(rows.map((r) => [r.entityKey, r.surface, r.type])).toEqual([
      ['caroline', 'Caroline', 'NAME'],
      ['7 may 2023', '7 May 2023', 'DATE'],
    ]);
  });

  it('a node counts memories, names itself by the most frequent spelling, lists aliases', () => {
    const rows = [
      ...mentionRows('m1', [{ text: 'Golden Gate Bridge', type: 'NAME' }]),
      ...mentionRows('m2', [{ text: 'The Golden Gate Bridge', type: 'NAME' }]),
      ...mentionRows('m3', [{ text: 'Golden Gate Bridge', type: 'NAME' }]),
      ...mentionRows('m3', [{ text: 'Paris', type: 'NAME' }]),
    ];
    const node = entityNodeOf('golden gate bridge', rows)!;
    expect(node).toEqual({
      key: 'golden gate bridge',
      hash: fnv1a('golden gate bridge'),
      name: 'Golden Gate Bridge',
      aliases: ['Golden Gate Bridge', 'The Golden Gate Bridge'],
      type: 'NAME',
      mentionCount: 3,
    });
    expect(entityNodeOf('nowhere', rows)).toBeUndefined();
  });
});

describe('expandByEntities', () => {
  // 40 memories; x1..x3 share entity 7 with seed s; y shares entity 9 with s and entity 7 too;
  // entity 1 is in every memory (a hub)
  const map = new Map<string, number[]>();
  for (let i = 0; i < 34; i++) map.set(`z${String(i).padStart(2, '0')}`, [1]);
  map.set('s', [1, 7, 9]);
  map.set('t', [1, 9]);
  map.set('x1', [1, 7]);
  map.set('x2', [1, 7]);
  map.set('x3', [1, 7]);
  map.set('y', [1, 7, 9]);
  const lookup = entityLookupFromMap(map);

  it('scores neighbours by idf over shared entities and seed rank; hubs and seeds excluded', () => {
    const n = 40;
    const idf7 = Math.log(1 + n / 5); // s, x1, x2, x3, y
    const idf9 = Math.log(1 + n / 3); // s, t, y
    const hits = expandByEntities(lookup, ['s'], { minHubSize: 20, hubShare: 0.05 });
    expect(hits.map((h) => h.id)).toEqual(['y', 't', 'x1', 'x2', 'x3']);
    expect(hits[0].score).toBeCloseTo(idf7 + idf9, 10);
    expect(hits[1].score).toBeCloseTo(idf9, 10);
    expect(hits[2].score).toBeCloseTo(idf7, 10);
    expect(hits[0].via).toEqual([{ seed: 's', entities: [7, 9] }]);
  });

  it('the second seed counts half; accept filters; limit cuts', () => {
    const hits = expandByEntities(lookup, ['x1', 't'], { accept: (id) => id !== 'x2', limit: 2 });
    const n = 40;
    // s: via x1 (7) + via t (9)/2; y: same; x3: via x1 (7)
    expect(hits.map((h) => h.id)).toEqual(['s', 'y']);
    expect(hits[0].score).toBeCloseTo(Math.log(1 + n / 5) + Math.log(1 + n / 3) / 2, 10);
    expect(expandByEntities(lookup, ['z00'])).toEqual([]); // only a hub: nothing
    expect(expandByEntities(entityLookupFromMap(new Map()), ['s'])).toEqual([]);
  });
});
