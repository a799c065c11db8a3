import { describe, expect, it } from 'vitest';
import * as core from './index';
import { DEFAULT_SIMILARITY_CONFIG } from './spaces/config';

describe('src/core/index exports the contract of the thirteen-spaces issue', () => {
  it('exports the registry, the five similarity functions and the scoring API', () => {
    expect(Object.keys(core.SPACES)).toHaveLength(13);
    for (const name of ['cosine', 'jaccard', 'hamming', 'maxsim', 'transe', 'isRelevant', 'relevanceScore', 'detectDivergence'] as const) {
      expect(typeof core[name]).toBe('function');
    }
    expect(core.DEFAULT_SIMILARITY_CONFIG).toBe(DEFAULT_SIMILARITY_CONFIG);
  });
  it('cosine is the seed one (TC-P3-06) and the relevance score keeps the E1 contribution (AC-P3-03-02)', () => {
    expect(core.cosine(new Float32Array([1, 0, 0]), new Float32Array([1, 0, 0]))).toBeCloseTo(1, 6);
    const r = core.relevanceScore({ E1: 0.95 });
    expect(r.contributions.E1).toBeCloseTo(0.2, 6);
  });
  it('exports lateralScore reproducing the seed table', () => {
    const table = [0.5, 1, 1.5, 2, 5].map((d) => Math.round(core.lateralScore(d, 1, 1, 1) * 100) / 100);
    expect(table).toEqual([0.33, 0.5, 0.6, 0.67, 0.83]);
  });
});
