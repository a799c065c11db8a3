// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { DivergenceAlertBanner, lastHoursWords, type DivergenceAlertBannerProps } from './DivergenceAlertBanner';
import { DEFAULT_SIMILARITY_CONFIG } from '../../../core/spaces';

afterEach(cleanup);

const recent = [
  { id: 'm-1', label: 'Auth: refresh tokens rotate' },
  { id: 'm-2', label: 'Session cookie flags' },
];
const props: DivergenceAlertBannerProps = {
  topic: 'sourdough and fermentation',
  hours: 2,
  // best similarity to the recent work: E1 0.12 < 0.30, E6 0 < 0.20, E13 0.05 < 0.20, E12 0.55 >= 0.30
  best: { E1: 0.12, E6: 0, E12: 0.55, E13: 0.05 },
  agreeing: ['E1', 'E6', 'E13'],
  recent,
};

describe('DivergenceAlertBanner', () => {
  it('says it in plain words, as a polite status that never takes focus', () => {
    render(<DivergenceAlertBanner {...props} onShowRecent={() => {}} />);
    const banner = screen.getByTestId('divergence-alert');
    expect(banner.getAttribute('role')).toBe('status');
    expect(banner.getAttribute('aria-live')).toBe('polite');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('divergence-title').textContent).toBe('This is far from what you worked on in the last two hours: sourdough and fermentation');
    const text = banner.textContent ?? '';
    for (const jargon of ['Divergence', 'threshold', 'E1 ', 'Semantic', 'SPLADE', 'similarity:']) expect(text).not.toContain(jargon);
    expect(banner.contains(document.activeElement)).toBe(false);
  });

  it('keeps the per-space figures behind "Details": closest recent memory against the line', () => {
    render(<DivergenceAlertBanner {...props} />);
    const details = screen.getByTestId('divergence-details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(screen.getByText('Details').tagName).toBe('SUMMARY');
    expect(screen.getByTestId('divergence-sim-E1').textContent).toBe('0.12');
    expect(screen.getByTestId('divergence-threshold-E1').textContent).toBe('0.30');
    expect(screen.getByTestId('divergence-E6').textContent).toContain('same key words');
    expect(screen.getByTestId('divergence-E12').textContent).toMatch(/0\.55.*0\.30.*no$/);
    expect(screen.getByTestId('divergence-E13').textContent).toMatch(/yes$/);
    // the rule in words: the meaning and 2 other kinds agree
    expect(details.textContent).toContain('the meaning and 2 other kinds of similarity agree');
    expect(details.textContent).toContain('Auth: refresh tokens rotate');
  });

  it("shows the lines the engine moved to its encoder's scale, and the meaning's line", () => {
    render(<DivergenceAlertBanner {...props} lines={{ E1: 0.145 }} meaningLine={0.131} />);
    expect(screen.getByTestId('divergence-threshold-E1').textContent).toBe('0.14'); // fixed(): two decimals
    expect(screen.getByTestId('divergence-E1').textContent).toMatch(/yes$/); // 0.12 < 0.145
    expect(screen.getByTestId('divergence-threshold-E12').textContent).toBe('0.30'); // not an encoder space: as set
    expect(screen.getByTestId('divergence-details').textContent).toContain('the meaning below 0.13,');
  });

  it('a capture is "this memory"', () => {
    render(<DivergenceAlertBanner {...props} trigger="capture" />);
    expect(screen.getByTestId('divergence-title').textContent).toMatch(/^This memory is far from/);
  });

  it('"Show recent work" hands over the recent ids; Dismiss and Escape tell the caller', () => {
    const onShowRecent = vi.fn();
    const onDismiss = vi.fn();
    render(<DivergenceAlertBanner {...props} onShowRecent={onShowRecent} onDismiss={onDismiss} />);
    fireEvent.click(screen.getByRole('button', { name: 'Show recent work' }));
    expect(onShowRecent).toHaveBeenCalledWith(['m-1', 'm-2']);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(onDismiss).toHaveBeenCalledTimes(1);
    const dismiss = screen.getByRole('button', { name: 'Dismiss' });
    fireEvent.keyDown(dismiss, { key: 'Escape' });
    expect(onDismiss).toHaveBeenCalledTimes(2);
  });

  it('lists only the spaces the config checks, and disables "Show recent work" with nothing recent', () => {
    const config = { ...DEFAULT_SIMILARITY_CONFIG, excluded: { ...DEFAULT_SIMILARITY_CONFIG.excluded, E13: true } };
    render(<DivergenceAlertBanner {...props} recent={[]} config={config} onShowRecent={() => {}} />);
    expect(screen.queryByTestId('divergence-E13')).toBeNull();
    expect(screen.getByTestId('divergence-E1')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Show recent work' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('words the window', () => {
    expect(lastHoursWords(2)).toBe('in the last two hours');
    expect(lastHoursWords(1)).toBe('in the last hour');
    expect(lastHoursWords(0.5)).toBe('in the last 30 minutes');
    expect(lastHoursWords(24)).toBe('in the last 24 hours');
  });
});
