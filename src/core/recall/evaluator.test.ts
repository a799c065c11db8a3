import { describe, expect, it } from 'vitest';
import { LateralEvaluator, TUNING_ACTIONS, formatReinforce } from './evaluator';
import { resolveRecallOptions } from './options';

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('LateralEvaluator metrics', () => {
  it('reproduces the seed memory_status block (47 samples, 16 reinforced, 4 suppressed)', () => {
    const e = new LateralEvaluator({ evaluationWindow: 1000 });
    const returned = ids('m', 47);
    e.recordReturned(returned);
    returned.slice(0, 16).forEach((id) => e.recordReinforcement(id, 50));
    returned.slice(16, 20).forEach((id) => expect(e.recordSuppression(id)).toBe(true));
    const st = e.status();
    expect(st.lur).toBeCloseTo(16 / 47, 12);
    expect(st.lsr).toBeCloseTo(4 / 47, 12);
    expect(st.lhi).toBeCloseTo(0.2, 12);
    expect(e.formatStatus()).toBe(
      [
        'Lateral Retrieval:',
        '  Enabled:    true',
        '  Threshold:  1.20',
        '  Samples:    47',
        '  LUR (util): 0.34',
        '  LSR (supp): 0.09',
        '  LHI (hall): 0.20',
      ].join('\n'),
    );
  });

  it('takes its base threshold and window from recall options', () => {
    const e = LateralEvaluator.forOptions(resolveRecallOptions({ lateralDistanceThreshold: 1.5, evaluationWindow: 3 }));
    expect(e.threshold).toBe(1.5);
    e.recordReturned(['a', 'b']);
    e.recordSuppression('a');
    expect(e.recordReturned(['c'])).toBe('disable'); // window of 3 reached with LUR 0 and feedback
  });

  it('is 0 (not NaN) with no samples', () => {
    const st = new LateralEvaluator().status();
    expect([st.lur, st.lsr, st.lhi]).toEqual([0, 0, 0]);
  });

  it('counts feedback only for lateral results, once per returned occurrence', () => {
    const e = new LateralEvaluator();
    e.recordReturned(['x']);
    expect(e.recordReinforcement('not-lateral', 50)).toBe(false);
    expect(e.recordReinforcement('x', 50)).toBe(true);
    expect(e.recordReinforcement('x', 50)).toBe(true); // still lateral, but not counted again
    expect(e.status().reinforced).toBe(1);
    e.recordReturned(['x']);
    expect(e.recordReinforcement('x', -30)).toBe(true); // negative valence = negative feedback
    expect(e.status()).toMatchObject({ reinforced: 1, suppressed: 1, samples: 2 });
  });

  it('formats the reinforce reply', () => {
    expect(formatReinforce('mem-123', 50, true)).toBe("Reinforced 'mem-123' with valence=50 (lateral result — feedback recorded)");
    expect(formatReinforce('mem-123', 50, false)).toBe("Reinforced 'mem-123' with valence=50");
  });
});

