// The error catalogue: every failure a person can meet has a code and says what they can do.
// Errors cross worker boundaries as plain envelopes ({ code, message }), never as bare strings.

export const ERROR_CATALOGUE = {
  EMPTY_TEXT: 'A memory needs some text. Type something, then save.',
  INVALID_IMPORTANCE: 'Importance must be a number from 0 to 1.',
  INVALID_OPTION: 'An option has an invalid value.',
  INVALID_CONFIG: 'A setting has an invalid value.',
  QUOTA_EXCEEDED:
    'The browser refused to store more data (storage quota exceeded). Nothing was saved. Free some space or make storage persistent, then try again.',
  SCHEMA_OUTDATED:
    'Mnemograph was updated in another tab. Reload this tab to keep working; nothing has been lost.',
  DB_BLOCKED: 'Another Mnemograph tab is holding an older version of the database open. Close it, then reload.',
  DB_UNAVAILABLE: 'The browser database could not be opened (private mode or storage disabled?).',
  MODEL_LOAD_FAILED: 'The sentence encoder could not be loaded. Reload to try again.',
  WORKER_CRASHED: 'A background worker stopped unexpectedly. It has been restarted; try again.',
  TIMEOUT: 'The operation took too long and was stopped. Try again.',
  ABORTED: 'The operation was cancelled.',
  NOT_FOUND: 'That memory no longer exists.',
  INVALID_EMBEDDING: 'An embedding held an invalid value (NaN or Infinity).',
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface ErrorEnvelope {
  code: ErrorCode;
  message: string;
  detail?: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly detail?: string;
  constructor(code: ErrorCode, message: string = ERROR_CATALOGUE[code], detail?: string) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.detail = detail;
  }
  toEnvelope(): ErrorEnvelope {
    return { code: this.code, message: this.message, detail: this.detail };
  }
  static fromEnvelope(e: ErrorEnvelope): AppError {
    return new AppError(e.code, e.message, e.detail);
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
