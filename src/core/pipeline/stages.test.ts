// The stages after the blend, fed hand-made hybrid hits (lexical = 1 when the text contains the
// query, semantic = max(cos, 0), fused = lw x lex + sw x semantic), so every expected value can be
// worked out by hand. runPipeline composes the same functions (pipeline.test.ts, recall.test.ts).
import { describe, expect, it, vi } from 'vitest';
import { buildNeighbourMatrix, FeedbackState, groupResults, LateralEvaluator, RecallOptions, assignGroups, type RecallDoc, type RecallOptionsInput, type RecallResult } from '../recall';
import type { MemoryId, ScoredHit } from '../types';
import { mergeAssociative } from './associative';
import { lateralPass, type LateralSource } from './lateral-pass';
import { pipelineOptions } from './pipeline';
import { standardPool } from './standard';

const NOW = 1_700_000_000_000;
const deg = (d: number) => (d * Math.PI) / 180;
const at = (d: number) => new Float32Array([Math.cos(deg(d)), Math.sin(deg(d))]);

interface Row extends RecallDoc {
  text: string;
  angle: number;
}
const doc = (text: string, angle: number, tags: string[], importance: number, extra: Partial<Row> = {}): Row => ({
  text, angle, tags, suggestedTags: [], importance, status: 'active', createdAt: NOW, deletedAt: null, ...extra,
});

const DOCS: Record<MemoryId, Row> = {
  a: doc('database index tuning', 0, ['db', 'perf'], 0.5),
  b: doc('query planner notes', 10, ['db'], 0.9),
  c: doc('cache warmup', 30, ['perf'], 0.2),
  d: doc('sharding plan', 60, [], 0.5, { suggestedTags: ['fs'] }),
  e: doc('distributed log', 95, ['ops'], 0.5),
  far: doc('btree file system layout', 120, ['db', 'perf', 'fs'], 1),
  far2: doc('sourdough recipe', 150, ['cooking'], 1),
  arch: doc('old database notes', 5, ['db'], 0.5, { status: 'archived' }),
  quar: doc('unverified claim', 3, ['db'], 0.5, { status: 'quarantined' }),
  del: doc('deleted thing', 2, ['db'], 0.5, { deletedAt: NOW }),
};
const docOf = (id: MemoryId) => DOCS[id];
const MATRIX = buildNeighbourMatrix(Object.keys(DOCS), (id) => at(DOCS[id].angle), () => 's1');

/** The hybrid's hits for `query`, with the options' weights, status gates ignored (the stages apply them). */
function hitsFor(query: string, q: Float32Array, o: RecallOptions): ScoredHit[] {
  const out: ScoredHit[] = [];
  for (const [id, d] of Object.entries(DOCS)) {
    const v = at(d.angle);
    const cos = q.length === 2 ? v[0] * q[0] + v[1] * q[1] : 0;
    const lex = d.text.includes(query) ? 1 : 0;
    const score = o.lexicalWeight * lex + o.semanticWeight * Math.max(cos, 0);
    if (score > 1e-9)
      out.push({ id, score, mode: 'standard', why: { lexical: o.lexicalWeight * lex, semantic: o.semanticWeight * cos, bm25: lex, cosine: cos, matchedTerms: lex ? [query] : [] } });
  }
  return out.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1)).slice(0, o.candidateK);
}

type Extra = Partial<Pick<LateralSource, 'feedback' | 'evaluator' | 'onLateralCheck'>>;

/** standardPool -> lateralPass -> grouping -> mergeAssociative, as runPipeline chains them. */
function rank(query: string, qv: Float32Array, options: RecallOptionsInput | RecallOptions = {}, extra: Extra = {}) {
  const asked = pipelineOptions(options);
  const o = extra.evaluator ? extra.evaluator.apply(asked) : asked;
  const scored = hitsFor(query, qv, o);
  const pool = standardPool(scored, docOf, o, extra.feedback);
  const pass = lateralPass(pool, o, { ids: () => Object.keys(DOCS), docOf, queryVector: qv, matrix: () => MATRIX, now: NOW, ...extra });
  let results: RecallResult[] = pass.results;
  if (o.groupBy === 'tag') results = assignGroups(results, docOf);
  results = mergeAssociative(results, { matrix: MATRIX, docOf, scored, queryVector: qv, feedback: extra.feedback }, o, { assocFloor: 0, assocMaxResults: 100 });
  return { results, queryTags: pass.queryTags };
}

const Q = at(0);
const ids = (rs: { id: string }[]) => rs.map((r) => r.id);

