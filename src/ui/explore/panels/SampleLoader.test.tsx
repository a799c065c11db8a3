// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SampleLoader, type SampleProgress } from './SampleLoader';
import { AppError } from '../../../core/errors';

afterEach(cleanup);

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('SampleLoader', () => {
  it('loads with one click, shows n of N embedded, then the done state', async () => {
    const user = userEvent.setup();
    const d = deferred<number>();
    let progress!: SampleProgress;
    const onLoad = vi.fn((p: SampleProgress) => {
      progress = p;
      return d.promise;
    });
    const onDone = vi.fn();
    render(<SampleLoader onLoad={onLoad} total={300} onDone={onDone} />);
    const root = screen.getByTestId('sample-loader');
    expect(root.getAttribute('data-phase')).toBe('idle');
    expect(root.textContent).toContain('300 example memories');
    await user.click(screen.getByRole('button', { name: 'Load sample collection' }));
    expect(onLoad).toHaveBeenCalledTimes(1);
    expect(root.getAttribute('data-phase')).toBe('loading');
    expect(screen.getByTestId('sample-progress-text').textContent).toBe('0 of 300 embedded');

    act(() => progress(120, 300));
    expect(screen.getByTestId('sample-progress-text').textContent).toBe('120 of 300 embedded');
    const bar = screen.getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('120');
    expect(bar.getAttribute('aria-valuemax')).toBe('300');
    expect((bar.firstElementChild as HTMLElement).style.width).toBe('40%');

    await act(async () => d.resolve(300));
    expect(root.getAttribute('data-phase')).toBe('done');
    expect(screen.getByTestId('sample-done').textContent).toBe('✓ Sample collection loaded: 300 memories.');
    expect(onDone).toHaveBeenCalledWith(300);
    expect(screen.queryByRole('button', { name: 'Load sample collection' })).toBeNull();
  });

  it('without a count from onLoad, the last reported total is shown', async () => {
    const user = userEvent.setup();
    const onLoad = vi.fn(async (p: SampleProgress) => {
      p(3, 3);
    });
    render(<SampleLoader onLoad={onLoad} />);
    await user.click(screen.getByRole('button', { name: 'Load sample collection' }));
    await waitFor(() => expect(screen.getByTestId('sample-done').textContent).toBe('✓ Sample collection loaded: 3 memories.'));
  });

  it('shows a failure with its message and retries', async () => {
    const user = userEvent.setup();
    const onLoad = vi.fn().mockRejectedValueOnce(new AppError('QUOTA_EXCEEDED')).mockResolvedValueOnce(1);
    render(<SampleLoader onLoad={onLoad} />);
    await user.click(screen.getByRole('button', { name: 'Load sample collection' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('storage quota exceeded'));
    expect(screen.getByTestId('sample-loader').getAttribute('data-phase')).toBe('error');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByTestId('sample-done').textContent).toBe('✓ Sample collection loaded: 1 memory.'));
    expect(onLoad).toHaveBeenCalledTimes(2);
  });

  it('Cancel aborts the signal and returns to the start', async () => {
    const user = userEvent.setup();
    let signal!: AbortSignal;
    const onLoad = vi.fn(
      (_p: SampleProgress, s: AbortSignal) =>
        new Promise<number>((_, reject) => {
          signal = s;
          s.addEventListener('abort', () => reject(new AppError('ABORTED')));
        }),
    );
    render(<SampleLoader onLoad={onLoad} total={300} />);
    await user.click(screen.getByRole('button', { name: 'Load sample collection' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(signal.aborted).toBe(true);
    await waitFor(() => expect(screen.getByTestId('sample-loader').getAttribute('data-phase')).toBe('idle'));
    expect(screen.getByRole('status').textContent).toBe('Loading was cancelled; nothing was added.');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('starts in the done state when the collection is already loaded', () => {
    render(<SampleLoader onLoad={vi.fn()} loadedCount={296} />);
    expect(screen.getByTestId('sample-done').textContent).toBe('✓ Sample collection loaded: 296 memories.');
  });

  it('Enter on the load button starts loading', async () => {
    const user = userEvent.setup();
    const onLoad = vi.fn(() => new Promise<number>(() => {}));
    render(<SampleLoader onLoad={onLoad} />);
    screen.getByRole('button', { name: 'Load sample collection' }).focus();
    await user.keyboard('{Enter}');
    expect(onLoad).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('sample-progress-text').textContent).toBe('Preparing…');
  });
});