describe('auto-tuning every evaluationWindow returns', () => {
  it('changes nothing while there is no feedback at all (silence is not evidence)', () => {
    const e = new LateralEvaluator({ evaluationWindow: 5 });
    expect(e.recordReturned(ids('q', 5))).toBe('no-feedback');
    expect(e.recordReturned(ids('r', 5))).toBe('no-feedback');
    expect(e.enabled).toBe(true);
    expect(e.threshold).toBe(1.2);
    // The first feedback makes the table apply: 1 suppression, LUR 0/15 < 0.05 -> disable.
    e.recordSuppression('r0');
    expect(e.recordReturned(ids('s', 5))).toBe('disable');
    expect(e.enabled).toBe(false);
  });

  it('LUR < 0.05 disables lateral mode', () => {
    const e = new LateralEvaluator({ evaluationWindow: 20 });
    expect(e.recordReturned(ids('a', 19))).toBeNull(); // no evaluation before the window fills
    e.recordSuppression('a0');
    expect(e.recordReturned(['a19'])).toBe('disable');
    expect(e.enabled).toBe(false);
    expect(e.apply({ lateralMode: true, lateralDistanceThreshold: 1.2 }).lateralMode).toBe(false);
    e.reEnable();
    expect(e.enabled).toBe(true);
    expect(e.status().samples).toBe(0);
  });

  it('0.05 <= LUR < 0.10 tightens: threshold * 1.1 (more distance required)', () => {
    const e = new LateralEvaluator({ evaluationWindow: 20 });
    e.recordReturned(ids('a', 10));
    e.recordReinforcement('a3', 40);
    expect(e.recordReturned(ids('b', 10))).toBe('tighten'); // LUR = 1/20 = 0.05
    expect(e.threshold).toBeCloseTo(1.32, 12);
    expect(e.apply({ lateralMode: true, lateralDistanceThreshold: 1.5 })).toEqual({ lateralMode: true, lateralDistanceThreshold: expect.closeTo(1.65, 12) });
    // second window: 3/40 = 0.075 -> tighten again: 1.2 * 1.21 = 1.452
    e.recordReinforcement('b1', 10);
    e.recordReinforcement('b2', 10);
    expect(e.recordReturned(ids('c', 20))).toBe('tighten');
    expect(e.threshold).toBeCloseTo(1.452, 12);
    expect(e.formatStatus()).toContain('Threshold:  1.45');
  });

  it('LUR between 0.10 and 0.30 changes nothing; above 0.30 is healthy', () => {
    const e = new LateralEvaluator({ evaluationWindow: 10 });
    e.recordReturned(ids('a', 9));
    e.recordReinforcement('a0', 10);
    expect(e.recordReturned(['a9'])).toBe('steady'); // 1/10 = 0.10: not < 0.10
    expect(e.threshold).toBe(1.2);
    ['a1', 'a2', 'a3', 'a4', 'a5', 'a6'].forEach((id) => e.recordReinforcement(id, 10));
    expect(e.recordReturned(ids('b', 10))).toBe('healthy'); // 7/20 = 0.35
    expect(e.enabled).toBe(true);
  });

  it('evaluates once when a single batch crosses a window boundary, and caps the threshold at 2', () => {
    const e = new LateralEvaluator({ baseThreshold: 1.95, evaluationWindow: 5 });
    e.recordReturned(['a']);
    e.recordReinforcement('a', 10);
    expect(e.recordReturned(ids('b', 12))).toBe('tighten'); // 1/13 = 0.077
    expect(e.threshold).toBe(2);
  });
});

describe('persistence', () => {
  it('round-trips through JSON and keeps behaving the same', () => {
    const e = new LateralEvaluator({ evaluationWindow: 20 });
    e.recordReturned(ids('a', 10));
    e.recordReinforcement('a3', 40);
    e.recordReturned(ids('b', 10));
    const json = JSON.stringify(e);
    const back = LateralEvaluator.fromJSON(JSON.parse(json));
    expect(JSON.stringify(back)).toBe(json);
    expect(back.threshold).toBeCloseTo(1.32, 12);
    expect(back.wasLateral('a3')).toBe(true);
    expect(back.status()).toEqual(e.status());
  });

  it('reloads the state after every action auto-tuning can take, "no feedback yet" included', () => {
    const e = new LateralEvaluator({ evaluationWindow: 5 });
    expect(e.recordReturned(ids('q', 5))).toBe('no-feedback');
    const back = LateralEvaluator.fromJSON(JSON.parse(JSON.stringify(e)));
    expect(back.status()).toEqual(e.status());
    expect(back.status().samples).toBe(5); // the counts survive a reload instead of starting afresh
    for (const lastAction of TUNING_ACTIONS) expect(LateralEvaluator.fromJSON({ ...e.toJSON(), lastAction }).toJSON().lastAction).toBe(lastAction);
  });

  it('refuses a corrupt saved state with INVALID_CONFIG', () => {
    const good = new LateralEvaluator().toJSON();
    for (const bad of [null, 'x', { ...good, version: 2 }, { ...good, returned: -1 }, { ...good, reinforced: 5 }, { ...good, thresholdScale: 0.5 }, { ...good, recent: [{ id: 3, fb: 0 }] }]) {
      expect(() => LateralEvaluator.fromJSON(bad)).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG' }));
    }
  });
});
