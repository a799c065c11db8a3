import { describe, expect, it } from 'vitest';
import { buildGraphModel, nodeAriaLabel, type GraphModelInput } from './model';
import { AppError } from '../../core/errors';

const base: GraphModelInput = {
  query: 'database indexing',
  results: [
    { id: 's1', label: 'Postgres index tuning', score: 0.9, mode: 'standard', tags: ['db', 'perf'] },
    { id: 'l1', label: 'B-tree file system layouts', score: 0.61, mode: 'lateral', tags: ['db', 'fs'] },
    {
      id: 'a3',
      label: 'Page cache eviction',
      score: 0.4,
      mode: 'associative',
      tags: ['os'],
      chain: [
        { id: 'a1', hop: 1, cosine: 0.8 },
        { id: 'a2', hop: 2, cosine: 0.75 },
        { id: 'a3', hop: 3, cosine: 0.73 },
      ],
    },
  ],
  labels: { a1: 'LSM trees', a2: 'Write amplification' },
};

const edge = (m: ReturnType<typeof buildGraphModel>, s: string, t: string) =>
  m.edges.find((e) => e.source === s && e.target === t);

describe('buildGraphModel', () => {
  it('puts the query at hop 0 and links direct hits to it', () => {
    const m = buildGraphModel(base);
    expect(m.nodes[0]).toMatchObject({ id: 'query', kind: 'query', label: 'database indexing', hop: 0 });
    expect(edge(m, 'query', 'm:s1')).toMatchObject({ kind: 'standard', dashed: false, directed: false, hop: 1 });
    expect(m.nodes.find((n) => n.id === 'm:s1')).toMatchObject({ kind: 'standard', hop: 1, memoryId: 's1', score: 0.9 });
  });

  it('draws lateral hits with a dashed edge labelled "lateral"', () => {
    const m = buildGraphModel(base);
    expect(edge(m, 'query', 'm:l1')).toEqual({
      id: 'lateral:query>m:l1', kind: 'lateral', source: 'query', target: 'm:l1',
      directed: false, dashed: true, label: 'lateral', hop: 1,
    });
    expect(m.nodes.find((n) => n.id === 'm:l1')?.kind).toBe('lateral');
  });

  it('turns a chain into a directed path query -> a1 -> a2 -> a3 with hop numbers', () => {
    const m = buildGraphModel(base);
    const path = [['query', 'm:a1', 1, 0.8], ['m:a1', 'm:a2', 2, 0.75], ['m:a2', 'm:a3', 3, 0.73]] as const;
    for (const [s, t, hop, cos] of path) {
      expect(edge(m, s, t)).toMatchObject({ kind: 'associative', directed: true, dashed: false, hop, label: String(hop), cosine: cos });
    }
    // The associative result is not also linked straight to the query.
    expect(edge(m, 'query', 'm:a3')).toBeUndefined();
    const hops = Object.fromEntries(m.nodes.map((n) => [n.id, n.hop]));
    expect(hops).toMatchObject({ 'm:a1': 1, 'm:a2': 2, 'm:a3': 3 });
    expect(m.nodes.find((n) => n.id === 'm:a2')).toMatchObject({ kind: 'associative', label: 'Write amplification' });
  });

  it('renumbers a 0-based chain and appends the result when the chain stops before it', () => {
    const m = buildGraphModel({
      query: 'q',
      results: [{ id: 'z', label: 'Z', score: 0.3, mode: 'associative', tags: [], chain: [{ id: 'y', hop: 1, cosine: 0.7 }, { id: 'x', hop: 0, cosine: 0.9 }] }],
    });
    expect(m.edges.map((e) => [e.source, e.target, e.hop])).toEqual([
      ['query', 'm:x', 1], ['m:x', 'm:y', 2], ['m:y', 'm:z', 3],
    ]);
  });

  it('keeps hop 1 for a memory that is both a direct hit and the start of a chain', () => {
    const m = buildGraphModel({
      query: 'q',
      results: [
        { id: 's', label: 'S', score: 0.9, mode: 'standard', tags: [] },
        { id: 'b', label: 'B', score: 0.5, mode: 'associative', tags: [], chain: [{ id: 's', hop: 1, cosine: 0.9 }, { id: 'b', hop: 2, cosine: 0.8 }] },
      ],
    });
    expect(edge(m, 'query', 'm:s')?.kind).toBe('standard');
    expect(edge(m, 'm:s', 'm:b')).toMatchObject({ kind: 'associative', hop: 2 });
    expect(m.edges).toHaveLength(2);
  });

  it('limits depth to the requested number of hops', () => {
    const ids = (d: 1 | 2 | 3) => buildGraphModel({ ...base, depth: d }).nodes.map((n) => n.id);
    expect(ids(1)).toEqual(['query', 'm:s1', 'm:l1', 'm:a1']);
    expect(ids(2)).toEqual(['query', 'm:s1', 'm:l1', 'm:a1', 'm:a2']);
    expect(ids(3)).toHaveLength(6);
    const d1 = buildGraphModel({ ...base, depth: 1 });
    expect(d1.edges.map((e) => e.id)).toEqual(['standard:query>m:s1', 'lateral:query>m:l1', 'associative:query>m:a1']);
  });

  it('filters by kind and by tag (case-insensitive), keeping whole chains', () => {
    const lateral = buildGraphModel({ ...base, filters: { kinds: ['lateral'] } });
    expect(lateral.nodes.map((n) => n.id)).toEqual(['query', 'm:l1']);
    const db = buildGraphModel({ ...base, filters: { tag: 'DB' } });
    expect(db.nodes.map((n) => n.id)).toEqual(['query', 'm:s1', 'm:l1']);
    const assoc = buildGraphModel({ ...base, filters: { kinds: ['associative'], tag: 'os' } });
    expect(assoc.nodes.map((n) => n.id)).toEqual(['query', 'm:a1', 'm:a2', 'm:a3']);
    const none = buildGraphModel({ ...base, filters: { tag: 'nothing' } });
    expect(none.nodes.map((n) => n.id)).toEqual(['query']);
    // typed as a person writes a tag, with its "#"
    expect(buildGraphModel({ ...base, filters: { tag: '#DB' } }).nodes.map((n) => n.id)).toEqual(['query', 'm:s1', 'm:l1']);
  });

  it('adds shared tag nodes when showTags is set', () => {
    const m = buildGraphModel({ ...base, showTags: true });
    const tags = m.nodes.filter((n) => n.kind === 'tag').map((n) => n.id);
    expect(tags).toEqual(['t:db', 't:perf', 't:fs', 't:os']);
    expect(m.edges.filter((e) => e.target === 't:db').map((e) => e.source)).toEqual(['m:s1', 'm:l1']);
    expect(m.nodes.find((n) => n.id === 't:os')?.hop).toBe(4);
    expect(buildGraphModel(base).nodes.some((n) => n.kind === 'tag')).toBe(false);
  });

  it('links a divergence badge to the recent memories it diverged from', () => {
    const m = buildGraphModel({
      ...base,
      divergence: [{ spaceName: 'E7', similarity: 0.21, threshold: 0.45, recentIds: ['r1', 's1'] }],
      labels: { r1: 'Yesterday: deploy notes' },
    });
    const alert = m.nodes.find((n) => n.id === 'a:E7');
    expect(alert).toMatchObject({ kind: 'alert', detail: 'similarity 0.21 below threshold 0.45' });
    expect(m.edges.filter((e) => e.source === 'a:E7').map((e) => e.target)).toEqual(['m:r1', 'm:s1']);
    expect(m.nodes.find((n) => n.id === 'm:r1')).toMatchObject({ kind: 'recent', label: 'Yesterday: deploy notes' });
    expect(edge(m, 'query', 'a:E7')?.kind).toBe('divergence');
  });

  it('is deterministic and ignores duplicate result ids', () => {
    const dup = { ...base, results: [...base.results, { ...base.results[0], label: 'other' }] };
    expect(buildGraphModel(dup)).toEqual(buildGraphModel(base));
    expect(JSON.stringify(buildGraphModel(base))).toBe(JSON.stringify(buildGraphModel(structuredClone(base))));
  });

  it('depth 4 reaches the end of a three-hop associative walk (direct hit + hops 1..3)', () => {
    const chain = [
      { id: 'm0', hop: 0, cosine: 0.9 },
      { id: 'm1', hop: 1, cosine: 0.8 },
      { id: 'm2', hop: 2, cosine: 0.78 },
      { id: 'm3', hop: 3, cosine: 0.75 },
    ];
    const input = { query: 'q', results: [{ id: 'm3', label: 'M3', score: 0.4, mode: 'associative' as const, tags: [], chain }] };
    expect(buildGraphModel({ ...input, depth: 3 }).nodes.map((n) => n.id)).toEqual(['query', 'm:m0', 'm:m1', 'm:m2']);
    const d4 = buildGraphModel({ ...input, depth: 4 });
    expect(d4.nodes.find((n) => n.id === 'm:m3')?.hop).toBe(4);
    expect(d4.edges.map((e) => e.label)).toEqual(['1', '2', '3', '4']);
  });

  it('rejects bad input with a clear AppError', () => {
    const bad = () => buildGraphModel({ query: 'q', results: [{ id: 'x', label: 'x', score: Number.NaN, mode: 'standard', tags: [] }] });
    expect(bad).toThrow(AppError);
    expect(bad).toThrow(/score that is not a finite number/);
    expect(() => buildGraphModel({ query: 'q', results: [{ id: 'x', label: 'x', score: 1, mode: 'weird' as never, tags: [] }] })).toThrow(/unknown mode "weird"/);
    expect(() => buildGraphModel({ ...base, depth: 5 as never })).toThrow(/depth must be 1, 2, 3 or 4/);
  });

  it('writes screen-reader labels', () => {
    const m = buildGraphModel(base);
    expect(nodeAriaLabel(m.nodes.find((n) => n.id === 'm:l1')!)).toBe('Lateral memory: B-tree file system layouts, score 0.61');
    expect(nodeAriaLabel(m.nodes.find((n) => n.id === 'm:a3')!)).toBe('Associative memory: Page cache eviction, score 0.40, hop 3');
  });
});

