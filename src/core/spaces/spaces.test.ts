// Seed 002 acceptance criteria and test cases, with the seed's numbers.
import { describe, expect, it, vi } from 'vitest';
import type { SpaceId } from '../types';
import {
  DEFAULT_SIMILARITY_CONFIG,
  NON_TEMPORAL_SPACES,
  SPACES,
  activeEmbedderCount,
  cosine,
  detectDivergence,
  detectFeatureDivergence,
  sparseFromEntries,
  type SpaceFeatures,
  formatDivergenceAlert,
  isExcluded,
  isHighlyRelevant,
  isRelevant,
  jaccard,
  relevanceScore,
  selectRecentWindow,
  type SpaceSims,
} from './index';

/** Every non-temporal space at `v`, then the overrides. */
function allAt(v: number, over: SpaceSims = {}): SpaceSims {
  const s: SpaceSims = {};
  for (const id of NON_TEMPORAL_SPACES) s[id] = v;
  return { ...s, ...over };
}

describe('registry and config (REQ-P3-01, -02, -05, -07)', () => {
  it('holds the seed thresholds and weights', () => {
    const hi: Record<string, number> = { E1: 0.75, E5: 0.7, E6: 0.6, E7: 0.8, E8: 0.7, E9: 0.7, E10: 0.7, E11: 0.7, E12: 0.7, E13: 0.6 };
    const lo: Record<string, number> = { E1: 0.3, E5: 0.25, E6: 0.2, E7: 0.35, E8: 0.3, E9: 0.3, E10: 0.3, E11: 0.3, E12: 0.3, E13: 0.2 };
    for (const [id, v] of Object.entries(hi)) expect(DEFAULT_SIMILARITY_CONFIG.highThresholds[id as SpaceId]).toBe(v);
    for (const [id, v] of Object.entries(lo)) expect(DEFAULT_SIMILARITY_CONFIG.lowThresholds[id as SpaceId]).toBe(v);
    const weights = ['E1', 'E2', 'E3', 'E4', 'E5', 'E6', 'E7', 'E8', 'E9', 'E10', 'E11', 'E12', 'E13'].map(
      (id) => DEFAULT_SIMILARITY_CONFIG.weights[id as SpaceId],
    );
    expect(weights).toEqual([1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 0.5, 0.5, 1.0, 0.5, 1.0, 1.0]);
    expect(DEFAULT_SIMILARITY_CONFIG.recentWindowHours).toBe(2);
  });
  it('excludes exactly E2-E4; 10 active embedders', () => {
    expect((['E2', 'E3', 'E4'] as SpaceId[]).every((id) => isExcluded(id))).toBe(true);
    expect(NON_TEMPORAL_SPACES.some((id) => isExcluded(id))).toBe(false);
    expect(activeEmbedderCount()).toBe(10);
    expect(SPACES.E9.category).toBe('structural');
    expect(SPACES.E8.category).toBe('relational');
  });
});