describe('standardPool: status gates and profiles', () => {
  it('ranks the hybrid pool, never returning archived, quarantined or deleted memories', () => {
    const r = rank('database', Q).results;
    expect(ids(r)).toEqual(['a', 'b', 'c', 'd']); // e, far, far2 score 0 (cos <= 0)
    expect(r[0].score).toBeCloseTo(1, 12);
    expect(r[1].score).toBeCloseTo(0.5 * Math.cos(deg(10)), 6);
    expect(r.every((x) => x.mode === 'standard')).toBe(true);
  });
  it('includes archived / quarantined only when asked', () => {
    expect(ids(rank('database', Q, { includeArchived: true }).results)).toEqual(['a', 'arch', 'b', 'c', 'd']);
    expect(ids(rank('database', Q, { includeQuarantined: true, topK: 2 }).results)).toEqual(['a', 'quar']);
  });
  it('DEBUGGING keeps only lexical matches when there is one', () => {
    expect(ids(rank('database', Q, { profile: 'DEBUGGING' }).results)).toEqual(['a']);
    // no lexical match anywhere -> nothing is dropped
    expect(ids(rank('zebra', Q, { profile: 'DEBUGGING' }).results)).toEqual(['a', 'b', 'c', 'd']);
  });
  it('CRITICAL weights by importance and drops hits under half the best', () => {
    const r = rank('database', Q, { profile: 'CRITICAL' }).results;
    // a: 1 * 0.75 = 0.75; b: 0.4924 * 0.95 = 0.4678; c: 0.4330 * 0.6 = 0.2598 < 0.375
    expect(ids(r)).toEqual(['a', 'b']);
    expect(r[1].score).toBeCloseTo(0.5 * Math.cos(deg(10)) * 0.95, 6);
  });
  it('accepts resolved options (builder output)', () => {
    expect(ids(rank('database', Q, RecallOptions.builder().profile('CRITICAL').topK(1).build()).results)).toEqual(['a']);
  });
  it('demotes a suppressed top hit, lifts a reinforced one', () => {
    const feedback = FeedbackState.fromEvents([
      { kind: 'suppress', id: 'a', reason: 'outdated', at: 1 },
      { kind: 'reinforce', id: 'd', valence: 100, at: 2 },
    ]);
    const r = rank('database', Q, {}, { feedback }).results;
    // a: 1 * 0.2 = 0.2; b 0.4924; c 0.4330; d: 0.25 * 1.2311 = 0.3078
    expect(ids(r)).toEqual(['b', 'c', 'd', 'a']);
    expect(r[3].feedbackFactor).toBe(0.2);
  });
});

describe('SYSTEMATIZER grouping', () => {
  it('groups by primary tag', () => {
    const r = rank('database', Q, { profile: 'SYSTEMATIZER' }).results;
    expect(r.map((x) => [x.id, x.group])).toEqual([
      ['a', 'db'], // db and perf both appear twice: tie -> 'db'
      ['b', 'db'],
      ['c', 'perf'],
      ['d', 'fs'], // suggested tag when no accepted tag
    ]);
    expect(groupResults(r).map((g) => [g.key, ids(g.results)])).toEqual([
      ['db', ['a', 'b']],
      ['perf', ['c']],
      ['fs', ['d']],
    ]);
  });
});

