import { isAppError, toAppError } from '../../core/errors';
import { logError } from '../app/report';

export interface ShownError {
  code: string;
  message: string;
}

/** The error to show beside the action that failed; one that is not an AppError is logged too. */
export function toShown(e: unknown): ShownError {
  const err = isAppError(e) ? e : logError(e);
  return { code: err.code, message: toAppError(err).message };
}

export function ActionError({ error, testId }: { error: ShownError | null; testId: string }) {
  if (!error) return null;
  return (
    <p className="alert--error data__error" role="alert" data-testid={testId} data-code={error.code}>
      {error.message}
    </p>
  );
}
