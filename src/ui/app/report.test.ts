import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../core/errors';
import { useUi } from '../../state/ui-store';
import { errorMessage } from './format';
import { logError, toastError } from './report';

afterEach(() => {
  vi.restoreAllMocks();
  useUi.setState({ toasts: [] });
});

describe('errorMessage', () => {
  it("is an AppError's own message, an Error's message, or the thrown value as text", () => {
    expect(errorMessage(new AppError('NOT_FOUND'))).toBe('That memory no longer exists.');
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage('plain')).toBe('plain');
  });
});

describe('logError', () => {
  it('logs with the error code: a plain Error under the fallback, an AppError under its own', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(logError(new Error('disk'), 'DB_UNAVAILABLE').code).toBe('DB_UNAVAILABLE');
    expect(log).toHaveBeenLastCalledWith('[mnemograph]', 'DB_UNAVAILABLE', expect.any(AppError));
    logError(new AppError('TIMEOUT'));
    expect(log).toHaveBeenLastCalledWith('[mnemograph]', 'TIMEOUT', expect.any(AppError));
  });
});

describe('toastError', () => {
  it('shows an AppError as an error toast with its code, without logging it', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    toastError(new AppError('NOT_FOUND'));
    expect(useUi.getState().toasts).toEqual([{ id: expect.any(Number), kind: 'error', message: 'That memory no longer exists.', code: 'NOT_FOUND' }]);
    expect(log).not.toHaveBeenCalled();
  });

  it('shows what an unexpected failure said and logs it with the fallback code', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    toastError(new Error('boom'));
    expect(useUi.getState().toasts.map((t) => [t.message, t.code])).toEqual([['boom', 'WORKER_CRASHED']]);
    expect(log).toHaveBeenCalledWith('[mnemograph]', 'WORKER_CRASHED', expect.any(Error));
  });
});
