// A deep-search report for the results card's word tests (src/ui/explore/deep-*-words.test.ts):
// merged, confidence 0.2 below 0.3, the pool one first result 's' and one memory 'd' found one
// turn after it, nothing read yet (each test adds the reader's figures).
import type { DeepReportView } from '../core/deep';

export const turnAfter = [{ strategy: 'temporal' as const, seed: 's', detail: '1 turn after' }];

export function mergedReport(): DeepReportView {
  return {
    status: 'merged',
    mode: 'active',
    confidence: { value: 0.2, top: 0.5, gap: 0.2, count: 1, spread: 0 },
    threshold: 0.3,
    primaryIds: ['s'],
    pool: [
      { id: 's', primaryRank: 0, via: [] },
      { id: 'd', primaryRank: null, via: turnAfter },
    ],
    trimmed: 0,
    scores: [],
    timings: { expandMs: 1, readMs: 2, totalMs: 3 },
  } as DeepReportView;
}
