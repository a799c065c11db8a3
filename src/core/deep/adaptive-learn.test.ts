// Adaptive threshold, scorer feedback, dashboard figures and the found-by words (seed 003 phases
// 2-3 and F); every expected value worked out by hand from the rules in each file's header.
import { describe, expect, it } from 'vitest';
import { adaptiveHistoryFrom, adaptiveThreshold, isHit, queryCategory, recordEscalation } from './adaptive';
import { foundWords, passWords } from './found';
import { initialWeights, learnFromPair, scorerWeightsFrom, type TrainingPair } from './learn';
import { countRecall, DAY_MS, percentile, summariseDeepLog } from './stats';

describe('adaptive threshold per query category', () => {
  it('sorts queries into categories by their words', () => {
    expect(queryCategory('When did Marta move to Valencia?')).toBe('time');
    expect(queryCategory('trip to Lisbon in 2023')).toBe('time');
    expect(queryCategory('Who cooked dinner?')).toBe('person');
    expect(queryCategory('why did we stop sailing')).toBe('reason');
    expect(queryCategory('lighthouse sailing')).toBe('other');
  });

  it('a hit is a memory outside the primary results read at 0.5 or more', () => {
    expect(isHit(['a', 'b'], [{ id: 'a', score: 0.9 }, { id: 'c', score: 0.49 }])).toBe(false);
    expect(isHit(['a', 'b'], [{ id: 'c', score: 0.5 }])).toBe(true);
  });

  it('records escalations and halves the history at 50', () => {
    expect(recordEscalation({}, 'time', true)).toEqual({ time: { escalations: 1, hits: 1 } });
    expect(recordEscalation({ time: { escalations: 49, hits: 20 } }, 'time', true)).toEqual({ time: { escalations: 25, hits: 10.5 } });
  });

  it('moves the threshold by 0.15 x (2 x hit rate - 1) after 5 escalations, within bounds', () => {
    expect(adaptiveThreshold(0.3, { time: { escalations: 4, hits: 4 } }, 'time')).toBe(0.3);
    expect(adaptiveThreshold(0.3, { time: { escalations: 10, hits: 8 } }, 'time')).toBeCloseTo(0.39, 10);
    expect(adaptiveThreshold(0.3, { time: { escalations: 10, hits: 0 } }, 'time')).toBeCloseTo(0.15, 10);
    expect(adaptiveThreshold(0.3, { time: { escalations: 10, hits: 5 } }, 'time')).toBeCloseTo(0.3, 10);
    expect(adaptiveThreshold(0.3, { time: { escalations: 10, hits: 0 } }, 'person')).toBe(0.3);
    expect(adaptiveThreshold(0.1, { other: { escalations: 6, hits: 0 } }, 'other')).toBe(0);
    expect(adaptiveThreshold(0.95, { other: { escalations: 6, hits: 6 } }, 'other')).toBe(1);
  });

  it('reads a stored history, dropping what cannot be right', () => {
    expect(adaptiveHistoryFrom({ time: { escalations: 3, hits: 1 }, person: { escalations: 1, hits: 2 }, bogus: { escalations: 1, hits: 0 } })).toEqual({
      time: { escalations: 3, hits: 1 },
    });
    expect(adaptiveHistoryFrom('x')).toEqual({});
  });
});