describe('US-P3-01 relevance by ANY non-temporal space', () => {
  it('AC-P3-01-01: E7 0.9, E1 0.3 -> relevant because E7 > 0.80', () => {
    const r = relevanceScore({ E1: 0.3, E7: 0.9 });
    expect(isRelevant({ E1: 0.3, E7: 0.9 })).toBe(true);
    expect(r.relevantSpaces).toEqual(['E7']);
  });
  it('AC-P3-01-02: below threshold in all 10 non-temporal spaces -> not relevant', () => {
    // each exactly AT its threshold: relevance needs strictly above
    const sims: SpaceSims = {};
    for (const id of NON_TEMPORAL_SPACES) sims[id] = DEFAULT_SIMILARITY_CONFIG.highThresholds[id];
    expect(isRelevant(sims)).toBe(false);
    expect(isRelevant(allAt(0.59))).toBe(false);
  });
  it('AC-P3-01-03: E2 0.95 but non-temporal below threshold -> not relevant', () => {
    expect(isRelevant(allAt(0.4, { E2: 0.95 }))).toBe(false);
  });
  it('TC-P3-01: E7 0.85, all others < 0.5 -> relevant', () => {
    expect(isRelevant(allAt(0.49, { E7: 0.85 }))).toBe(true);
    expect(isRelevant(allAt(0.49, { E7: 0.8 }))).toBe(false); // 0.80 is not > 0.80
  });
  it('TC-P3-02: all below threshold -> false', () => {
    expect(isRelevant(allAt(0.5))).toBe(false);
  });
  it('TC-P3-09: E2 0.99, all non-temporal < 0.5 -> false (EC-P3-07)', () => {
    expect(isRelevant(allAt(0.49, { E2: 0.99, E3: 0.99, E4: 0.99 }))).toBe(false);
  });
  it('highly relevant needs >= 3 spaces above threshold', () => {
    expect(isHighlyRelevant(allAt(0.1, { E1: 0.8, E5: 0.8 }))).toBe(false);
    expect(isHighlyRelevant(allAt(0.1, { E1: 0.8, E5: 0.8, E6: 0.61 }))).toBe(true);
    expect(isHighlyRelevant({ E2: 1, E3: 1, E4: 1, E1: 0.8 })).toBe(false);
  });
  it('EC-P3-01: NaN / Infinity similarity counts as 0 with a warning', () => {
    const warn = vi.fn();
    expect(isRelevant({ E1: NaN, E7: Infinity }, DEFAULT_SIMILARITY_CONFIG, warn)).toBe(false);
    expect(warn).toHaveBeenCalledWith('Invalid embedding value in E1 (Semantic)');
    expect(warn).toHaveBeenCalledWith('Invalid embedding value in E7 (Code)');
  });
});

describe('US-P3-03 multi-space relevance score', () => {
  it('AC-P3-03-01: 5 matching spaces score higher than 2', () => {
    const a = relevanceScore(allAt(0.1, { E1: 0.85, E5: 0.8, E6: 0.7, E7: 0.9, E13: 0.7 }));
    const b = relevanceScore(allAt(0.1, { E1: 0.85, E5: 0.8 }));
    expect(a.relevantSpaces).toHaveLength(5);
    expect(b.relevantSpaces).toHaveLength(2);
    expect(a.score).toBeGreaterThan(b.score);
  });
  it('AC-P3-03-02: E1 0.95 contributes 1.0 x (0.95 - 0.75) = 0.20', () => {
    const r = relevanceScore(allAt(0, { E1: 0.95 }));
    expect(r.contributions.E1).toBeCloseTo(0.2, 10);
    expect(r.score).toBeCloseTo(0.2 / 8.5, 10);
  });
  it('AC-P3-03-03: E2 0.99 contributes 0.0', () => {
    const r = relevanceScore(allAt(0, { E2: 0.99 }));
    expect(r.contributions.E2).toBe(0);
    expect(r.score).toBe(0);
    expect(r.excluded).toEqual(['E2', 'E3', 'E4']);
  });
  it('AC-P3-03-04: weighted sum divided over active (non-temporal) weights = 8.5', () => {
    const r = relevanceScore(allAt(1.0, { E2: 1, E3: 1, E4: 1 }));
    expect(r.activeWeight).toBeCloseTo(8.5, 10);
    // margins: E1 .25, E5 .3, E6 .4, E7 .2, E10 .3, E12 .3, E13 .4 (w 1) = 2.15; E8 .3, E9 .3, E11 .3 (w .5) = .45
    expect(r.score).toBeCloseTo(2.6 / 8.5, 10);
    // EC-P3-04: all ten spaces above threshold -> every one relevant
    expect(r.relevantSpaces).toHaveLength(10);
  });
  it('absent spaces drop out of both sums', () => {
    const r = relevanceScore({ E1: 0.95 });
    expect(r.activeWeight).toBe(1);
    expect(r.score).toBeCloseTo(0.2, 10);
    expect(r.absent).toEqual(['E5', 'E6', 'E7', 'E8', 'E9', 'E10', 'E11', 'E12', 'E13']);
    expect(relevanceScore({}).score).toBe(0);
  });
  it('TC-P3-05: E1 0.95 + E5 0.85 -> 1.0x0.20 + 1.0x0.15 = 0.35', () => {
    const r = relevanceScore(allAt(0, { E1: 0.95, E5: 0.85 }));
    expect(r.contributions.E1 + r.contributions.E5).toBeCloseTo(0.35, 10);
    expect(r.score).toBeCloseTo(0.35 / 8.5, 10);
  });
  it('TC-P3-11: E2/E3/E4 at 0.99 add 0.0', () => {
    const r = relevanceScore({ E2: 0.99, E3: 0.99, E4: 0.99 });
    expect(r.contributions.E2 + r.contributions.E3 + r.contributions.E4).toBe(0);
    expect(r.score).toBe(0);
    expect(r.activeWeight).toBe(0);
  });
  it('TC-P3-12: E8 0.90 + E9 0.90 -> 0.5x0.20 + 0.5x0.20 = 0.20', () => {
    const r = relevanceScore(allAt(0, { E8: 0.9, E9: 0.9 }));
    expect(r.contributions.E8).toBeCloseTo(0.1, 10);
    expect(r.contributions.E9).toBeCloseTo(0.1, 10);
    expect(r.contributions.E8 + r.contributions.E9).toBeCloseTo(0.2, 10);
  });
});