describe('entity expansion in the graph (issue 11)', () => {
  it('draws seed -> shared name -> the memory it brought in, dashed, one node per name', () => {
    const m = buildGraphModel({
      query: 'sailing',
      results: [
        { id: 's', label: 'Sailing with Marta', score: 0.9, mode: 'standard', tags: [] },
        { id: 'x', label: 'Marta cooked dinner', score: 0.4, mode: 'standard', tags: [], via: [{ seed: 's', entities: [{ hash: 42, name: 'Marta' }] }] },
        { id: 'y', label: 'Marta in Porto', score: 0.3, mode: 'standard', tags: [], via: [{ seed: 's', entities: [{ hash: 42, name: 'Marta' }] }] },
      ],
    });
    const entity = m.nodes.filter((n) => n.kind === 'entity');
    expect(entity.map((n) => [n.id, n.label, n.hop])).toEqual([['e:42', 'Marta', 2]]);
    expect(m.edges.filter((e) => e.kind === 'entity').map((e) => [e.source, e.target, e.dashed])).toEqual([
      ['m:s', 'e:42', true],
      ['e:42', 'm:x', true],
      ['e:42', 'm:y', true],
    ]);
    expect(nodeAriaLabel(entity[0])).toBe('Shared name: Marta, named in both memories');
    // without via: no entity node (the graph as before)
    expect(buildGraphModel({ query: 'q', results: [{ id: 's', label: 'a', score: 1, mode: 'standard', tags: [] }] }).nodes.some((n) => n.kind === 'entity')).toBe(false);
  });
});
