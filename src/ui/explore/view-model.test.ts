import { describe, expect, it } from 'vitest';
import { buildGraphModel, nodeAriaLabel } from '../graph';
import type { DivergenceView, RecallView } from '../../services';
import { mergeOptions } from './explore-store';
import { graphInput, hopOf, labelOf, nothingClose, queryWordsKnown, resultRows } from './view-model';

function view(id: string, mode: 'standard' | 'lateral' | 'associative', extra: Partial<RecallView['result']> = {}, text = `memory ${id}`): RecallView {
  return {
    memory: { id, text, tags: ['t'], importance: 0.5, createdAt: 0, updatedAt: 0, status: 'active' } as unknown as RecallView['memory'],
    result: {
      id,
      score: 0.5,
      mode,
      spaces: { sims: {}, relevance: { score: 0, contributions: {}, activeWeight: 0, relevantSpaces: ['E7'], excluded: [], absent: [] }, relevant: true, highlyRelevant: false },
      hybridScore: 0,
      ...extra,
    } as unknown as RecallView['result'],
    explanation: '',
  };
}

describe('labelOf', () => {
  it('takes the first non-empty line without code fences and cuts at max with an ellipsis', () => {
    expect(labelOf('\n  Hello   world\nsecond')).toBe('Hello world');
    expect(labelOf('```ts\nconst a = 1;\n```\nAfter the code')).toBe('After the code');
    expect(labelOf('abcdefghij', 5)).toBe('abcd…');
  });
});

describe('hopOf', () => {
  it('is undefined for standard / lateral and the chain length for associative (the result is the last link)', () => {
    expect(hopOf(view('a', 'standard'))).toBeUndefined();
    const chain = [
      { id: 's', hop: 0, cosine: 0.8 },
      { id: 'm', hop: 1, cosine: 0.8 },
      { id: 'a', hop: 2, cosine: 0.8 },
    ];
    expect(hopOf(view('a', 'associative', { chain }))).toBe(3);
    // A chain that stops before the result: the result is one more hop.
    expect(hopOf(view('a', 'associative', { chain: chain.slice(0, 2) }))).toBe(3);
    expect(hopOf(view('a', 'associative'))).toBe(1);
  });
});

describe('graphInput', () => {
  const chain = [
    { id: 's', hop: 0, cosine: 0.9 },
    { id: 'x', hop: 1, cosine: 0.8 },
    { id: 'a', hop: 2, cosine: 0.75 },
  ];
  const views = [view('s', 'standard'), view('l', 'lateral'), view('a', 'associative', { chain })];
  const div: DivergenceView = {
    trigger: 'search',
    at: 0,
    alerts: [{ embedder: 'E1', embedderName: 'Semantic', similarity: 0.1, threshold: 0.3, recentMemorySummary: '', divergenceMagnitude: 0.2, message: '' }],
    recentIds: ['r1', 'r2'],
    recent: [
      { id: 'r1', label: 'recent one', createdAt: 1 },
      { id: 'r2', label: 'recent two', createdAt: 0 },
    ],
    show: true,
    reason: 'strong',
    agreeing: ['E1', 'E6', 'E13'],
    best: { E1: 0.1 },
    topic: 'sourdough',
    windowHours: 2,
  };

  it('draws lateral nodes with a dashed "lateral" edge, the chain with hops 1..3 and a divergence badge to the recent memories', () => {
    const model = buildGraphModel(graphInput({ query: 'q', views, divergence: div, extraLabels: new Map([['x', 'middle']]) }));
    const node = (id: string) => model.nodes.find((n) => n.id === id);
    expect(node('m:l')?.kind).toBe('lateral');
    const latEdge = model.edges.find((e) => e.target === 'm:l');
    expect(latEdge).toMatchObject({ kind: 'lateral', dashed: true, label: 'lateral' });
    expect(node('m:s')?.hop).toBe(1);
    expect(node('m:x')).toMatchObject({ hop: 2, label: 'middle', kind: 'associative' });
    expect(node('m:a')).toMatchObject({ hop: 3, kind: 'associative' });
    // one alert node naming the recent work (not one red triangle per space), linked to the recent memories
    expect(model.nodes.filter((n) => n.kind === 'alert').map((n) => n.label)).toEqual(['Far from recent work: sourdough']);
    expect(node('m:r1')).toMatchObject({ kind: 'recent', label: 'recent one', when: 1 });
  });

  it('draws no alert and no recent memories when the banner is not shown (weak evidence or dismissed)', () => {
    const quiet = buildGraphModel(graphInput({ query: 'q', views, divergence: { ...div, show: false, reason: 'too-few-spaces' } }));
    expect(quiet.nodes.some((n) => n.kind === 'alert' || n.kind === 'recent')).toBe(false);
  });

  it('passes the view\'s depth and kind / tag filters to the graph (default depth shows whole chains)', () => {
    expect(graphInput({ query: 'q', views, divergence: null }).depth).toBe(4);
    const lateralOnly = buildGraphModel(graphInput({ query: 'q', views, divergence: null, depth: 1, filters: { kinds: ['lateral'] } }));
    expect(lateralOnly.nodes.map((n) => n.id)).toEqual(['query', 'm:l']);
  });

  it('maps rows with mode, hop and the relevant spaces', () => {
    const rows = resultRows(views);
    expect(rows.map((r) => [r.mode, r.hop, r.relevantSpaces.join()])).toEqual([
      ['standard', undefined, 'E7'],
      ['lateral', undefined, 'E7'],
      ['associative', 3, 'E7'],
    ]);
  });

  it('marks an earlier version of a memory (an edit replaced it), and only that', () => {
    const old = view('old', 'standard');
    (old.memory as { supersededBy?: string }).supersededBy = 'cur';
    expect(resultRows([view('cur', 'standard'), old]).map((r) => r.earlier)).toEqual([undefined, true]);
  });

  it("marks it on the graph too: the node's name says it, the current version's does not", () => {
    const old = view('old', 'standard');
    (old.memory as { supersededBy?: string }).supersededBy = 'cur';
    const m = buildGraphModel(graphInput({ query: 'q', views: [view('cur', 'standard'), old], divergence: null }));
    const name = (id: string) => nodeAriaLabel(m.nodes.find((n) => n.id === id)!);
    expect(m.nodes.find((n) => n.id === 'm:old')?.earlier).toBe(true);
    expect(name('m:old')).toMatch(/, earlier version: an edit replaced it$/);
    expect(name('m:cur')).not.toMatch(/earlier/);
  });
});

