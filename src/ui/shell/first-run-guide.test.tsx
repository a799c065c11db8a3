// @vitest-environment jsdom
// The first-run guide, against a stub of the services: shown on the Memories view only, unfolded
// while nothing is stored, folded to one line once memories exist (unfolded on request), Done
// stores the dismissal; asked for again (openGuide) it comes back unfolded on the Memories view.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useUi } from '../../state/ui-store';

let count = 0;
let dismissedAt: number | null = null;
const subscribers = new Set<(v: number | null) => void>();
const saved: [string, unknown][] = [];
vi.mock('../../services', () => ({
  services: () => ({
    countMemories: async () => count,
    liveSetting: () => ({
      subscribe({ next }: { next: (v: number | null) => void }) {
        subscribers.add(next);
        next(dismissedAt);
        return { unsubscribe: () => subscribers.delete(next) };
      },
    }),
    setSetting: async (key: string, value: number | null) => {
      saved.push([key, value]);
      dismissedAt = value;
      subscribers.forEach((s) => s(value));
    },
  }),
}));

// the sample job as the guide reads it: idle unless a test sets it running
const job = vi.hoisted(() => ({ state: { state: 'idle' } as Record<string, unknown> }));
vi.mock('./sample-job', () => ({
  sampleJob: { start: async () => {}, get: () => job.state, subscribe: () => () => {} },
  useSampleJob: () => job.state,
}));

const { FirstRunGuide } = await import('./FirstRunGuide');
const { openGuide } = await import('./navigate');
const { useShell } = await import('./shell-store');

const steps = () => screen.getByRole('list', { hidden: true });

beforeEach(() => {
  job.state = { state: 'idle' };
  count = 0;
  dismissedAt = null;
  saved.length = 0;
  subscribers.clear();
  useUi.setState({ view: 'memories' });
  useShell.setState({ guideOpen: false });
});
afterEach(cleanup);

describe('FirstRunGuide', () => {
  it('on first run (nothing stored) shows its three steps unfolded, with no way to fold them', async () => {
    render(<FirstRunGuide />);
    await screen.findByRole('heading', { name: 'Three things Mnemograph does differently' });
    expect(steps().hidden).toBe(false);
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Search by meaning', 'Lateral hits', 'Chains of thought']);
    expect(screen.queryByTestId('guide-toggle')).toBeNull();
    expect(screen.getByRole('button', { name: 'Skip the guide' })).toBeTruthy();
  });

  it('while the sample loads, says how far it is beside the button that started it', async () => {
    job.state = { state: 'running', phase: 'embedding', done: 96, total: 323, startedAt: 0, leftMs: 21_000 };
    render(<FirstRunGuide />);
    expect((await screen.findByTestId('guide-sample-progress')).textContent).toBe(' Understanding the memories: 96 of 323 · about 20 seconds left');
    expect(screen.getByRole('button', { name: 'Loading the sample…' })).toHaveProperty('disabled', true);
  });

  it('shows on the Memories view only: Explore, Your data and the trash start with their own content', async () => {
    useUi.setState({ view: 'graph' });
    const { container } = render(<FirstRunGuide />);
    await act(async () => {}); // the count and the setting are read
    expect(container.innerHTML).toBe('');
    act(() => useUi.setState({ view: 'trash' }));
    expect(screen.queryByTestId('first-run-guide')).toBeNull();
    act(() => useUi.setState({ view: 'memories' }));
    await screen.findByTestId('first-run-guide');
  });

  it('once memories exist: folded to one line, unfolded by "Show the steps", folded again by "Hide the steps"', async () => {
    count = 3;
    render(<FirstRunGuide />);
    const toggle = await screen.findByRole('button', { name: 'Show the steps' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(steps().hidden).toBe(true);
    expect(screen.getByText('Search by meaning · Lateral hits · Chains of thought')).toBeTruthy();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.textContent).toBe('Hide the steps');
    expect(steps().hidden).toBe(false);
    fireEvent.click(toggle);
    expect(steps().hidden).toBe(true);
  });

  it('Done stores the dismissal and the guide goes; asked for again from another view it is back unfolded on Memories', async () => {
    count = 3;
    render(<FirstRunGuide />);
    fireEvent.click(await screen.findByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByTestId('first-run-guide')).toBeNull());
    expect(saved).toHaveLength(1);
    expect(saved[0]![0]).toBe('shell.guideDismissedAt');
    expect(typeof saved[0]![1]).toBe('number');
    expect(screen.getByTestId('first-run-guide-dismissed')).toBeTruthy();
    // Settings / the palette: the dismissal cleared, then openGuide, from Explore
    act(() => useUi.setState({ view: 'graph' }));
    await act(async () => {
      dismissedAt = null;
      subscribers.forEach((s) => s(null));
      openGuide();
    });
    expect(useUi.getState().view).toBe('memories');
    await screen.findByTestId('first-run-guide');
    expect(steps().hidden).toBe(false);
    expect(screen.getByRole('button', { name: 'Hide the steps' }).getAttribute('aria-expanded')).toBe('true');
  });
});
