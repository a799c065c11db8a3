import { describe, expect, it } from 'vitest';
import type { MergedHit } from '../../src/core/deep';
import { openedPairs } from './eval-deep-learn';

describe('the learning loop simulation: which deep hits the person opens', () => {
  const merged: MergedHit[] = [
    { id: 'p1', score: 0.5, source: 'primary', readerScore: 0.5 },
    { id: 'd1', score: 0.45, source: 'deep', readerScore: 0.9 },
    { id: 'p2', score: 0.3, source: 'primary' },
    { id: 'd2', score: 0.2, source: 'deep', readerScore: 0.4 },
    { id: 'd3', score: 0.1, source: 'deep', readerScore: 0.3 },
  ];
  const ways: Record<string, ('temporal' | 'entity' | 'community')[]> = { d1: ['temporal'], d2: ['entity'], d3: [] };
  const sideOf = (id: string) => ({ lexical: id === 'p2' ? 0.4 : 0, vector: id === 'p2' ? 0.6 : 0, sims: { E11: id === 'd1' ? 1 : 0 } });
  it('an evidence deep hit with a pool way makes one pair against the lowest primary result shown', () => {
    // d1: outside the primary, read, found nearby in time, evidence -> opened; d2 is not evidence;
    // d3 has no pool way; p2 is a primary result (evidence, but not a deep hit). Negative: p2 (the
    // last primary result of the merged answer).
    expect(openedPairs(merged, ['p1', 'p2', 'p3'], (id) => ways[id] ?? [], sideOf, ['d1', 'd3', 'p2'])).toEqual([
      { positive: { lexical: 0, vector: 0, sims: { E11: 1 } }, negative: { lexical: 0.4, vector: 0.6, sims: { E11: 0 } }, ways: ['temporal'] },
    ]);
  });
  it('no primary result in the answer, or no evidence among the deep hits: nothing to learn', () => {
    expect(openedPairs(merged.filter((h) => h.source === 'deep'), ['p1', 'p2'], (id) => ways[id] ?? [], sideOf, ['d1'])).toEqual([]);
    expect(openedPairs(merged, ['p1', 'p2'], (id) => ways[id] ?? [], sideOf, ['x'])).toEqual([]);
  });
});