describe('feedback to the scorer', () => {
  const base = { E5: 0.5, E11: 0.25, E12: 1 };
  const pair: TrainingPair = {
    positive: { lexical: 0.2, vector: 0.9, sims: { E12: 0.8, E11: 0.6 } },
    negative: { lexical: 0.6, vector: 0.5, sims: { E12: 0.4, E11: 0, E6: 0.5 } },
    ways: ['entity', 'temporal'],
  };

  it('one pair: the list and the spaces that separated the missed memory gain weight; a shared name adds to E11', () => {
    const w = learnFromPair(initialWeights(0.5, base), pair, base);
    expect(w.lexicalWeight).toBeCloseTo(0.48, 10); // 0.5 + 0.05 x (-0.4 - 0.4) / 2
    expect(w.spaceWeights.E12).toBeCloseTo(1.02, 10); // 1 + 0.05 x 0.4
    expect(w.spaceWeights.E11).toBeCloseTo(0.33, 10); // 0.25 + 0.05 x 0.6 + 0.05
    expect(w.spaceWeights.E5).toBe(0.5);
    expect(w.spaceWeights.E6).toBe(0); // 0 - 0.025, clipped at 0
    expect(w.pairs).toBe(1);
    expect(w.ways).toEqual({ entity: 1, temporal: 1 });
  });

  it('stays within bounds however many pairs', () => {
    let w = initialWeights(0.5, base);
    for (let i = 0; i < 20; i++) w = learnFromPair(w, pair, base);
    expect(w.lexicalWeight).toBe(0.2);
    expect(w.spaceWeights.E11).toBe(0.5); // 0.25 + 0.25
    expect(w.spaceWeights.E12).toBe(1.25);
    expect(w.pairs).toBe(20);
  });

  it('reads stored weights back clipped to the bounds, or null when unreadable', () => {
    expect(scorerWeightsFrom({ lexicalWeight: 0.9, pairs: 3, spaceWeights: { E12: 9 } }, base)).toMatchObject({ lexicalWeight: 0.8, pairs: 3, spaceWeights: { E12: 1.25, E5: 0.5 } });
    expect(scorerWeightsFrom(undefined, base)).toBeNull();
    expect(scorerWeightsFrom({ lexicalWeight: 'x' }, base)).toBeNull();
  });
});

describe('dashboard figures', () => {
  const rows = [
    { at: 3_600_000, status: 'merged', primaryIds: ['a'], scores: [{ id: 'b', score: 0.7 }], timings: { totalMs: 100 } },
    { at: DAY_MS + 1, status: 'shadow', primaryIds: ['a'], scores: [{ id: 'a', score: 0.9 }, { id: 'c', score: 0.4 }], timings: { totalMs: 300 } },
    { at: DAY_MS + 2, status: 'rate-limited', primaryIds: ['a'], scores: [], timings: { totalMs: 0 } },
    { at: DAY_MS + 3, status: 'timeout', primaryIds: ['a'], scores: [], timings: { totalMs: 1000 } },
  ];

  it('counts invocations, hits, latency and the daily rate', () => {
    const s = summariseDeepLog(rows, { '0': 4, '1': 1 }, 2 * DAY_MS + 5, 3);
    expect(s.invocations).toBe(3);
    expect(s.rateLimited).toBe(1);
    expect(s.hits).toBe(1);
    expect(s.hitRate).toBeCloseTo(1 / 3, 10);
    expect(s.meanMs).toBeCloseTo(1400 / 3, 10);
    expect(s.p95Ms).toBe(1000); // nearest rank ceil(0.95 x 3) = 3
    expect(s.byStatus).toEqual({ merged: 1, shadow: 1, 'rate-limited': 1, timeout: 1 });
    expect(s.series).toEqual([
      { day: 0, invocations: 1, recalls: 4, rate: 0.25 },
      { day: DAY_MS, invocations: 2, recalls: 2, rate: 1 }, // more invocations than counted recalls: the counter lags
      { day: 2 * DAY_MS, invocations: 0, recalls: 0, rate: null },
    ]);
  });

  it('empty log: no figures, a flat series', () => {
    const s = summariseDeepLog([], {}, 0, 2);
    expect(s).toMatchObject({ invocations: 0, hitRate: null, meanMs: null, p95Ms: null });
    expect(s.series.map((d) => d.invocations)).toEqual([0, 0]);
  });

  it('nearest-rank percentile and the per-day counter', () => {
    expect(percentile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(percentile([], 0.95)).toBeNull();
    expect(countRecall({}, 3 * DAY_MS + 5)).toEqual({ '3': 1 });
    expect(countRecall({ '3': 1, '-100': 2 }, 3 * DAY_MS)).toEqual({ '3': 2 });
  });
});

describe('how a memory was found, in words', () => {
  it('one phrase per way, the first detail of each', () => {
    expect(
      foundWords([
        { strategy: 'temporal', detail: '1 turn before' },
        { strategy: 'entity', detail: '1 shared name' },
        { strategy: 'temporal', detail: 'the session after' },
        { strategy: 'community', detail: 'community 4' },
      ]),
    ).toBe('said near a memory you found (1 turn before); shares a name with a memory you found (1 shared name); in the same group of related memories');
    expect(foundWords([])).toBe('read again by deeper search');
    expect(passWords({ pass: 2, action: 'reformulate', query: 'boat trip' })).toBe('pass 2: searched again as "boat trip"');
    expect(passWords({ pass: 3, action: 'widen', query: 'x' })).toBe('pass 3: widened over shared names');
  });
});
