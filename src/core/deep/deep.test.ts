import { describe, expect, it } from 'vitest';
import { entityLookupFromMap } from '../entities';
import { AppError } from '../errors';
import type { MemoryId } from '../types';
import {
  confidenceOf,
  deepSearch,
  sigmoid,
  DEEP_SEARCH_DEFAULTS,
  expandPool,
  mergeDeep,
  OfflineReader,
  poolIdf,
  readOffline,
  resolveDeepSearch,
  SessionRateLimiter,
  shouldEscalate,
  trimToBudget,
  type DeepSearchInput,
  type PoolDoc,
  type Reader,
  type ReaderCandidate,
} from '.';

const timers = { setTimeout: (f: () => void, ms: number) => setTimeout(f, ms), clearTimeout: (h: never) => clearTimeout(h) };

// three sessions a, b, c of five turns each (a0..a4 at t = 0..4, b at 100.., c at 200..)
function docs(): PoolDoc[] {
  const out: PoolDoc[] = [];
  ['a', 'b', 'c'].forEach((s, si) => {
    for (let i = 0; i < 5; i++) out.push({ id: `${s}${i}`, sessionId: s, createdAt: si * 100 + i, status: 'active', deletedAt: null, validFrom: 0, validTo: null });
  });
  return out;
}

describe('trigger (seed 003 A)', () => {
  it('a calibrated model gives sigmoid(bias + wTop top + wGap gap + wCount count), worked by hand', () => {
    const model = { bias: -2, top: 4, gap: 2, count: 1, spread: 0 };
    // top 0.5, gap (0.5 - 0.25) / 0.5 = 0.5, count 2 / 10 = 0.2: z = -2 + 2 + 1 + 0.2 = 1.2
    expect(confidenceOf([0.5, 0.25], 10, model).value).toBeCloseTo(1 / (1 + Math.exp(-1.2)), 12);
    // spread = (s1 - s_last) / s1 = 0.5 here; weighted -3 it lowers z to 1.2 - 1.5 = -0.3
    expect(confidenceOf([0.5, 0.25], 10, { ...model, spread: -3 })).toMatchObject({ spread: 0.5, value: expect.closeTo(1 / (1 + Math.exp(0.3)), 12) });
    // the spread reads the K-th score, not a later one: [1, 0.8, 0.1] at K 2 -> (1 - 0.8) / 1 = 0.2
    expect(confidenceOf([1, 0.8, 0.1], 2).spread).toBeCloseTo(0.2, 12);
    // one result: gap 1, count 1 / 10: z = -2 + 4 x 0.9 + 2 + 0.1 = 3.7
    expect(confidenceOf([0.9], 10, model).value).toBeCloseTo(1 / (1 + Math.exp(-3.7)), 12);
    // nothing found is 0 whatever the model says (sigmoid(-2) would be 0.12)
    expect(confidenceOf([], 10, model).value).toBe(0);
    // ten weak results: top 0.1, gap (0.1 - 0.09) / 0.1 = 0.1, count 1: z = -2 + 0.4 + 0.2 + 1 = -0.4 -> 0.401
    expect(confidenceOf(Array.from({ length: 10 }, (_, i) => 0.1 - i * 0.001).map((s, i) => (i === 1 ? 0.09 : s)), 10, model).value).toBeCloseTo(1 / (1 + Math.exp(0.4)), 12);
  });
  it('sigmoid is the logistic function and never overflows', () => {
    expect(sigmoid(0)).toBe(0.5);
    expect(sigmoid(Math.log(3))).toBeCloseTo(0.75, 12);
    expect(sigmoid(-Math.log(3))).toBeCloseTo(0.25, 12);
    expect(sigmoid(1000)).toBe(1);
    expect(sigmoid(-1000)).toBe(0);
    expect(sigmoid(Number.POSITIVE_INFINITY)).toBe(1);
    expect(sigmoid(Number.NaN)).toBe(0);
  });
  it('confidence = 0.5 top + 0.3 gap + 0.2 count, worked by hand', () => {
    // top 0.8, gap (0.8 - 0.4) / 0.8 = 0.5, count 2 / 10 = 0.2
    expect(confidenceOf([0.8, 0.4], 10).value).toBeCloseTo(0.4 + 0.15 + 0.04, 12);
    // top 0.2, gap 0.05, count 0.3
    expect(confidenceOf([0.2, 0.19, 0.18], 10).value).toBeCloseTo(0.1 + 0.015 + 0.06, 12);
    expect(confidenceOf([], 10).value).toBe(0);
    // one result: gap 1; a score above 1 is clipped
    expect(confidenceOf([1.7], 1).value).toBeCloseTo(1, 12);
  });

  it('escalates only strictly below the threshold', () => {
    expect(shouldEscalate(0.29, 0.3)).toBe(true);
    expect(shouldEscalate(0.3, 0.3)).toBe(false);
    expect(shouldEscalate(0.59, 0.3)).toBe(false);
  });
});