describe('lateralPass (DIVERGENT)', () => {
  it('appends distant memories sharing the derived query tags', () => {
    const rep = rank('database', Q, { profile: 'DIVERGENT' });
    // query tags from a [db, perf] (1), b [db] (1/2), c [perf] (1/3), d [fs suggested] (1/8)
    expect(rep.queryTags.map((t) => t.tag)).toEqual(['db', 'perf', 'fs']);
    expect(rep.results.map((x) => [x.id, x.mode])).toEqual([
      ['a', 'standard'],
      ['b', 'standard'],
      ['c', 'standard'],
      ['d', 'standard'],
      ['far', 'lateral'], // d = sqrt(3): 0.634 * overlap 1 * importance 1 * decay 1
    ]);
    const far = rep.results[4];
    expect(far.distance).toBeCloseTo(Math.sqrt(3), 5);
    expect(far.tagOverlap).toBe(1);
    expect(far.why.cosine).toBeCloseTo(-0.5, 5); // 120° from the query, recovered from d
    expect(far.score).toBeCloseTo(Math.sqrt(3) / (1 + Math.sqrt(3)), 5);
  });
  it('without a usable query vector nothing is far: lexical hits stay standard, no lateral', () => {
    for (const qv of [new Float32Array(2), new Float32Array(0)]) {
      const r = rank('database', qv, { profile: 'DIVERGENT' }).results;
      expect(r.map((x) => [x.id, x.mode])).toEqual([['a', 'standard']]);
    }
  });
  it('explicit query tags (the queryTags option, normalised) replace derived ones', () => {
    const r = rank('database', Q, { profile: 'DIVERGENT', queryTags: ['cooking'] }).results;
    expect(r.filter((x) => x.mode === 'lateral').map((x) => x.id)).toEqual(['far2']);
    expect(pipelineOptions({ queryTags: ['Cooking'] }).queryTags).toEqual(['cooking']);
  });
  it('BALANCED never enters the lateral branch', () => {
    const spy = vi.fn();
    rank('database', Q, {}, { onLateralCheck: spy });
    expect(spy).not.toHaveBeenCalled();
    rank('database', Q, { profile: 'DIVERGENT' }, { onLateralCheck: spy });
    expect(spy).toHaveBeenCalled();
  });
  it('feeds the evaluator and obeys its auto-disable', () => {
    const evaluator = new LateralEvaluator({ evaluationWindow: 2 });
    rank('database', Q, { profile: 'DIVERGENT' }, { evaluator });
    expect(evaluator.status().samples).toBe(1);
    expect(evaluator.wasLateral('far')).toBe(true);
    evaluator.recordSuppression('far');
    rank('database', Q, { profile: 'DIVERGENT' }, { evaluator }); // 0/2 with feedback -> disable
    expect(evaluator.enabled).toBe(false);
    expect(rank('database', Q, { profile: 'DIVERGENT' }, { evaluator }).results.some((x) => x.mode === 'lateral')).toBe(false);
  });
  it('a suppressed memory is never lateral; reinforcement boosts lateral scores', () => {
    const sup = FeedbackState.fromEvents([{ kind: 'suppress', id: 'far', at: 1 }]);
    expect(rank('database', Q, { profile: 'DIVERGENT' }, { feedback: sup }).results.some((x) => x.mode === 'lateral')).toBe(false);
    const rf = FeedbackState.fromEvents([{ kind: 'reinforce', id: 'far', valence: 100, at: 1 }]);
    const r = rank('database', Q, { profile: 'DIVERGENT' }, { feedback: rf }).results;
    expect(r[4].score).toBeCloseTo((Math.sqrt(3) / (1 + Math.sqrt(3))) * (1 + 0.5 * Math.tanh(0.5)), 5);
    expect(r[4].feedbackFactor).toBeCloseTo(1 + 0.5 * Math.tanh(0.5), 12);
  });
});

describe('mergeAssociative', () => {
  it('walks from the top results and merges with the blended hits by max', () => {
    const r = rank('database', Q, { topK: 2, assocHops: 2 }).results;
    // seeds a (1.0), b (0.4924). a -> c (cos 30° .866): .6928 > direct .433; c -> d (cos 30°): .48 > .25
    expect(r.map((x) => [x.id, x.mode])).toEqual([
      ['a', 'standard'],
      ['c', 'associative'],
      ['b', 'standard'],
      ['d', 'associative'],
    ]);
    const c30 = Math.cos(deg(30));
    expect(r[1].score).toBeCloseTo(c30 * 0.8, 5);
    expect(r[3].score).toBeCloseTo(c30 * 0.8 * c30 * 0.8, 5);
    expect(r[3].chain!.map((l) => [l.id, l.hop])).toEqual([['a', 0], ['c', 1], ['d', 2]]);
  });
  it('never walks to a gated or suppressed memory', () => {
    // from a (0°): arch (5°) and quar (3°) are nearer than b (10°), but gated; b suppressed too
    const feedback = FeedbackState.fromEvents([{ kind: 'suppress', id: 'b', at: 1 }]);
    const r = rank('database', Q, { topK: 1, assocHops: 1 }, { feedback }).results;
    // beam 2 from a: c (30°) and d? cos 60° = 0.5 < 0.72 -> only c
    expect(r.map((x) => [x.id, x.mode])).toEqual([['a', 'standard'], ['c', 'associative']]);
  });
  it('is deterministic across calls', () => {
    const o = { profile: 'DIVERGENT' as const, assocHops: 3, minCosine: 0.5 };
    expect(JSON.stringify(rank('database', Q, o).results)).toBe(JSON.stringify(rank('database', Q, o).results));
  });
  it('refuses bad options before any work', () => {
    expect(() => rank('database', Q, { assocHops: 9 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });
});
