// Seed 001's rules on the one read path: asOf (validFrom <= asOf < validTo, open ends) applied
// where the candidates are produced, for the lexical and the vector lists alike; decay-aware
// ranking and its clock; earlier versions below their successor; quarantined memories out of
// every path unless includeQuarantined.
import { describe, expect, it } from 'vitest';
import { HybridIndex, type IndexDoc } from '../hybrid';
import { buildNeighbourMatrix, resolveRecallOptions } from '../recall';
import { validAt, isRecallable } from '../status';
import { mergeAssociative } from './associative';
import { lateralPass } from './lateral-pass';
import { runPipeline } from './pipeline';
import { SpaceIndex } from './space-index';
import { applyTime, decayFactor, DAY_MS, SUPERSEDED_FACTOR } from './temporal';
import type { PipelineContext } from './types';

const NOW = 1_700_000_000_000;
const deg = (d: number) => (d * Math.PI) / 180;
const at = (d: number) => new Float32Array([Math.cos(deg(d)), Math.sin(deg(d)), 0]);

type Over = Partial<IndexDoc>;
function doc(id: string, text: string, angle: number, over: Over = {}): IndexDoc {
  return { id, text, tags: [], importance: 1, createdAt: NOW, validFrom: 0, validTo: null, status: 'active', vector: at(angle), ...over };
}
function ctxOf(docs: IndexDoc[], now = NOW): PipelineContext {
  const hybrid = new HybridIndex(3, { candidateK: 2 }); // shallow lists: a filter after the top k would lose memories
  for (const d of docs) hybrid.upsert(d);
  return { hybrid, spaces: new SpaceIndex(), now, sessionOf: () => 's1' };
}