describe('options', () => {
  it('defaults: off, 0.3, pool 50, 8192 tokens, 10 s, 5 per session', () => {
    expect(resolveDeepSearch(undefined)).toEqual({ mode: 'off', threshold: 0.3, poolCap: 50, tokenBudget: 8192, timeoutMs: 10_000, rateLimit: 5, weight: 0.5, reserveSlots: 0, keepTop: 6 });
    expect(resolveDeepSearch({ mode: 'active', threshold: 0.5 })).toEqual({ ...DEEP_SEARCH_DEFAULTS, mode: 'active', threshold: 0.5 });
  });

  it('refuses bad values with a message naming the field and the rule', () => {
    const msg = (v: unknown) => {
      try {
        resolveDeepSearch(v);
      } catch (e) {
        expect(e).toBeInstanceOf(AppError);
        expect((e as AppError).code).toBe('INVALID_OPTION');
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(msg({ mode: 'on' })).toBe('Recall option "deepSearch.mode" must be "off", "shadow", "active" or "adaptive"; got "on".');
    expect(msg({ threshold: 1.5 })).toContain('"deepSearch.threshold" must be a number from 0 to 1');
    expect(msg({ poolCap: 0 })).toContain('"deepSearch.poolCap" must be a whole number from 1 to 500');
    expect(msg({ timeoutMs: 2.5 })).toContain('deepSearch.timeoutMs');
    expect(msg({ pool: 3 })).toContain('"deepSearch.pool" is unknown');
    expect(msg('active')).toContain('must be an object');
  });
});

describe('expansion (seed 003 B)', () => {
  it('temporal: turns either side in the session, then the adjacent sessions nearest in time', () => {
    const pool = expandPool(['b2'], { docs: docs() }, {}, { seeds: 1 });
    expect(pool.map((p) => p.id)).toEqual(['b2', 'b1', 'b3', 'b0', 'b4', 'a4', 'a3', 'c0', 'c1']);
    expect(pool[0].primaryRank).toBe(0);
    expect(pool[1].via).toEqual([{ strategy: 'temporal', seed: 'b2', detail: '1 turn before' }]);
    expect(pool[5].via[0].detail).toBe('the session before');
  });

  it('entity and community strategies take turns with the temporal one; the pool respects the cap', () => {
    const ents = entityLookupFromMap(new Map<MemoryId, number[]>([['a0', [7]], ['c4', [7]], ['b2', []]]));
    const community = (id: MemoryId) => (id === 'a0' || id === 'c3' ? 1 : undefined);
    const pool = expandPool(['a0'], { docs: docs(), entities: ents, communityOf: community }, {}, { seeds: 1, cap: 4 });
    // a0, then temporal a1, entity c4, community c3 (round robin), cap 4
    expect(pool.map((p) => p.id)).toEqual(['a0', 'a1', 'c4', 'c3']);
    expect(pool[2].via[0].strategy).toBe('entity');
    expect(pool[3].via[0]).toEqual({ strategy: 'community', seed: 'a0', detail: 'community 1' });
    for (const cap of [1, 3, 7]) expect(expandPool(['a0', 'b0'], { docs: docs(), entities: ents }, {}, { cap }).length).toBe(cap);
  });

  it('rules: every constraint in scope is read right after the primary results, whatever the seeds (newest first past `rules`)', () => {
    const d = docs();
    Object.assign(d.find((x) => x.id === 'c1')!, { status: 'archived' });
    // c4 and c1 share no session, name or group with the seed b2; c1 is archived (out of scope), b3 is primary-adjacent
    const pool = expandPool(['b2'], { docs: d, constraints: ['c4', 'c1', 'a0', 'b2'] }, {}, { seeds: 1, cap: 5 });
    // b2 (primary: gains no way), then the rules in scope newest first (c4 at 204, a0 at 0), then temporal b1, b3
    expect(pool.map((p) => p.id)).toEqual(['b2', 'c4', 'a0', 'b1', 'b3']);
    expect(pool[0].via).toEqual([]);
    expect(pool[1].via).toEqual([{ strategy: 'rule', seed: 'c4', detail: 'a rule to keep in mind' }]);
    // at most `rules`: the newest one only
    expect(expandPool(['b2'], { docs: d, constraints: ['a0', 'c4'] }, {}, { seeds: 1, rules: 1 }).filter((p) => p.via.some((v) => v.strategy === 'rule')).map((p) => p.id)).toEqual(['c4']);
  });

  it('scope: never deleted, archived, quarantined (unless asked) or outside asOf: zero violations', () => {
    const d = docs();
    const set = (id: string, patch: Partial<PoolDoc>) => Object.assign(d.find((x) => x.id === id)!, patch);
    set('b1', { deletedAt: 5 });
    set('b3', { status: 'archived' });
    set('a4', { status: 'quarantined' });
    set('c0', { validFrom: 500 }); // not yet valid at asOf 300
    set('b4', { validTo: 200 }); // no longer valid at 300
    const ents = entityLookupFromMap(new Map<MemoryId, number[]>(d.map((x) => [x.id, [1, 2]])));
    const all = (id: MemoryId) => (id ? 1 : undefined);
    const bad = new Set(['b1', 'b3', 'a4', 'c0', 'b4']);
    const pool = expandPool(['b2', 'b1', 'a4'], { docs: d, entities: ents, communityOf: all }, { asOf: 300 }, { cap: 50 });
    expect(pool.filter((p) => bad.has(p.id))).toEqual([]);
    expect(pool.length).toBe(15 - bad.size);
    // asked: archived and quarantined come back, deleted never
    const asked = expandPool(['b2'], { docs: d, communityOf: all }, { includeArchived: true, includeQuarantined: true }, { cap: 50 }).map((p) => p.id);
    expect(asked).toContain('b3');
    expect(asked).toContain('a4');
    expect(asked).not.toContain('b1');
  });
});

describe('offline reader (seed 003 C)', () => {
  it('scores words, names and time with reasons; parts it cannot judge are left out', () => {
    const q = { text: 'Caroline painting in May 2023', features: { E11: { entities: Uint32Array.from([5]), triples: { count: 0, dim: 0, heads: new Float32Array(), tails: new Float32Array(), relations: new Uint32Array() } } } };
    const c: ReaderCandidate = { id: 'x', text: 'She painted a sunrise', createdAt: Date.UTC(2023, 4, 8), features: { E11: { entities: Uint32Array.from([5, 9]), triples: q.features.E11.triples } } };
    const r = readOffline(q, c);
    // query terms: carolin, paint, mai, 2023 -> "painted" stems to paint: 1 of 4
    expect(r.parts.words).toBeCloseTo(1 / 4, 12);
    expect(r.parts.names).toBe(1);
    expect(r.parts.time).toBe(1);
    expect(r.parts.meaning).toBeUndefined();
    // weighted mean over words .35, names .1, time .1 and the E11 space .1
    const spaces = r.parts.spaces!;
    expect(r.score).toBeCloseTo((0.35 * 0.25 + 0.1 + 0.1 + 0.1 * spaces) / 0.65, 12);
    expect(r.reasons[0]).toBe('mentions 1 of the names in the question');
    expect(r.reasons).toContain('shares the words painting');
  });
});

describe('offline reader, the late part (MaxSim over token matrices)', () => {
  // dim 2; query tokens 7 (1, 0) and 8 (0, 1)
  const m = (ids: number[], rows: number[][]) => ({ ids, vectors: Float32Array.from(rows.flat()), dim: 2 });
  const q = { text: 'paint', features: {}, tokens: m([7, 8], [[1, 0], [0, 1]]) };
  const c1: ReaderCandidate = { id: 'c1', text: 'I paint', createdAt: 0, tokens: m([7, 9], [[1, 0], [0.6, 0.8]]) };
  const c2: ReaderCandidate = { id: 'c2', text: 'nothing', createdAt: 0, tokens: m([9], [[0, 1]]) };
  const c3: ReaderCandidate = { id: 'c3', text: 'no matrix', createdAt: 0, tokens: { ids: [7], vectors: new Float32Array(0), dim: 2 } };
  it('idf among the pool members with a full matrix: ln(3 / 1.5), ln(3 / 0.5)', () => {
    // N = 2 (c3 has token ids only); df(7) = 1 (c1), df(8) = 0
    const idf = poolIdf(q, [c1, c2, c3])!;
    expect(idf[0]).toBeCloseTo(Math.log(2), 12);
    expect(idf[1]).toBeCloseTo(Math.log(6), 12);
    expect(poolIdf({ text: 'x', features: {} }, [c1])).toBeNull();
  });
  it('late = weighted MaxSim, weight 2 in the mean; no matrix = no late part', () => {
    const scores = new OfflineReader().readSync(q, [c1, c2, c3]);
    const [l2, l6] = [Math.log(2), Math.log(6)];
    // c1: token 7 best 1 (itself), token 8 best 0.8 (0.6, 0.8); words: "paint" 1 of 1
    const late1 = (l2 * 1 + l6 * 0.8) / (l2 + l6); // 0.8557886
    expect(late1).toBeCloseTo(0.8557886, 6);
    expect(scores[0].score).toBeCloseTo((0.35 * 1 + 2 * late1) / 2.35, 6); // float32 vectors
    expect(scores[0].reasons).toContain('its words answer the question\'s closely (0.86)');
    // c2: token 7 best 0, token 8 best 1; words 0 of 1
    expect(scores[1].score).toBeCloseTo((0.35 * 0 + (2 * l6) / (l2 + l6)) / 2.35, 12);
    // c3: words 0 only
    expect(scores[2].score).toBe(0);
    // without the query's matrix the reader is what it was: words only
    expect(new OfflineReader().readSync({ text: 'paint', features: {} }, [c1])[0].score).toBe(1);
  });
});

describe('merge (seed 003 D)', () => {
  const primary = [
    { id: 'p1', score: 0.8 },
    { id: 'p2', score: 0.4 },
    { id: 'p3', score: 0.2 },
  ];
  it('weighted blend; a duplicate keeps the higher score', () => {
    const out = mergeDeep(primary, [{ id: 'd1', score: 0.9, reasons: ['r'] }, { id: 'p3', score: 0.7, reasons: [] }, { id: 'p1', score: 0.1, reasons: [] }], { weight: 0.5, topK: 3 });
    // each list over its best (primary 0.8, reader 0.9): p1 max(0.5 x 1, 0.5 x 0.1 / 0.9) = 0.5,
    // d1 0.5 x 0.9 / 0.9 = 0.5 (ties: id), p3 max(0.5 x 0.25, 0.5 x 0.7 / 0.9) = 0.389; p2 0.25 drops out
    expect(out.map((h) => [h.id, h.score, h.source])).toEqual([
      ['d1', 0.5, 'deep'],
      ['p1', 0.5, 'primary'],
      ['p3', (0.5 * 0.7) / 0.9, 'deep'],
    ]);
  });
  it('a constraint the reader finds relevant always surfaces', () => {
    const isConstraint = (id: MemoryId) => id === 'rule';
    // weight 0.2: rule 0.2 x 0.31 = 0.062 < p3's 0.8 x 0.25 = 0.2, so the blend alone leaves it out
    const out = mergeDeep(primary, [{ id: 'rule', score: 0.31, reasons: [] }], { weight: 0.2, topK: 3, isConstraint });
    expect(out.map((h) => h.id)).toEqual(['p1', 'p2', 'rule']);
    expect(out[2].source).toBe('constraint');
    // not relevant (below the floor 0.3): left out
    expect(mergeDeep(primary, [{ id: 'rule', score: 0.29, reasons: [] }], { weight: 0.2, topK: 3, isConstraint }).map((h) => h.id)).toEqual(['p1', 'p2', 'p3']);
  });
});

describe('bounds (seed 003 E)', () => {
  it('the pool is trimmed to the token budget, lowest priority first', () => {
    const pool = [{ text: 'x'.repeat(40) }, { text: 'y'.repeat(40) }, { text: 'z'.repeat(40) }];
    // query 4 chars = 1 token; each candidate 10 + 8 = 18 tokens
    expect(trimToBudget('abcd', pool, 1 + 36).length).toBe(2);
    expect(trimToBudget('abcd', pool, 1 + 35).length).toBe(1);
  });
  it('the rate limit is per session', () => {
    const l = new SessionRateLimiter(5);
    expect([1, 2, 3, 4, 5, 6].map(() => l.take('s1'))).toEqual([true, true, true, true, true, false]);
    expect(l.take('s2')).toBe(true);
  });
});

describe('deepSearch (seed 003 validation list)', () => {
  const d = docs();
  const candidateOf = (id: MemoryId): ReaderCandidate | undefined => {
    const x = d.find((y) => y.id === id);
    return x && { id, text: id === 'c4' ? 'the answer is here' : `turn ${id}`, createdAt: x.createdAt };
  };
  // confidence 0.5 x 0.1 + 0.3 x 0.1 + 0.2 x 1 = 0.28 < 0.3
  const weak = [
    { id: 'c3', score: 0.1 },
    { id: 'a0', score: 0.09 },
  ];
  const input = (over: Partial<DeepSearchInput> = {}): DeepSearchInput => ({
    query: { text: 'where is the answer', features: {} },
    primary: weak,
    topK: 2,
    options: { ...DEEP_SEARCH_DEFAULTS, mode: 'active' },
    source: { docs: d },
    scope: {},
    candidateOf,
    reader: new OfflineReader(),
    timers,
    ...over,
  });

  it('only triggers when the confidence is below the threshold', async () => {
    const strong = [
      { id: 'c3', score: 0.9 },
      { id: 'a0', score: 0.2 },
    ];
    const out = await deepSearch(input({ primary: strong }));
    expect(out.report.status).toBe('confident');
    expect(out.report.pool).toEqual([]);
    const low = await deepSearch(input());
    expect(low.report.status).toBe('merged');
    // c4 (next to c3 in its session) holds "answer", the query's one content word: reader score 1,
    // blended 0.5 x 1 = 0.5, level with c3 (0.5 x 0.1 / 0.1); a0 (0.5 x 0.9 = 0.45) drops out
    expect(low.results.map((h) => [h.id, h.score])).toEqual([
      ['c3', 0.5],
      ['c4', 0.5],
    ]);
    expect(low.results[1].source).toBe('deep');
    expect(low.results[1].reasons).toContain('shares the words answer');
  });

  it('off runs nothing', async () => {
    const out = await deepSearch(input({ options: { ...DEEP_SEARCH_DEFAULTS, mode: 'off' } }));
    expect(out.report.status).toBe('off');
    expect(out.results.map((h) => h.id)).toEqual(['c3', 'a0']);
  });

  it('the pool respects the cap', async () => {
    const out = await deepSearch(input({ options: { ...DEEP_SEARCH_DEFAULTS, mode: 'shadow', poolCap: 4 } }));
    expect(out.report.pool.length).toBe(4);
  });

  it('a timeout aborts cleanly and returns the primary results, marked', async () => {
    let signal: { aborted: boolean } | undefined;
    const slow: Reader = { kind: 'model', read: (_q, _p, ctx) => ((signal = ctx?.signal), new Promise(() => {})) };
    const out = await deepSearch(input({ reader: slow, options: { ...DEEP_SEARCH_DEFAULTS, mode: 'active', timeoutMs: 20 } }));
    expect(out.report.status).toBe('timeout');
    expect(out.results.map((h) => [h.id, h.score])).toEqual([
      ['c3', 0.1],
      ['a0', 0.09],
    ]);
    expect(signal?.aborted).toBe(true);
  });

  it('a failing reader returns the primary results, marked error', async () => {
    const broken: Reader = { kind: 'model', read: () => Promise.reject(new Error('bad JSON')) };
    const out = await deepSearch(input({ reader: broken }));
    expect(out.report.status).toBe('error');
    expect(out.report.error).toBe('bad JSON');
    expect(out.results.map((h) => h.id)).toEqual(['c3', 'a0']);
  });

  it('the rate limit stops the sixth escalation in a session', async () => {
    const limiter = new SessionRateLimiter(DEEP_SEARCH_DEFAULTS.rateLimit);
    const statuses: string[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await deepSearch(input({ limiter, sessionId: 's' }))).report.status);
    expect(statuses).toEqual(['merged', 'merged', 'merged', 'merged', 'merged', 'rate-limited']);
    expect((await deepSearch(input({ limiter, sessionId: 'other' }))).report.status).toBe('merged');
  });

  it('scope holds on every expansion query: nothing out of scope reaches the reader', async () => {
    const seen: MemoryId[] = [];
    const spy: Reader = { kind: 'offline', read: (_q, pool) => (seen.push(...pool.map((c) => c.id)), Promise.resolve([])) };
    const d2 = docs().map((x) => (x.sessionId === 'c' && x.id !== 'c3' ? { ...x, status: 'archived' as const } : x));
    await deepSearch(input({ reader: spy, source: { docs: d2 } }));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((id) => id.startsWith('c') && id !== 'c3')).toEqual([]);
  });

  it('constraint memories from deep search surface in the final results', async () => {
    const out = await deepSearch(input({ isConstraint: (id) => id === 'c4', options: { ...DEEP_SEARCH_DEFAULTS, mode: 'active', weight: 0.1 } }));
    // weight 0.1: c4's blended 0.1 x score loses to both primaries, but it is a relevant constraint
    expect(out.results.map((h) => h.id)).toContain('c4');
    expect(out.results.find((h) => h.id === 'c4')!.source).toBe('constraint');
  });

  it('a rule no expansion reaches is still read and surfaces (the rule strategy)', async () => {
    // b2 is out of every seed's reach: c3's turns and the session before's nearest (b4, b3), a0's turns and the session after's nearest (b0, b1)
    const rule = (id: MemoryId) => id === 'b2';
    const text = (id: MemoryId) => (id === 'b2' ? 'never put the answer on a Friday' : `turn ${id}`);
    const cand = (id: MemoryId): ReaderCandidate | undefined => {
      const x = d.find((y) => y.id === id);
      return x && { id, text: text(id), createdAt: x.createdAt };
    };
    const without = await deepSearch(input({ isConstraint: rule, candidateOf: cand }));
    expect(without.report.pool.map((p) => p.id)).not.toContain('b2');
    const out = await deepSearch(input({ isConstraint: rule, candidateOf: cand, source: { docs: d, constraints: ['b2'] } }));
    expect(out.report.pool.find((p) => p.id === 'b2')!.via).toEqual([{ strategy: 'rule', seed: 'b2', detail: 'a rule to keep in mind' }]);
    expect(out.results.map((h) => h.id)).toContain('b2');
  });

  it('shadow mode reports everything without changing the results', async () => {
    const active = await deepSearch(input());
    const shadow = await deepSearch(input({ options: { ...DEEP_SEARCH_DEFAULTS, mode: 'shadow' } }));
    expect(shadow.report.status).toBe('shadow');
    expect(shadow.results.map((h) => [h.id, h.score])).toEqual(weak.map((h) => [h.id, h.score]));
    expect(shadow.report.primaryIds).toEqual(['c3', 'a0']);
    expect(shadow.report.scores).toEqual(active.report.scores);
    expect(shadow.report.scores.length).toBe(shadow.report.pool.length);
  });
});
