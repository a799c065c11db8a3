// Maps IndexedDB / Dexie failures to the app's error catalogue.

import { AppError, describeError } from '../core/errors';

const QUOTA_NAMES = new Set(['QuotaExceededError', 'NS_ERROR_DOM_QUOTA_REACHED']);

/** Looks through Dexie's wrappers (AbortError.inner, BulkError.failures, cause) for a quota error. */
export function isQuotaError(e: unknown, depth = 0): boolean {
  if (!e || typeof e !== 'object' || depth > 5) return false;
  const r = e as { name?: unknown; code?: unknown; inner?: unknown; cause?: unknown; failures?: unknown; message?: unknown };
  if (typeof r.name === 'string' && QUOTA_NAMES.has(r.name)) return true;
  if (r.code === 22 && r.name !== 'AbortError') return true; // legacy DOMException.QUOTA_EXCEEDED_ERR
  if (isQuotaError(r.inner, depth + 1) || isQuotaError(r.cause, depth + 1)) return true;
  if (Array.isArray(r.failures)) return r.failures.some((f) => isQuotaError(f, depth + 1));
  if (r.failures && typeof r.failures === 'object')
    return Object.values(r.failures).some((f) => isQuotaError(f, depth + 1));
  return false;
}

function nameOf(e: unknown): string {
  return e && typeof e === 'object' && typeof (e as { name?: unknown }).name === 'string' ? (e as { name: string }).name : '';
}

const detailOf = describeError;

/**
 * Turns any storage failure into an AppError (the storage counterpart of the core's toAppError:
 * it reads Dexie's and IndexedDB's error names). `closedBecause` is the status error to report
 * when the database was closed on purpose (another tab upgraded it).
 */
export function storageError(e: unknown, closedBecause?: AppError | null): AppError {
  if (e instanceof AppError) return e;
  if (isQuotaError(e)) return new AppError('QUOTA_EXCEEDED', undefined, detailOf(e));
  const name = nameOf(e);
  const innerName = nameOf((e as { inner?: unknown } | null)?.inner);
  if (name === 'VersionError' || innerName === 'VersionError') return new AppError('SCHEMA_OUTDATED', undefined, detailOf(e));
  if (name === 'DatabaseClosedError' && closedBecause) return closedBecause;
  if (name === 'DatabaseClosedError' || name === 'OpenFailedError' || name === 'MissingAPIError' || name === 'InvalidStateError')
    return new AppError('DB_UNAVAILABLE', undefined, detailOf(e));
  return new AppError('DB_UNAVAILABLE', undefined, detailOf(e));
}
