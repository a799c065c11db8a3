import { AppError } from '../core/errors';

/** How a promise settles, for one-line assertions: 'resolved', the AppError code it rejects with, or what else it threw. */
export const codeOf = (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'resolved',
    (e: unknown) => (e instanceof AppError ? e.code : `not an AppError: ${String(e)}`),
  );
