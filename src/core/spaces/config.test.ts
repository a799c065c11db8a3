import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../errors';
import {
  DEFAULT_SIMILARITY_CONFIG,
  assertValidSimilarityConfig,
  loadSimilarityConfig,
  validateSimilarityConfig,
  type SimilarityConfig,
} from './config';

const clone = (): SimilarityConfig => structuredClone(DEFAULT_SIMILARITY_CONFIG) as SimilarityConfig;

describe('validateSimilarityConfig (ERR-P3-02)', () => {
  it('defaults are valid', () => {
    expect(validateSimilarityConfig(clone())).toEqual([]);
  });
  it('threshold outside [0, 1] -> the seed message', () => {
    const c = clone();
    c.highThresholds.E7 = 1.2;
    c.lowThresholds.E1 = -0.1;
    expect(validateSimilarityConfig(c)).toEqual([
      'Invalid threshold in config: E1 (Semantic) threshold -0.1 must be in [0.0, 1.0]',
      'Invalid threshold in config: E7 (Code) threshold 1.2 must be in [0.0, 1.0]',
    ]);
    expect(() => assertValidSimilarityConfig(c)).toThrow(AppError);
  });
  it('NaN threshold, negative / infinite weight, bad window', () => {
    const c = clone();
    c.highThresholds.E5 = NaN;
    c.weights.E6 = -1;
    c.weights.E8 = Infinity;
    c.recentWindowHours = 0;
    const p = validateSimilarityConfig(c);
    expect(p).toHaveLength(4);
    expect(p[0]).toBe('Invalid threshold in config: E5 (Causal) threshold NaN must be in [0.0, 1.0]');
  });
});

describe('loadSimilarityConfig', () => {
  it('merges valid values, falls back to defaults for invalid ones with a warning', () => {
    const warn = vi.fn();
    const c = loadSimilarityConfig({ highThresholds: { E1: 0.8, E7: 2 }, weights: { E9: 1 }, recentWindowHours: 1 }, warn);
    expect(c.highThresholds.E1).toBe(0.8);
    expect(c.highThresholds.E7).toBe(0.8); // default kept
    expect(c.weights.E9).toBe(1);
    expect(c.recentWindowHours).toBe(1);
    expect(warn).toHaveBeenCalledWith('Invalid threshold in config: E7 (Code) threshold 2 must be in [0.0, 1.0]; using default 0.8');
    expect(DEFAULT_SIMILARITY_CONFIG.highThresholds.E1).toBe(0.75); // defaults untouched
  });
  it('non-object -> defaults', () => {
    const warn = vi.fn();
    expect(loadSimilarityConfig('nope', warn)).toEqual(DEFAULT_SIMILARITY_CONFIG);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
