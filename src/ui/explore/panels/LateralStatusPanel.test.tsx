// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LateralStatusPanel } from './LateralStatusPanel';
import { LateralEvaluator, formatLateralStatus, type LateralStatus } from '../../../core/recall';
import { tuningRuleInEffect } from '../../../core/recall';

afterEach(cleanup);

// The seed's memory_status example: 47 returned, 16 reinforced, 4 suppressed.
// LUR = 16/47 = 0.340 -> "0.34"; LSR = 4/47 = 0.085 -> "0.09"; LHI = 4/20 = "0.20".
const seedExample: LateralStatus = {
  enabled: true,
  threshold: 1.2,
  samples: 47,
  reinforced: 16,
  suppressed: 4,
  lur: 16 / 47,
  lsr: 4 / 47,
  lhi: 4 / 20,
  lastAction: 'healthy',
};
const value = (key: string) => screen.getByTestId(`lateral-status-${key}-value`).textContent;

describe('LateralStatusPanel', () => {
  it("shows the seed's memory_status values with explanations", () => {
    render(<LateralStatusPanel status={seedExample} />);
    expect(screen.getByRole('heading', { name: 'Far-but-related results' })).toBe(screen.getByTestId('lateral-status').querySelector('h3'));
    expect(value('enabled')).toBe('on');
    expect(value('threshold')).toBe('1.20');
    expect(value('samples')).toBe('47');
    expect(value('lur')).toBe('0.34');
    expect(value('lsr')).toBe('0.09');
    expect(value('lhi')).toBe('0.20');
    expect(screen.getByTestId('lateral-status-lur').textContent).toContain('reinforced / returned (16 / 47)');
    expect(screen.getByTestId('lateral-status-lsr').textContent).toContain('suppressed / returned (4 / 47)');
    expect(screen.getByTestId('lateral-status-lhi').textContent).toContain('suppressed / (reinforced + suppressed) (4 / 20)');
    // 47 returns with a window of 20: the next evaluation is at 60.
    expect(screen.getByTestId('lateral-status').getAttribute('data-rule')).toBe('healthy');
    expect(screen.getByTestId('lateral-status-rule').textContent).toContain(
      'The share found useful is above 0.30: lateral mode is healthy, no change. Next evaluation after 60 returns.',
    );
    expect(screen.getByTestId('lateral-status-text').textContent).toBe(
      ['Lateral Retrieval:', '  Enabled:    true', '  Threshold:  1.20', '  Samples:    47', '  LUR (util): 0.34', '  LSR (supp): 0.09', '  LHI (hall): 0.20'].join('\n'),
    );
  });

  it('says it in one plain sentence first; the six figures wait, folded, behind "Details"', () => {
    render(<LateralStatusPanel status={seedExample} />);
    expect(screen.getByTestId('lateral-status-summary').textContent).toBe(
      'On: the Divergent way of recalling adds distant memories that share a theme. 47 shown so far; you marked 16 useful and pushed 4 away.',
    );
    const details = screen.getByTestId('lateral-status-details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')!.textContent).toBe('Details: the six figures');
    for (const key of ['enabled', 'threshold', 'samples', 'lur', 'lsr', 'lhi']) expect(details.contains(screen.getByTestId(`lateral-status-${key}`))).toBe(true);
    // the summary comes before the figures in reading order
    const summary = screen.getByTestId('lateral-status-summary');
    expect(summary.compareDocumentPosition(details) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    cleanup();
    render(<LateralStatusPanel status={{ ...new LateralEvaluator().status(), enabled: false }} />);
    expect(screen.getByTestId('lateral-status-summary').textContent).toBe('Off: no recall adds distant memories for now. None shown yet.');
  });

  it('reads a real evaluator after a tightening evaluation', () => {
    // Window 20: 10 returned, one reinforced, 10 more -> evaluation at 20 with LUR 1/20 = 0.05:
    // not below 0.05, below 0.10 -> tighten: threshold 1.2 x 1.1 = 1.32.
    const ev = new LateralEvaluator({ evaluationWindow: 20 });
    ev.recordReturned(Array.from({ length: 10 }, (_, i) => `a${i}`));
    ev.recordReinforcement('a0', 60);
    expect(ev.recordReturned(Array.from({ length: 10 }, (_, i) => `b${i}`))).toBe('tighten');
    render(<LateralStatusPanel status={ev.status()} evaluationWindow={20} />);
    expect(value('threshold')).toBe('1.32');
    expect(value('samples')).toBe('20');
    expect(value('lur')).toBe('0.05');
    expect(value('lhi')).toBe('0.00');
    expect(screen.getByTestId('lateral-status-rule').textContent).toContain(
      'The share found useful is below 0.10: at the next evaluation (after 40 returns) the distance threshold is raised by 10%',
    );
    expect(screen.getByTestId('lateral-status-rule').textContent).toContain('Last evaluation: raised the threshold by 10%.');
    expect(screen.getByTestId('lateral-status-text').textContent).toBe(ev.formatStatus());
  });

  it('after an auto-disable offers to re-enable (keyboard too)', async () => {
    const user = userEvent.setup();
    const ev = new LateralEvaluator({ evaluationWindow: 20 });
    ev.recordReturned(['x0']);
    ev.recordSuppression('x0');
    expect(ev.recordReturned(Array.from({ length: 19 }, (_, i) => `x${i + 1}`))).toBe('disable');
    const onReEnable = vi.fn();
    render(<LateralStatusPanel status={ev.status()} onReEnable={onReEnable} />);
    expect(value('enabled')).toBe('off');
    expect(screen.getByTestId('lateral-status').getAttribute('data-rule')).toBe('disabled');
    expect(screen.getByTestId('lateral-status-rule').textContent).toContain('Lateral mode was turned off automatically');
    screen.getByRole('button', { name: 'Re-enable lateral mode' }).focus();
    await user.keyboard('{Enter}');
    expect(onReEnable).toHaveBeenCalledTimes(1);
  });

  it('no re-enable button while enabled', () => {
    render(<LateralStatusPanel status={seedExample} onReEnable={() => {}} />);
    expect(screen.queryByRole('button', { name: 'Re-enable lateral mode' })).toBeNull();
  });

  it('shows the rule the core puts in effect', () => {
    const at = (lur: number, samples = 10): LateralStatus => ({ ...seedExample, lur, samples, reinforced: Math.round(lur * samples) });
    for (const st of [at(0, 0), at(0.1), at(0.5), { ...at(0.5), enabled: false }]) {
      cleanup();
      render(<LateralStatusPanel status={st} />);
      expect(screen.getByTestId('lateral-status').getAttribute('data-rule')).toBe(tuningRuleInEffect(st).rule);
    }
    // the four statuses above cover four different rules
    expect([at(0, 0), at(0.1), at(0.5), { ...at(0.5), enabled: false }].map((st) => tuningRuleInEffect(st).rule)).toEqual(['no-samples', 'steady', 'healthy', 'disabled']);
  });

  it('explains the first evaluation when nothing was returned yet', () => {
    render(<LateralStatusPanel status={new LateralEvaluator().status()} evaluationWindow={5} />);
    expect(screen.getByTestId('lateral-status-rule').textContent).toContain('No lateral results returned yet. The first evaluation happens after 5 returns.');
    expect(formatLateralStatus(new LateralEvaluator().status())).toContain('Samples:    0');
    expect(value('samples')).toBe('0');
  });

  it('says auto-tuning waits while lateral results have had no feedback', () => {
    const ev = new LateralEvaluator({ evaluationWindow: 2 });
    expect(ev.recordReturned(['a', 'b'])).toBe('no-feedback');
    render(<LateralStatusPanel status={ev.status()} evaluationWindow={2} />);
    expect(screen.getByTestId('lateral-status').getAttribute('data-rule')).toBe('no-feedback');
    expect(screen.getByTestId('lateral-status-rule').textContent).toContain('No feedback on lateral results yet');
    expect(value('enabled')).toBe('on');
  });
});
