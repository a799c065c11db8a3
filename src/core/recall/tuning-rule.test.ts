// The auto-tuning rule in effect, as the UI shows it: every boundary comes from the evaluator's
// own constants, so changing the table moves these cases with it.
import { describe, expect, it } from 'vitest';
import {
  LUR_DISABLE_BELOW,
  LUR_HEALTHY_ABOVE,
  LUR_TIGHTEN_BELOW,
  LateralEvaluator,
  TIGHTEN_FACTOR,
  TUNING_TABLE,
  tuningDecision,
  tuningRuleInEffect,
  type LateralStatus,
} from './evaluator';
import { BASE_DEFAULTS } from './options';

const RETURNED = 1000; // LUR = reinforced / 1000: exact for the table's bounds
const status = (lur: number, over: Partial<LateralStatus> = {}): LateralStatus => {
  const reinforced = Math.round(lur * RETURNED);
  return { enabled: true, threshold: 1, samples: RETURNED, reinforced, suppressed: 1, lur: reinforced / RETURNED, lsr: 0, lhi: 0, lastAction: 'none', ...over };
};
const ruleAt = (lur: number, over?: Partial<LateralStatus>) => tuningRuleInEffect(status(lur, over)).rule;

describe('tuningRuleInEffect', () => {
  it('picks the row of the table by LUR, bounds included where the seed says so', () => {
    expect(ruleAt(LUR_DISABLE_BELOW - 0.001)).toBe('disable');
    expect(ruleAt(LUR_DISABLE_BELOW)).toBe('tighten');
    expect(ruleAt(LUR_TIGHTEN_BELOW - 0.001)).toBe('tighten');
    expect(ruleAt(LUR_TIGHTEN_BELOW)).toBe('steady');
    expect(ruleAt(LUR_HEALTHY_ABOVE)).toBe('steady');
    expect(ruleAt(LUR_HEALTHY_ABOVE + 0.001)).toBe('healthy');
  });

  it('says lateral mode is off, or that nothing was returned, before any row applies', () => {
    expect(ruleAt(LUR_HEALTHY_ABOVE + 0.1, { enabled: false })).toBe('disabled');
    expect(ruleAt(0, { samples: 0, reinforced: 0, suppressed: 0 })).toBe('no-samples');
    expect(ruleAt(0, { reinforced: 0, suppressed: 0 })).toBe('no-feedback');
  });

  it('returns the numbers that decide it and the next evaluation point', () => {
    const r = tuningRuleInEffect(status(0.2, { samples: 47 }), 20);
    expect(r.table).toEqual({ disableBelow: LUR_DISABLE_BELOW, tightenBelow: LUR_TIGHTEN_BELOW, healthyAbove: LUR_HEALTHY_ABOVE, tightenFactor: TIGHTEN_FACTOR });
    expect(r.table).toBe(TUNING_TABLE);
    expect(r.evaluationWindow).toBe(20);
    expect(r.nextEvaluationAt).toBe(60); // 47 returned, one evaluation every 20: the next at 60
    expect(r.lur).toBe(0.2);
    const w = BASE_DEFAULTS.evaluationWindow;
    expect(tuningRuleInEffect(status(0.2, { samples: w })).nextEvaluationAt).toBe(2 * w); // exactly on a boundary: the next one
  });

  it('is the rule the evaluator then applies', () => {
    const w = 20;
    const ev = new LateralEvaluator({ evaluationWindow: w });
    // 19 returned, one reinforced: LUR 1/19 = 0.053 puts 'tighten' in effect; the 20th return
    // triggers the evaluation at LUR 1/20 = 0.05 (not below 0.05, below 0.10), which tightens.
    ev.recordReturned(Array.from({ length: w - 1 }, (_, i) => `m${i}`));
    ev.recordReinforcement('m0', 50);
    expect(tuningRuleInEffect(ev.status(), w).rule).toBe('tighten');
    expect(ev.recordReturned(['m19'])).toBe('tighten');
    expect(tuningDecision({ returned: w, reinforced: 1, suppressed: 0 })).toBe('tighten');
  });
});
