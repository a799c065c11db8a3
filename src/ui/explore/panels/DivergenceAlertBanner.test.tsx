// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { DivergenceAlertBanner } from './DivergenceAlertBanner';
import { DEFAULT_SIMILARITY_CONFIG, detectDivergence, type DivergenceAlert } from '../../../core/spaces';

afterEach(cleanup);

const semantic: DivergenceAlert = {
  embedder: 'E1',
  embedderName: 'Semantic',
  similarity: 0.23,
  threshold: 0.3,
  recentMemorySummary: 'Discussing authentication implementation',
  divergenceMagnitude: 0.07,
  message: 'Low semantic similarity to recent activity',
};
const recent = [
  { id: 'm-1', label: 'Auth: refresh tokens rotate' },
  { id: 'm-2', label: 'Session cookie flags' },
];

describe('DivergenceAlertBanner', () => {
  it("renders the seed's Divergence Alert Format as a polite status, not a dialog", () => {
    render(<DivergenceAlertBanner alerts={[semantic]} recent={recent} onShowRecent={() => {}} />);
    const banner = screen.getByTestId('divergence-alert');
    expect(banner.getAttribute('role')).toBe('status');
    expect(banner.getAttribute('aria-live')).toBe('polite');
    expect(screen.queryByRole('dialog')).toBeNull();
    const text = banner.textContent ?? '';
    expect(text).toContain('Divergence detected');
    expect(text).toContain('Recent activity in Semantic space: Discussing authentication implementation');
    expect(text).toContain('Current appears different - similarity: 0.23 (threshold: 0.30)');
    expect(text).toContain('This may indicate a context switch.');
    expect(screen.getByTestId('divergence-note').textContent).toBe(
      'Note: Divergence is only detected in non-temporal spaces (E1, E5-E13). Temporal spaces (E2-E4) are not considered for divergence alerts.',
    );
    expect(text).toContain('Compared with 2 recent memories');
    // Focus is never taken.
    expect(banner.contains(document.activeElement)).toBe(false);
  });

  it('shows every alert of a detectDivergence result with its own similarity and threshold', () => {
    // Best E1 similarity 0.2 < 0.30, best E6 0.1 < 0.20; E7 0.9 is fine.
    const alerts = detectDivergence([{ E1: 0.2, E6: 0.05, E7: 0.9 }, { E1: 0.1, E6: 0.1 }], 'Sourdough feeding schedule');
    expect(alerts.map((a) => a.embedder)).toEqual(['E1', 'E6']);
    render(<DivergenceAlertBanner alerts={alerts} recent={recent} />);
    expect(screen.getByTestId('divergence-sim-E1').textContent).toBe('0.20');
    expect(screen.getByTestId('divergence-threshold-E1').textContent).toBe('0.30');
    expect(screen.getByTestId('divergence-sim-E6').textContent).toBe('0.10');
    expect(screen.getByTestId('divergence-threshold-E6').textContent).toBe('0.20');
    expect(screen.getByTestId('divergence-alert').textContent).toContain('Recent activity: Sourdough feeding schedule');
  });

  it('"Show recent work" hands over the recent ids', () => {
    const onShowRecent = vi.fn();
    render(<DivergenceAlertBanner alerts={[semantic]} recent={recent} onShowRecent={onShowRecent} />);
    fireEvent.click(screen.getByRole('button', { name: 'Show recent work' }));
    expect(onShowRecent).toHaveBeenCalledWith(['m-1', 'm-2']);
  });

  it('Dismiss hides it and tells the caller; a new alert set shows again', () => {
    const onDismiss = vi.fn();
    const { rerender } = render(<DivergenceAlertBanner alerts={[semantic]} recent={recent} onDismiss={onDismiss} />);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('divergence-alert')).toBeNull();
    expect(onDismiss).toHaveBeenCalledTimes(1);
    rerender(<DivergenceAlertBanner alerts={[semantic]} recent={recent} onDismiss={onDismiss} />);
    expect(screen.queryByTestId('divergence-alert')).toBeNull();
    rerender(<DivergenceAlertBanner alerts={[{ ...semantic, similarity: 0.1 }]} recent={recent} onDismiss={onDismiss} />);
    expect(screen.getByTestId('divergence-sim-E1').textContent).toBe('0.10');
  });

  it('Escape inside the banner dismisses it', () => {
    render(<DivergenceAlertBanner alerts={[semantic]} recent={recent} />);
    const dismiss = screen.getByRole('button', { name: 'Dismiss' });
    dismiss.focus();
    fireEvent.keyDown(dismiss, { key: 'Escape' });
    expect(screen.queryByTestId('divergence-alert')).toBeNull();
  });

  it('renders nothing without alerts', () => {
    render(<DivergenceAlertBanner alerts={[]} recent={recent} />);
    expect(screen.queryByTestId('divergence-alert')).toBeNull();
  });

  it('names the spaces actually checked when the config excludes more', () => {
    const config = { ...DEFAULT_SIMILARITY_CONFIG, excluded: { ...DEFAULT_SIMILARITY_CONFIG.excluded, E9: true } };
    render(<DivergenceAlertBanner alerts={[semantic]} recent={[]} config={config} onShowRecent={() => {}} />);
    expect(screen.getByTestId('divergence-note').textContent).toContain('(E1, E5-E8, E10-E13)');
    expect(screen.getByTestId('divergence-note').textContent).toContain('Temporal spaces (E2-E4, E9)');
    expect((screen.getByRole('button', { name: 'Show recent work' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
