import { describe, expect, it } from 'vitest';
import { FeedbackState, MAX_REASON_LENGTH, applyFeedback, feedbackFactor, validateFeedbackReason, validateValence } from './feedback';

const r = (id: string, valence: number, at: number) => ({ kind: 'reinforce' as const, id, valence, at });
const s = (id: string, at: number, reason?: string) => ({ kind: 'suppress' as const, id, at, reason });

describe('feedback factor', () => {
  it('boosts by 1 + 0.5 tanh(net/200), bounded in (0.5, 1.5)', () => {
    const st = FeedbackState.fromEvents([r('a', 100, 1)]);
    expect(st.factor('a')).toBeCloseTo(1 + 0.5 * 0.46211715726000974, 12); // tanh(0.5)
    expect(st.factor('nobody')).toBe(1);
    const five = FeedbackState.fromEvents(Array.from({ length: 5 }, (_, i) => r('a', 100, i)));
    expect(five.factor('a')).toBeCloseTo(1 + 0.5 * 0.9866142981514303, 12); // tanh(2.5): saturating
    const many = FeedbackState.fromEvents(Array.from({ length: 1000 }, (_, i) => r('a', 100, i)));
    expect(many.factor('a')).toBeLessThanOrEqual(1.5);
    const neg = FeedbackState.fromEvents([r('a', -100, 1)]);
    expect(neg.factor('a')).toBeCloseTo(1 - 0.5 * 0.46211715726000974, 12);
  });

  it('suppression demotes to 0.2 until a later positive reinforcement', () => {
    expect(FeedbackState.fromEvents([r('a', 50, 1), s('a', 2, 'irrelevant')]).factor('a')).toBe(0.2);
    expect(FeedbackState.fromEvents([s('a', 1), r('a', 50, 2)]).isSuppressed('a')).toBe(false);
    expect(FeedbackState.fromEvents([s('a', 1), r('a', -50, 2)]).isSuppressed('a')).toBe(true);
    // log order does not matter, time does
    expect(FeedbackState.fromEvents([r('a', 50, 2), s('a', 1)]).isSuppressed('a')).toBe(false);
    // same instant: the later log entry wins
    expect(FeedbackState.fromEvents([r('a', 50, 5), s('a', 5)]).isSuppressed('a')).toBe(true);
    expect(FeedbackState.fromEvents([s('a', 5, 'x')]).get('a')?.lastReason).toBe('x');
  });

  it('skips and counts malformed stored events; refuses bad live ones', () => {
    const st = FeedbackState.fromEvents([r('a', 500, 1), { kind: 'like', id: 'a', at: 1 }, null, r('b', 10, 1)]);
    expect(st.skipped).toBe(3);
    expect(st.size).toBe(1);
    expect(() => st.record(r('a', 101, 2))).toThrow(/Valence must be a number from -100 to 100; got 101/);
    expect(() => st.record(r('a', 10, 0))).toThrow(/time order/);
    expect(() => validateValence(Number.NaN)).toThrow(/Valence/);
    expect(feedbackFactor(undefined)).toBe(1);
  });
});

describe('applyFeedback', () => {
  const hits = [
    { id: 'a', score: 1.0 },
    { id: 'b', score: 0.9 },
    { id: 'c', score: 0.5 },
  ];
  it('re-ranks: a suppressed top hit drops, a reinforced one rises', () => {
    const st = FeedbackState.fromEvents([s('a', 1), r('c', 100, 2)]);
    const out = applyFeedback(hits, st);
    // a: 0.2; b: 0.9; c: 0.5 * 1.2311 = 0.6155
    expect(out.map((h) => h.id)).toEqual(['b', 'c', 'a']);
    expect(out[2].score).toBeCloseTo(0.2, 12);
    expect(out[2].feedbackFactor).toBe(0.2);
    expect(out[0]).toBe(hits[1]); // untouched hits are the same objects
  });
  it('returns the input untouched when there is no relevant feedback', () => {
    expect(applyFeedback(hits, null)).toBe(hits);
    expect(applyFeedback(hits, FeedbackState.fromEvents([r('zzz', 10, 1)]))).toBe(hits);
  });
});

describe('validateFeedbackReason (the one reason rule)', () => {
  it('trims, keeps up to 500 characters, and turns a blank reason into none', () => {
    expect(MAX_REASON_LENGTH).toBe(500);
    expect(validateFeedbackReason(undefined)).toBeUndefined();
    expect(validateFeedbackReason('   ')).toBeUndefined();
    expect(validateFeedbackReason('  outdated  ')).toBe('outdated');
    expect(validateFeedbackReason(` ${'x'.repeat(500)} `)).toHaveLength(500); // the limit counts the trimmed text
  });
  it('refuses a longer reason or a non-text one with INVALID_OPTION and the catalogue wording', () => {
    const tooLong = { code: 'INVALID_OPTION', message: 'A reason must be text of at most 500 characters.' };
    expect(() => validateFeedbackReason('x'.repeat(501))).toThrow(expect.objectContaining(tooLong));
    expect(() => validateFeedbackReason(42)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    // the stored log goes through the same rule: a bad reason makes the event malformed (skipped)
    expect(FeedbackState.fromEvents([s('a', 1, 'x'.repeat(501))]).skipped).toBe(1);
  });
});