describe('asOf bounds (seed 001: valid_from <= asOf < valid_to, open-ended bounds allowed)', () => {
  it('includes from, excludes to; null ends are open; absent asOf keeps everything', () => {
    const d = { validFrom: 100, validTo: 200 };
    expect([99, 100, 150, 199, 200].map((t) => validAt(d, t))).toEqual([false, true, true, true, false]);
    expect(validAt({ validFrom: 100, validTo: null }, 1e15)).toBe(true); // open end
    expect(validAt({ validTo: 200 }, -1e15)).toBe(true); // no start = since always
    expect(validAt({ validFrom: 100, validTo: 200 }, undefined)).toBe(true);
    expect(validAt({ validFrom: 100, validTo: 200 }, null)).toBe(true);
    expect(isRecallable({ status: 'active', validFrom: 100, validTo: 200 }, { asOf: 200 })).toBe(false);
  });

  // Two memories valid only in 2020 match the query best; the 2024 one comes third. With lists of
  // depth 2, a filter applied after the top k would see only the 2020 pair and return nothing.
  const Y2020 = Date.UTC(2020, 0, 1);
  const Y2021 = Date.UTC(2021, 0, 1);
  const Y2024 = Date.UTC(2024, 0, 1);
  const docs = () => [
    doc('old1', 'lisbon apartment lisbon rent', 0, { validFrom: Y2020, validTo: Y2021 }),
    doc('old2', 'lisbon apartment lisbon', 2, { validFrom: Y2020, validTo: Y2021 }),
    doc('now', 'apartment in hamburg, lisbon before', 40, { validFrom: Y2024, validTo: null }),
  ];
  const june2024 = Date.UTC(2024, 5, 1);

  it('filters the lexical candidates before their top k', () => {
    const h = ctxOf(docs()).hybrid;
    expect(h.candidates({ text: 'lisbon apartment', vector: null }, { topK: 1 }).lexical.map((c) => c.id).sort()).toEqual(['old1', 'old2']);
    expect(h.candidates({ text: 'lisbon apartment', vector: null }, { topK: 1, asOf: june2024 }).lexical.map((c) => c.id)).toEqual(['now']);
  });

  it('filters the vector candidates before their top k', () => {
    const h = ctxOf(docs()).hybrid;
    expect(h.candidates({ text: '', vector: at(0) }, { topK: 1 }).dense.map((c) => c.id)).toEqual(['old1', 'old2']);
    expect(h.candidates({ text: '', vector: at(0) }, { topK: 1, asOf: june2024 }).dense.map((c) => c.id)).toEqual(['now']);
    expect(h.candidates({ text: '', vector: at(0) }, { topK: 1, asOf: Y2020 }).dense.map((c) => c.id)).toEqual(['old1', 'old2']);
  });

  it('recall with asOf returns the memory valid then, even when invalid ones fill the unfiltered lists', () => {
    const q = { text: 'lisbon apartment', features: { E1: at(0) } };
    const ranking = { depth: 2 };
    expect(runPipeline({ ...ctxOf(docs()), ranking }, q, { topK: 1, candidateK: 2 }).map((r) => r.id)).toEqual(['old1']);
    expect(runPipeline({ ...ctxOf(docs()), ranking }, q, { topK: 1, candidateK: 2, asOf: june2024 }).map((r) => r.id)).toEqual(['now']);
    // exclusive end: at 2021-01-01 the 2020 memories are over and the 2024 one has not begun
    expect(runPipeline({ ...ctxOf(docs()), ranking }, q, { topK: 3, asOf: Y2021 })).toEqual([]);
  });

  it('absent asOf: the output is byte-identical to before (and to an asOf every memory contains)', () => {
    const open = () => [doc('a', 'postgres index tuning', 0), doc('b', 'postgres vacuum', 15), doc('c', 'cache warmup', 35)];
    const q = { text: 'postgres index', features: { E1: at(0) } };
    const base = JSON.stringify(runPipeline(ctxOf(open()), q, { topK: 3 }));
    expect(JSON.stringify(runPipeline(ctxOf(open()), q, { topK: 3, asOf: null }))).toBe(base);
    expect(JSON.stringify(runPipeline(ctxOf(open()), q, { topK: 3, asOf: undefined }))).toBe(base);
    expect(JSON.stringify(runPipeline(ctxOf(open()), q, { topK: 3, asOf: NOW }))).toBe(base);
    const h = ctxOf(open()).hybrid;
    expect(JSON.stringify(h.search({ text: 'postgres', vector: at(0) }, { topK: 3 }))).toBe(
      JSON.stringify(h.search({ text: 'postgres', vector: at(0) }, { topK: 3, asOf: undefined })),
    );
  });

  it('validates asOf and decayTauDays with a message naming the option', () => {
    expect(() => resolveRecallOptions({ asOf: Number.NaN })).toThrow(/"asOf" must be a time in epoch milliseconds/);
    expect(() => resolveRecallOptions({ asOf: '2024-01-01' as unknown as number })).toThrow(/"asOf"/);
    expect(() => resolveRecallOptions({ asOf: Date.UTC(20260, 0, 1) })).toThrow(/years 1000 and 9999/);
    expect(() => resolveRecallOptions({ decayTauDays: -1 })).toThrow(/"decayTauDays" must be a number from 0 to 36500/);
    expect(resolveRecallOptions({}).asOf).toBeNull();
    expect(resolveRecallOptions({}).decayTauDays).toBe(0);
  });
});

