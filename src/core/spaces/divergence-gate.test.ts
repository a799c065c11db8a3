import { describe, expect, it } from 'vitest';
import { detectDivergence } from './divergence';
import { DIVERGENCE_GATE, divergenceVerdict, firstWords, sameTopic, topicCentroid, topicWords } from './divergence-gate';
import type { SpaceSims } from './relevance';

/** The alerts detectDivergence raises for one recent memory with these best similarities. */
const alertsFor = (best: SpaceSims) => detectDivergence([best], 'recent', { log: () => {} });
const evidence = (best: SpaceSims, windowSize = 3, earlierActions = 2) => ({ alerts: alertsFor(best), windowSize, earlierActions });

// Low thresholds (defaults): E1 0.30, E5 0.25, E6 0.20, E7 0.35, E8 0.30, E9 0.30, E11 0.30, E12 0.30, E13 0.20.
describe('divergenceVerdict (when an alert is shown)', () => {
  const far: SpaceSims = { E1: 0.1, E6: 0, E13: 0.05, E12: 0.6, E9: 0.5 }; // E1, E6, E13 below: 3 agreeing

  it('shows strong evidence: meaning far (0.10 < 0.30 - 0.05) and three semantic spaces agreeing', () => {
    expect(divergenceVerdict(evidence(far))).toEqual({ show: true, reason: 'strong', agreeing: ['E1', 'E6', 'E13'] });
  });

  it('is quiet without alerts', () => {
    expect(divergenceVerdict(evidence({ E1: 0.5, E6: 0.4 }))).toMatchObject({ show: false, reason: 'no-alerts' });
  });

  it('is quiet with a single recent memory (minWindow 2)', () => {
    expect(DIVERGENCE_GATE.minWindow).toBe(2);
    expect(divergenceVerdict(evidence(far, 1))).toMatchObject({ show: false, reason: 'window-too-small' });
    expect(divergenceVerdict(evidence(far, 2)).show).toBe(true);
  });

  it('is quiet on the first step of a sitting', () => {
    expect(divergenceVerdict(evidence(far, 3, 0))).toMatchObject({ show: false, reason: 'session-just-started' });
    expect(divergenceVerdict(evidence(far, 3, 1)).show).toBe(true);
  });

  it('needs the meaning at least 0.05 below its line: 0.26 and 0.25 are close, 0.2499 is far', () => {
    expect(divergenceVerdict(evidence({ ...far, E1: 0.26 }))).toMatchObject({ show: false, reason: 'meaning-close' });
    expect(divergenceVerdict(evidence({ ...far, E1: 0.25 }))).toMatchObject({ show: false, reason: 'meaning-close' });
    expect(divergenceVerdict(evidence({ ...far, E1: 0.2499 })).show).toBe(true);
    // the meaning not below its line at all: only key words differ (a short query, same topic)
    expect(divergenceVerdict(evidence({ E1: 0.55, E6: 0, E13: 0, E11: 0 }))).toMatchObject({ show: false, reason: 'meaning-close' });
  });

  it("uses the engine's meaning line when it moved the lines to its encoder's scale", () => {
    // E1 0.12 is below 0.30 (an alert) and below 0.25 on USE-lite's scale: shown; with MiniLM's line 0.131 also shown, 0.14 not
    expect(divergenceVerdict({ ...evidence({ ...far, E1: 0.12 }), meaningLine: 0.131 }).show).toBe(true);
    expect(divergenceVerdict({ ...evidence({ ...far, E1: 0.14 }), meaningLine: 0.131 })).toMatchObject({ show: false, reason: 'meaning-close' });
    expect(divergenceVerdict({ ...evidence({ ...far, E1: 0.131 }), meaningLine: 0.131 }).show).toBe(false); // strictly below
  });

  it('needs three semantic spaces agreeing; feelings, spelling and people do not count', () => {
    // E1 + E6 only (E13 0.25 >= 0.20), plus E8, E9, E11 below their lines: 2 agreeing
    const v = divergenceVerdict(evidence({ E1: 0.1, E6: 0, E13: 0.25, E8: -0.5, E9: 0.1, E11: 0 }));
    expect(v).toEqual({ show: false, reason: 'too-few-spaces', agreeing: ['E1', 'E6'] });
  });
});

describe('topic of the recent work', () => {
  const v = (...x: number[]) => Float32Array.from(x);

  it('centroid: the unit mean; null when empty or cancelling', () => {
    const c = topicCentroid([v(1, 0), v(0, 1)])!;
    expect(c[0]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(c[1]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(topicCentroid([])).toBeNull();
    expect(topicCentroid([v(1, 0), v(-1, 0)])).toBeNull();
  });

  it('same topic when the centroids are within cosine 0.8, else by half of the dismissed memories', () => {
    // cos 45 degrees = 0.707 < 0.8: another topic; cos 30 degrees = 0.866: the same
    const a = { centroid: v(1, 0), ids: ['x'] };
    expect(sameTopic(a, { centroid: v(Math.SQRT1_2, Math.SQRT1_2), ids: ['x'] })).toBe(false);
    expect(sameTopic(a, { centroid: v(Math.cos(Math.PI / 6), Math.sin(Math.PI / 6)), ids: [] })).toBe(true);
    expect(sameTopic({ centroid: null, ids: ['a', 'b'] }, { centroid: null, ids: ['b', 'c', 'd'] })).toBe(true); // 1 of 2
    expect(sameTopic({ centroid: null, ids: ['a', 'b', 'c'] }, { centroid: null, ids: ['c', 'd'] })).toBe(false); // 1 of 3
  });

  it('names the topic by the tags half the window shares, explicit before suggested, at most three', () => {
    const w = [
      { text: 'a', tags: ['sourdough', 'rye'], suggestedTags: ['starter'] },
      { text: 'b', tags: ['sourdough', 'fermentation'], suggestedTags: ['starter'] },
      { text: 'c', tags: ['sourdough', 'fermentation'] },
      { text: 'd', tags: ['kitchen'] },
    ];
    // need 2 of 4: sourdough (3), fermentation (2), then suggested starter (2); rye / kitchen once
    expect(topicWords(w)).toBe('sourdough, fermentation and starter');
    expect(topicWords([{ text: 'x', tags: ['mid-term-review'] }])).toBe('mid term review');
  });

  it('without shared tags, the first words of the memory nearest the centroid', () => {
    const w = [
      { text: 'Newest note about something else', tags: [], vector: v(0, 1) },
      { text: 'Central memory\nsecond line', tags: [], vector: v(1, 0) },
    ];
    expect(topicWords(w, v(0.9, 0.1))).toBe('Central memory');
    expect(topicWords(w)).toBe('Newest note about something else');
    expect(firstWords('one two three four five six', 14)).toBe('one two three…');
  });
});
