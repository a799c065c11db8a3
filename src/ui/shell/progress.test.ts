import { describe, expect, it } from 'vitest';
import { estimateLeftMs, leftWords, phaseWords } from './progress';

describe('estimateLeftMs', () => {
  it('extrapolates the pace so far', () => {
    // 64 of 320 in 8 s: 8 s per 64, 256 left -> 32 s
    expect(estimateLeftMs(1000, 9000, 64, 320)).toBe(32_000);
    expect(estimateLeftMs(0, 3000, 32, 323)).toBeCloseTo((291 * 3000) / 32, 9);
  });
  it('knows nothing before the first batch and nothing is left at the end', () => {
    expect(estimateLeftMs(0, 5000, 0, 323)).toBeNull();
    expect(estimateLeftMs(0, 5000, 323, 323)).toBeNull();
    expect(estimateLeftMs(5000, 5000, 10, 323)).toBeNull();
  });
});

describe('leftWords', () => {
  it('rounds to what a person can use', () => {
    expect(leftWords(null)).toBe('');
    expect(leftWords(3_000)).toBe('a few seconds left');
    expect(leftWords(32_000)).toBe('about 30 seconds left');
    expect(leftWords(33_000)).toBe('about 35 seconds left');
    expect(leftWords(80_000)).toBe('about a minute left');
    expect(leftWords(150_000)).toBe('about 3 minutes left');
  });
});

describe('phaseWords', () => {
  it('names each phase', () => {
    expect(phaseWords('embedding', 64, 323)).toBe('Understanding the memories: 64 of 323');
    expect(phaseWords('saving', 323, 323)).toBe('Saving 323 memories on this device…');
    expect(phaseWords('reading', 0, 0)).toBe('Reading the sample collection…');
    expect(phaseWords('indexing', 323, 323)).toBe('Making them searchable…');
  });
});