describe('decay-aware ranking (score *= exp(-elapsedDays / tauDays))', () => {
  it('is the seed formula from the last access, stretched by strength; 1 when off', () => {
    expect(decayFactor(NOW - 30 * DAY_MS, NOW, 30)).toBeCloseTo(Math.exp(-1), 12); // 0.36788
    expect(decayFactor(NOW - 15 * DAY_MS, NOW, 30)).toBeCloseTo(Math.exp(-0.5), 12); // 0.60653
    expect(decayFactor(NOW - 30 * DAY_MS, NOW, 30, 2)).toBeCloseTo(Math.exp(-0.5), 12); // reinforced once
    expect(decayFactor(NOW - 30 * DAY_MS, NOW, 0)).toBe(1);
    expect(decayFactor(NOW + DAY_MS, NOW, 30)).toBe(1); // an access in the future does not boost
  });

  it('re-ranks by the clock it is given (the seam) and never drops a memory', () => {
    // equal matches; "fresh" opened yesterday, "stale" untouched for 90 days
    const docs = () => [
      doc('stale', 'garden notes', 0, { lastAccessedAt: NOW - 90 * DAY_MS }),
      doc('fresh', 'garden notes', 0, { lastAccessedAt: NOW - DAY_MS }),
    ];
    const q = { text: 'garden notes', features: { E1: at(0) } };
    const off = runPipeline(ctxOf(docs()), q, { topK: 2 });
    expect(off.map((r) => r.id)).toEqual(['fresh', 'stale']); // tie: id order
    expect(off[0].score).toBe(off[1].score);
    const on = runPipeline(ctxOf(docs()), q, { topK: 2, decayTauDays: 30 });
    expect(on.map((r) => r.id)).toEqual(['fresh', 'stale']);
    expect(on[1].score / on[0].score).toBeCloseTo(Math.exp(-89 / 30), 9);
    // the same memories 60 days earlier on the clock: "stale" was opened 30 days before, "fresh" not yet
    const past = runPipeline(ctxOf(docs(), NOW - 60 * DAY_MS), q, { topK: 2, decayTauDays: 30 });
    expect(past.map((r) => r.id)).toEqual(['fresh', 'stale']);
    expect(past[0].score).toBe(off[0].score); // its access is in that clock's future: factor 1
    expect(past[1].score).toBeCloseTo(off[1].score * Math.exp(-30 / 30), 9);
  });
});

describe('superseded versions', () => {
  it('rank below the memory that replaced them, x0.5 otherwise', () => {
    const hits = [
      { id: 'old', score: 0.9, mode: 'standard' as const, why: { lexical: 0, semantic: 0, bm25: 0, cosine: 0, matchedTerms: [] } },
      { id: 'cur', score: 0.4, mode: 'standard' as const, why: { lexical: 0, semantic: 0, bm25: 0, cosine: 0, matchedTerms: [] } },
    ];
    const docs: Record<string, IndexDoc> = { old: doc('old', 'x', 0, { supersededBy: 'cur' }), cur: doc('cur', 'y', 0) };
    const out = applyTime(hits, (id) => docs[id], { decayTauDays: 0 }, NOW);
    expect(out.map((h) => [h.id, h.score])).toEqual([
      ['cur', 0.4],
      ['old', 0.4 * SUPERSEDED_FACTOR],
    ]);
    expect(applyTime([hits[0]], (id) => docs[id], { decayTauDays: 0 }, NOW)[0].score).toBe(0.9 * SUPERSEDED_FACTOR);
    const plain = [hits[1]];
    expect(applyTime(plain, (id) => docs[id], { decayTauDays: 0 }, NOW)).toBe(plain); // nothing applies: untouched
  });
});

describe('earlier versions are history: no lateral result, no hop, while their memory passes the gate', () => {
  const docs = () => [
    doc('seed', 'tomato sauce', 0),
    doc('cur', 'garlic roasting', 5, { validFrom: 500, tags: ['kitchen'] }),
    doc('old', 'garlic roasting, first try', 5, { supersededBy: 'cur', validFrom: 0, validTo: 500, tags: ['kitchen'] }),
    doc('far', 'spreadsheet budget', 150, { tags: ['kitchen'] }),
    doc('farold', 'spreadsheet budget v1', 150, { supersededBy: 'far', tags: ['kitchen'] }),
  ];
  const q = { text: 'tomato sauce', features: { E1: at(0) } };
  const hops = (asOf?: number) =>
    runPipeline(ctxOf(docs()), q, { topK: 1, assocHops: 1, beamWidth: 4, minCosine: 0.9, ...(asOf !== undefined ? { asOf } : {}) })
      .filter((r) => r.mode === 'associative')
      .map((r) => r.id);

  it('a hop reaches the memory, not its old text; before the edit it reaches the old text', () => {
    expect(hops()).toEqual(['cur']);
    expect(hops(100)).toEqual(['old']);
  });

  it('lateral results leave earlier versions out', () => {
    const lateral = runPipeline(ctxOf(docs()), q, { profile: 'DIVERGENT', topK: 1, lateralMaxResults: 5, queryTags: ['kitchen'] }).filter((r) => r.mode === 'lateral');
    expect(lateral.map((r) => r.id)).toEqual(['far']);
  });
});

