import { describe, expect, it, vi } from 'vitest';
import type { MemoryId, ScoredHit } from '../types';
import { LateralEvaluator } from './evaluator';
import { FeedbackState } from './feedback';
import { groupResults } from './group';
import { recall, recallDetailed } from './recall';
import { RecallOptions } from './options';
import type { HybridParams, RecallDoc, RecallIndexLike } from './types';

const NOW = 1_700_000_000_000;
const deg = (d: number) => (d * Math.PI) / 180;
const at = (d: number) => new Float32Array([Math.cos(deg(d)), Math.sin(deg(d))]);

interface Row extends RecallDoc {
  text: string;
  angle: number;
}
const doc = (text: string, angle: number, tags: string[], importance: number, extra: Partial<Row> = {}): Row => ({
  text, angle, tags, suggestedTags: [], importance, status: 'active', sessionId: 's1', createdAt: NOW, deletedAt: null, ...extra,
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

/** A tiny hybrid: lexical = 1 if the text contains the query, semantic = max(cos, 0). */
class FakeIndex implements RecallIndexLike {
  vectorCalls = 0;
  lastParams: HybridParams | null = null;
  ids() {
    return Object.keys(DOCS);
  }
  vectorOf(id: MemoryId) {
    this.vectorCalls++;
    return DOCS[id] ? at(DOCS[id].angle) : undefined;
  }
  doc(id: MemoryId) {
    return DOCS[id];
  }
  search(query: string, q: Float32Array, p: HybridParams): ScoredHit[] {
    this.lastParams = p;
    const out: ScoredHit[] = [];
    for (const [id, d] of Object.entries(DOCS)) {
      const v = at(d.angle);
      const cos = q.length === 2 ? v[0] * q[0] + v[1] * q[1] : 0;
      const lex = d.text.includes(query) ? 1 : 0;
      const score = p.lexicalWeight * lex + p.semanticWeight * Math.max(cos, 0);
      if (score > 1e-9)
        out.push({ id, score, mode: 'standard', why: { lexical: p.lexicalWeight * lex, semantic: p.semanticWeight * cos, bm25: lex, cosine: cos, matchedTerms: lex ? [query] : [] } });
    }
    return out.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1)).slice(0, p.candidateK);
  }
}

const Q = at(0);
const ids = (rs: { id: string }[]) => rs.map((r) => r.id);

describe('recall: BALANCED and status gates', () => {
  it('ranks the hybrid pool, never returning archived, quarantined or deleted memories', () => {
    const ix = new FakeIndex();
    const r = recall(ix, 'database', Q);
    expect(ids(r)).toEqual(['a', 'b', 'c', 'd']); // e, far, far2 score 0 (cos <= 0)
    expect(r[0].score).toBeCloseTo(1, 12);
    expect(r[1].score).toBeCloseTo(0.5 * Math.cos(deg(10)), 6);
    expect(r.every((x) => x.mode === 'standard')).toBe(true);
    expect(ix.lastParams).toEqual({ candidateK: 50, lexicalWeight: 0.5, semanticWeight: 0.5, includeArchived: false, includeQuarantined: false });
    expect(ix.vectorCalls).toBe(0); // no lateral, no hops: no vector work at all
  });
  it('includes archived / quarantined only when asked', () => {
    expect(ids(recall(new FakeIndex(), 'database', Q, { includeArchived: true }))).toEqual(['a', 'arch', 'b', 'c', 'd']);
    expect(ids(recall(new FakeIndex(), 'database', Q, { includeQuarantined: true, topK: 2 }))).toEqual(['a', 'quar']);
  });
});