describe('US-P3-02 divergence', () => {
  const log = vi.fn();
  it('AC-P3-02-01 / TC-P3-03: E1 0.15 -> alert with similarity 0.15, threshold 0.30', () => {
    const alerts = detectDivergence([allAt(0.5, { E1: 0.15 })], 'Discussing authentication implementation', { log });
    expect(alerts).toHaveLength(1);
    const a = alerts[0];
    expect(a.embedder).toBe('E1');
    expect(a.embedderName).toBe('Semantic');
    expect(a.similarity).toBe(0.15);
    expect(a.threshold).toBe(0.3);
    expect(a.divergenceMagnitude).toBeCloseTo(0.15, 10);
    expect(a.recentMemorySummary).toBe('Discussing authentication implementation');
    expect(a.message).toBe('Low semantic similarity to recent activity');
  });
  it('uses the MAX over recent memories: one close memory prevents the alert', () => {
    expect(detectDivergence([allAt(0.5, { E1: 0.15 }), allAt(0.5, { E1: 0.31 })], 's')).toEqual([]);
    const two = detectDivergence([allAt(0.5, { E1: 0.1 }), allAt(0.5, { E1: 0.2 })], 's');
    expect(two.map((a) => [a.embedder, a.similarity])).toEqual([['E1', 0.2]]);
  });
  it('AC-P3-02-02: > 0.3 in all semantic spaces (others above their low thresholds) -> no alert', () => {
    expect(detectDivergence([allAt(0.31, { E7: 0.36 })], 's')).toEqual([]);
  });
  it('TC-P3-04: all similarities > 0.35 -> empty', () => {
    expect(detectDivergence([allAt(0.36)], 's')).toEqual([]);
  });
  it('AC-P3-02-03 / TC-P3-10 / EC-P3-08: E2 at 0.05 (or 0.0) -> no alert', () => {
    expect(detectDivergence([allAt(0.5, { E2: 0.05, E3: 0.0, E4: 0.0 })], 's')).toEqual([]);
  });
  it('EC-P3-02: no recent memories -> no alerts, logs why', () => {
    const l = vi.fn();
    expect(detectDivergence([], 's', { log: l })).toEqual([]);
    expect(l).toHaveBeenCalledWith('Skipping divergence detection: no recent memories');
  });
  it('a space absent in every recent memory cannot diverge; each low space alerts', () => {
    const alerts = detectDivergence([{ E1: 0.5, E6: 0.1, E7: 0.34 }], 's');
    expect(alerts.map((a) => a.embedder)).toEqual(['E6', 'E7']);
  });
  it('from features: a short same-topic query does not alert in E6 / E13 (containment), a switch does', () => {
    const f32 = (...v: number[]) => Float32Array.from(v);
    // long memory: terms 1..10 at weight 1; query: terms 1, 2 and 99 (one not in the memory)
    const long = sparseFromEntries(Array.from({ length: 10 }, (_, i) => [i + 1, 1] as [number, number]));
    const memory: SpaceFeatures = { E1: f32(1, 0), E6: long, E13: long, E2: f32(1, 0) };
    const query: SpaceFeatures = { E1: f32(1, 0), E6: sparseFromEntries([[1, 1], [2, 1], [99, 1]]), E2: f32(0, 1) };
    query.E13 = query.E6;
    // weighted Jaccard would be 2 / 11 = 0.18 < 0.20; containment of the query is 2 / 3
    expect(jaccard(query.E6!, long)).toBeCloseTo(2 / 11, 6);
    expect(detectFeatureDivergence(query, [{ features: memory, text: 'm' }])).toEqual([]); // E2 at 0 ignored too
    const other: SpaceFeatures = { E1: f32(0, 1), E6: sparseFromEntries([[50, 1], [51, 1]]), E13: sparseFromEntries([[50, 1]]) };
    expect(detectFeatureDivergence(other, [{ features: memory, text: 'm' }]).map((a) => a.embedder)).toEqual(['E1', 'E6', 'E13']);
  });
  it('formats the seed alert text', () => {
    const [a] = detectDivergence([allAt(0.5, { E1: 0.23 })], 'Discussing authentication implementation');
    expect(formatDivergenceAlert(a)).toBe(
      [
        'DIVERGENCE DETECTED',
        'Recent activity in Semantic space: "Discussing authentication implementation"',
        'Current appears different - similarity: 0.23 (threshold: 0.30)',
        'This may indicate a context switch.',
        '',
        'Note: Divergence is only detected in non-temporal spaces (E1, E5-E13).',
        'Temporal spaces (E2-E4) are not considered for divergence alerts.',
      ].join('\n'),
    );
  });
});