describe('quarantined memories: out of every read path unless includeQuarantined', () => {
  // "q" is the best match on every signal, and shares the tags lateral needs
  const docs = () => [
    doc('q', 'sourdough starter feeding', 0, { status: 'quarantined', tags: ['bread', 'patience'] }),
    doc('a', 'sourdough starter notes', 10, { tags: ['bread'] }),
    doc('b', 'rye starter', 20, { tags: ['bread'] }),
    doc('far', 'waiting for the tests to pass', 150, { tags: ['patience', 'bread'] }),
    doc('qfar', 'waiting on a slow build', 150, { status: 'quarantined', tags: ['patience', 'bread'] }),
  ];
  const q = { text: 'sourdough starter', features: { E1: at(0) } };

  it('search (the hybrid lists) and recall (standard results)', () => {
    const h = ctxOf(docs()).hybrid;
    expect(h.search({ text: 'sourdough starter', vector: at(0) }, { topK: 5 }).map((x) => x.id)).not.toContain('q');
    expect(h.search({ text: 'sourdough starter', vector: at(0) }, { topK: 5, includeQuarantined: true }).map((x) => x.id)).toContain('q');
    expect(runPipeline(ctxOf(docs()), q, { topK: 5 }).map((x) => x.id)).not.toContain('q');
    expect(runPipeline(ctxOf(docs()), q, { topK: 5, includeQuarantined: true }).map((x) => x.id)).toContain('q');
  });

  it('lateral results', () => {
    const lateral = (include: boolean) =>
      runPipeline(ctxOf(docs()), q, { profile: 'DIVERGENT', topK: 2, lateralMaxResults: 3, queryTags: ['patience'], includeQuarantined: include })
        .filter((r) => r.mode === 'lateral')
        .map((r) => r.id);
    expect(lateral(false)).toEqual(['far']);
    expect(lateral(true).sort()).toEqual(['far', 'qfar']);
    // the stage alone, over every id
    const c = ctxOf(docs());
    const src = { ids: () => c.hybrid.ids(), docOf: (id: string) => c.hybrid.doc(id), queryVector: at(0), matrix: () => buildNeighbourMatrix(c.hybrid.ids(), (id) => c.hybrid.vectorOf(id), () => 's1'), now: NOW };
    const o = resolveRecallOptions({ profile: 'DIVERGENT', topK: 2, queryTags: ['patience'] });
    expect(lateralPass([], o, src).results.map((r) => r.id)).not.toContain('qfar');
  });

  it('associative hops never walk to a quarantined memory', () => {
    const c = ctxOf(docs());
    const matrix = buildNeighbourMatrix(c.hybrid.ids(), (id) => c.hybrid.vectorOf(id), () => 's1');
    const why = { lexical: 0, semantic: 0, bm25: 0, cosine: 1, matchedTerms: [] };
    const seed = [{ id: 'a', score: 1, mode: 'standard' as const, why }];
    const hops = (include: boolean) =>
      mergeAssociative(seed, { matrix, docOf: (id) => c.hybrid.doc(id), scored: [], queryVector: at(0) }, resolveRecallOptions({ assocHops: 2, minCosine: 0.9, includeQuarantined: include }), { assocFloor: 0, assocMaxResults: 10 })
        .filter((r) => r.mode === 'associative')
        .map((r) => r.id);
    expect(hops(false)).toEqual(['b']); // a (10°) -> q (0°) is the nearest, but refused; b (20°) is next
    expect(hops(true)).toContain('q');
  });
});