describe('mergeOptions', () => {
  it('sets given keys and drops undefined ones (back to the profile default)', () => {
    expect(mergeOptions({ profile: 'DIVERGENT', assocHops: 2 }, { assocHops: undefined, topK: 5 })).toEqual({ profile: 'DIVERGENT', topK: 5 });
  });
});

describe('nothingClose', () => {
  const noSpaces: Partial<RecallView['result']> = { spaces: { sims: {}, relevance: { score: 0, contributions: {}, activeWeight: 0, relevantSpaces: [], excluded: [], absent: [] }, relevant: false, highlyRelevant: false } as unknown as RecallView['result']['spaces'] };
  const noise = { matchedTerms: [], bm25: 0, lexical: 0, semantic: 0.5, cosine: 0.12 };
  it('"zzqx blorp": no word, cosine 0.12, no space above threshold, a lateral beside it -> nothing close', () => {
    const rows = resultRows([view('a', 'standard', { ...noSpaces, why: noise }), view('b', 'lateral', { ...noSpaces, why: noise })]);
    expect(rows.map((r) => r.close)).toEqual([false, false]);
    expect(nothingClose(rows)).toBe(true);
  });
  it('one standard hit with a matched word, cosine 0.31, or a space above threshold is close', () => {
    expect(nothingClose(resultRows([view('a', 'standard', { ...noSpaces, why: { ...noise, matchedTerms: ['car'], bm25: 1.2 } })]))).toBe(false);
    const known = { spaces: { ...noSpaces.spaces!, sims: { E12: 0.4 } } } as Partial<RecallView['result']>;
    expect(nothingClose(resultRows([view('a', 'standard', { ...known, why: { ...noise, cosine: 0.31 } })]))).toBe(false);
    expect(nothingClose(resultRows([view('a', 'standard', { why: noise })]))).toBe(false); // E7 above its threshold
  });
  it('a query with no word the app knows (no E12 anywhere): a cosine of 0.47 is noise, only a matched word is close', () => {
    // "zzqx blorp" on the sample: cosine 0.47 to a code note, no word vector for either word
    const zz = { ...noSpaces, why: { ...noise, cosine: 0.47 } };
    expect(queryWordsKnown([view('a', 'standard', zz)])).toBe(false);
    expect(nothingClose(resultRows([view('a', 'standard', zz), view('b', 'standard', zz)]))).toBe(true);
    // "Priya": no word vector, but the name matched a word of the memory
    expect(nothingClose(resultRows([view('a', 'standard', { ...zz, why: { ...noise, matchedTerms: ['priya'], bm25: 2.1 } })]))).toBe(false);
  });
  it('no results is not "nothing close" (that is the empty message)', () => {
    expect(nothingClose([])).toBe(false);
  });
});