describe('profiles change the ranking as documented', () => {
  it('DEBUGGING keeps only lexical matches when there is one', () => {
    const r = recall(new FakeIndex(), 'database', Q, { profile: 'DEBUGGING' });
    expect(ids(r)).toEqual(['a']);
    // no lexical match anywhere -> nothing is dropped
    expect(ids(recall(new FakeIndex(), 'zebra', Q, { profile: 'DEBUGGING' }))).toEqual(['a', 'b', 'c', 'd']);
  });
  it('CRITICAL weights by importance and drops hits under half the best', () => {
    const r = recall(new FakeIndex(), 'database', Q, { profile: 'CRITICAL' });
    // a: 1 * 0.75 = 0.75; b: 0.4924 * 0.95 = 0.4678; c: 0.4330 * 0.6 = 0.2598 < 0.375
    expect(ids(r)).toEqual(['a', 'b']);
    expect(r[1].score).toBeCloseTo(0.5 * Math.cos(deg(10)) * 0.95, 6);
  });
  it('SYSTEMATIZER groups by primary tag', () => {
    const r = recall(new FakeIndex(), 'database', Q, { profile: 'SYSTEMATIZER' });
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

describe('DIVERGENT: lateral retrieval in recall', () => {
  it('appends distant memories sharing the derived query tags', () => {
    const rep = recallDetailed(new FakeIndex(), 'database', Q, { profile: 'DIVERGENT' }, { now: NOW });
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
      const r = recall(new FakeIndex(), 'database', qv, { profile: 'DIVERGENT' }, { now: NOW });
      expect(r.map((x) => [x.id, x.mode])).toEqual([['a', 'standard']]);
    }
  });

  it('explicit query tags replace derived ones', () => {
    const r = recall(new FakeIndex(), 'database', Q, { profile: 'DIVERGENT', queryTags: ['cooking'] }, { now: NOW });
    expect(r.filter((x) => x.mode === 'lateral').map((x) => x.id)).toEqual(['far2']);
  });
  it('BALANCED never enters the lateral branch', () => {
    const spy = vi.fn();
    recall(new FakeIndex(), 'database', Q, {}, { onLateralCheck: spy });
    expect(spy).not.toHaveBeenCalled();
    recall(new FakeIndex(), 'database', Q, { profile: 'DIVERGENT' }, { onLateralCheck: spy, now: NOW });
    expect(spy).toHaveBeenCalled();
  });
  it('feeds the evaluator and obeys its auto-disable', () => {
    const ev = new LateralEvaluator({ evaluationWindow: 2 });
    recall(new FakeIndex(), 'database', Q, { profile: 'DIVERGENT' }, { now: NOW, evaluator: ev });
    expect(ev.status().samples).toBe(1);
    expect(ev.wasLateral('far')).toBe(true);
    ev.recordSuppression('far');
    recall(new FakeIndex(), 'database', Q, { profile: 'DIVERGENT' }, { now: NOW, evaluator: ev }); // 0/2 with feedback -> disable
    expect(ev.enabled).toBe(false);
    const r = recall(new FakeIndex(), 'database', Q, { profile: 'DIVERGENT' }, { now: NOW, evaluator: ev });
    expect(r.some((x) => x.mode === 'lateral')).toBe(false);
  });
  it('a suppressed memory is never lateral; reinforcement boosts lateral scores', () => {
    const sup = FeedbackState.fromEvents([{ kind: 'suppress', id: 'far', at: 1 }]);
    expect(recall(new FakeIndex(), 'database', Q, { profile: 'DIVERGENT' }, { now: NOW, feedback: sup }).some((x) => x.mode === 'lateral')).toBe(false);
    const rf = FeedbackState.fromEvents([{ kind: 'reinforce', id: 'far', valence: 100, at: 1 }]);
    const r = recall(new FakeIndex(), 'database', Q, { profile: 'DIVERGENT' }, { now: NOW, feedback: rf });
    expect(r[4].score).toBeCloseTo((Math.sqrt(3) / (1 + Math.sqrt(3))) * (1 + 0.5 * Math.tanh(0.5)), 5);
    expect(r[4].feedbackFactor).toBeCloseTo(1 + 0.5 * Math.tanh(0.5), 12);
  });
});

describe('feedback changes future ranking', () => {
  it('demotes a suppressed top hit, lifts a reinforced one', () => {
    const fb = FeedbackState.fromEvents([
      { kind: 'suppress', id: 'a', reason: 'outdated', at: 1 },
      { kind: 'reinforce', id: 'd', valence: 100, at: 2 },
    ]);
    const r = recall(new FakeIndex(), 'database', Q, {}, { feedback: fb });
    // a: 1 * 0.2 = 0.2; b 0.4924; c 0.4330; d: 0.25 * 1.2311 = 0.3078
    expect(ids(r)).toEqual(['b', 'c', 'd', 'a']);
    expect(r[3].feedbackFactor).toBe(0.2);
  });
});

describe('associative hops in recall', () => {
  it('walks from the top results and merges with the pool by max', () => {
    const r = recall(new FakeIndex(), 'database', Q, { topK: 2, assocHops: 2 });
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
  it('is deterministic across calls', () => {
    const o = { profile: 'DIVERGENT' as const, assocHops: 3, minCosine: 0.5 };
    const a = JSON.stringify(recall(new FakeIndex(), 'database', Q, o, { now: NOW }));
    expect(JSON.stringify(recall(new FakeIndex(), 'database', Q, o, { now: NOW }))).toBe(a);
  });
  it('accepts resolved options (builder output) and precomputed hits', () => {
    const o = RecallOptions.builder().profile('CRITICAL').topK(1).build();
    const ix = new FakeIndex();
    expect(ids(recall(ix, 'database', Q, o))).toEqual(['a']);
    const hits: ScoredHit[] = [{ id: 'c', score: 0.3, mode: 'standard', why: { lexical: 0, semantic: 0.3, bm25: 0, cosine: 0.9, matchedTerms: [] } }];
    const ix2 = new FakeIndex();
    expect(ids(recall(ix2, 'database', Q, {}, { hits }))).toEqual(['c']);
    expect(ix2.lastParams).toBeNull(); // search was not called
  });

  it('refuses bad options before any work', () => {
    const ix = new FakeIndex();
    expect(() => recall(ix, 'database', Q, { assocHops: 9 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    expect(ix.lastParams).toBeNull();
  });
});
