// The UI's two ways to deal with a failure: show it (the person caused it or can act on it), or
// log it with its code (anything else). Nothing is swallowed.
import { isAppError, toAppError, type AppError, type ErrorCode } from '../../core/errors';
import { useUi } from '../../state/ui-store';
import { errorMessage } from './format';

/** Logs a failure nobody can act on, with its error code. */
export function logError(e: unknown, fallback?: ErrorCode): AppError {
  const err = toAppError(e, fallback);
  console.error('[mnemograph]', err.code, err);
  return err;
}

/** Shows a failure as an error toast (with its code); one that is not an AppError is logged too. */
export function toastError(e: unknown, prefix = ''): AppError {
  const err = toAppError(e);
  if (!isAppError(e)) console.error('[mnemograph]', err.code, e);
  useUi.getState().pushToast({ kind: 'error', message: `${prefix}${errorMessage(e)}`, code: err.code });
  return err;
}