describe('recent window (REQ-P3-04 params)', () => {
  const H = 3_600_000;
  const now = 1_700_000_000_000;
  it('TC-P3-08: memories 3 h and 1 h ago -> only the 1 h one', () => {
    const m = [
      { id: 'a', createdAt: now - 3 * H, sessionId: 's1' },
      { id: 'b', createdAt: now - 1 * H, sessionId: 's1' },
    ];
    expect(selectRecentWindow(m, now, 's1', DEFAULT_SIMILARITY_CONFIG).map((x) => x.id)).toEqual(['b']);
  });
  it('session smaller than 2 h: only the current session', () => {
    const m = [
      { id: 'old-session', createdAt: now - 0.5 * H, sessionId: 's0' },
      { id: 'cur1', createdAt: now - 0.25 * H, sessionId: 's1' },
      { id: 'cur2', createdAt: now - 0.1 * H, sessionId: 's1' },
    ];
    expect(selectRecentWindow(m, now, 's1').map((x) => x.id)).toEqual(['cur2', 'cur1']);
  });
  it('EC-P3-03: all recent memories from another session -> time window; none in 2 h -> empty', () => {
    const m = [
      { id: 'x', createdAt: now - 1.5 * H, sessionId: 's0' },
      { id: 'y', createdAt: now - 2.5 * H, sessionId: 's0' },
    ];
    expect(selectRecentWindow(m, now, 's-new').map((x) => x.id)).toEqual(['x']);
    expect(selectRecentWindow([m[1]], now, 's-new')).toEqual([]);
  });
  it('ignores memories stamped in the future', () => {
    expect(selectRecentWindow([{ createdAt: now + H, sessionId: 's' }], now, 's')).toEqual([]);
  });
});

describe('similarity functions, hand-computed', () => {
  it('TC-P3-06: cosine([1,0,0],[1,0,0]) = 1', () => {
    expect(cosine(new Float32Array([1, 0, 0]), new Float32Array([1, 0, 0]))).toBe(1);
  });
  it('TC-P3-07: jaccard({a:1,b:1},{a:1,c:1}) = 1/3', () => {
    expect(jaccard({ a: 1, b: 1 }, { a: 1, c: 1 })).toBeCloseTo(1 / 3, 10);
  });
});
