import { describe, expect, it } from 'vitest';
import { BLEND_PRESETS, blendSpaceScores, spaceSubsetConfig } from './rank';
import { weightedSimilarity } from './relevance';
import { detectFeatureDivergence } from './divergence';

describe('weightedSimilarity (seed summary formula)', () => {
  it('SUM(w sim) / SUM(w) over present non-temporal spaces', () => {
    // E1 0.8 (w 1), E8 0.4 (w 0.5), E2 ignored -> (0.8 + 0.2) / 1.5
    expect(weightedSimilarity({ E1: 0.8, E8: 0.4, E2: 1 })).toBeCloseTo(1 / 1.5, 10);
    expect(weightedSimilarity({})).toBe(0);
    expect(weightedSimilarity({ E8: -0.5 })).toBe(0);
  });
});

describe('blendSpaceScores', () => {
  it('alpha 0 keeps the hybrid order; a space-only candidate rises with alpha', () => {
    const c = [
      { id: 'a', hybrid: 2, sims: { E1: 0.5 } },
      { id: 'b', hybrid: 1, sims: { E1: 0.5 } },
      { id: 'c', sims: { E7: 0.95 } }, // found by code only
    ];
    expect(blendSpaceScores(c, { alpha: 0 }).map((h) => h.id)).toEqual(['a', 'b', 'c']);
    const blended = blendSpaceScores(c, { alpha: 0.6 });
    // a: 0.4 x 1 = 0.4; b: 0.4 x 0.5 = 0.2; c: 0.6 x 1 = 0.6
    expect(blended.map((h) => [h.id, Number(h.score.toFixed(6))])).toEqual([
      ['c', 0.6],
      ['a', 0.4],
      ['b', 0.2],
    ]);
    expect(blended[0].relevantSpaces).toEqual(['E7']);
  });
  it('all-zero and empty inputs give finite scores', () => {
    expect(blendSpaceScores([])).toEqual([]);
    const r = blendSpaceScores([{ id: 'x', hybrid: 0, sims: {} }]);
    expect(r[0].score).toBe(0);
    expect(() => blendSpaceScores([], { alpha: 2 })).toThrow(RangeError);
  });
});

describe('detectFeatureDivergence', () => {
  it('compares features and summarises the newest recent text', () => {
    const cur = { E1: Float32Array.from([1, 0]) };
    const alerts = detectFeatureDivergence(cur, [
      { features: { E1: Float32Array.from([0, 1]) }, text: 'Discussing authentication implementation' },
    ]);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].similarity).toBe(0);
    expect(alerts[0].recentMemorySummary).toBe('Discussing authentication implementation');
  });
});

describe('presets', () => {
  it('spaceSubsetConfig keeps only the given spaces', () => {
    const c = spaceSubsetConfig({ E12: 1, E9: 0.25 });
    expect(Object.entries(c.excluded).filter(([, x]) => !x).map(([id]) => id)).toEqual(['E9', 'E12']);
    expect(c.weights.E9).toBe(0.25);
  });
  it('lateInteraction ranks by E12 alone', () => {
    const r = blendSpaceScores(
      [
        { id: 'a', hybrid: 1, sims: { E1: 0.9, E12: 0.2 } },
        { id: 'b', hybrid: 1, sims: { E1: 0.1, E12: 0.8 } },
      ],
      BLEND_PRESETS.lateInteraction,
    );
    // a: 0.5 + 0.5 x 0.2/0.8 = 0.625; b: 0.5 + 0.5 = 1
    expect(r.map((h) => [h.id, h.score])).toEqual([['b', 1], ['a', 0.625]]);
  });
});
