// The error catalogue: every failure a person can meet has a code and says what they can do.
// Errors cross worker boundaries as plain envelopes ({ code, message }), never as bare strings.
// One way in (`toAppError`) and one abort test (`isAborted`) for every layer; messages that
// carry a value (a range, a count, a name) are built by the functions in MESSAGES, so the
// wording of every error lives in this file.

export const ERROR_CATALOGUE = {
  EMPTY_TEXT: 'A memory needs some text. Type something, then save.',
  INVALID_IMPORTANCE: 'Importance must be a number from 0 to 1.',
  INVALID_OPTION: 'An option has an invalid value.',
  INVALID_CONFIG: 'A setting has an invalid value.',
  QUOTA_EXCEEDED:
    'The browser refused to store more data (storage quota exceeded). Nothing was saved. Free some space (empty the trash, or clear other sites\' data in the browser\'s settings) or make storage persistent, then try again.',
  SCHEMA_OUTDATED:
    'Mnemograph was updated in another tab. Reload this tab to keep working; nothing has been lost.',
  DB_BLOCKED: 'Another Mnemograph tab is holding an older version of the database open. Close it, then reload.',
  DB_UNAVAILABLE: 'The browser database could not be opened (private mode or storage disabled?).',
  MODEL_LOAD_FAILED: 'The sentence encoder could not be loaded. Reload to try again.',
  WORKER_CRASHED: 'A background worker stopped unexpectedly. It has been restarted; try again.',
  TIMEOUT: 'The operation took too long and was stopped. Try again.',
  ABORTED: 'The operation was cancelled.',
  NOT_FOUND: 'That memory no longer exists.',
  NOT_READY: 'Your memories are still loading. Try again in a moment.',
  INVALID_EMBEDDING: 'An embedding held an invalid value (NaN or Infinity).',
  WRONG_PASSPHRASE:
    'This backup could not be unlocked: the passphrase is wrong, or the file was changed or damaged. Nothing was restored. Check the passphrase and try again.',
  IMPORT_INVALID: 'This file could not be read for import. Nothing was imported.',
  MODEL_DOWNLOAD_FAILED:
    'The model could not be downloaded. Check that you are online, then try again; nothing broken was kept.',
  MODEL_CHECKSUM:
    'A downloaded model file was not the file expected (its checksum differs). It was not kept. Try again later.',
  MODEL_FOLDER_INVALID: 'This folder does not hold a model this app can run (it needs config.json, tokenizer.json and onnx/*.onnx).',
  ENCODER_SWITCH_BUSY: 'The memories are already being prepared for another model. Finish or cancel that first.',
  IMAGE_TOO_LARGE: 'This picture is too large to keep. Nothing was attached; choose a smaller one (or a smaller export of it).',
  IMAGE_UNSUPPORTED:
    'This file is not a picture this app can keep (PNG, JPEG, GIF or WebP). Nothing was attached.',
  IMAGE_UNREADABLE: 'This picture could not be read (the file may be damaged or cut short). Nothing was attached.',
  SNAPSHOT_INVALID: 'A saved index could not be read. It is rebuilt from your memories; nothing is lost.',
  LANGUAGE_MODEL_FAILED:
    'The language model on this computer did not give a usable answer. Recall used your memories alone; check that the model is running.',
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Messages that carry a value. Each returns the text of one AppError; callers pick the code. */
export const MESSAGES = {
  /** "<name> must be <want> (got <value>)." for an option or setting out of its range. */
  outOfRange: (name: string, want: string, got?: unknown): string =>
    `${name} must be ${want}${got === undefined ? '' : ` (got ${String(got)})`}.`,
  /** A text field longer than its limit. */
  tooLong: (what: string, max: number): string => `${what} must be text of at most ${max} characters.`,
  /** The encoder returned a vector of the wrong size. */
  wrongDimension: (got: number, want: number): string => `The encoder returned ${got} dimensions; expected ${want}.`,
  /** A batch call returned the wrong number of items. */
  wrongCount: (what: string, got: number, want: number): string => `Expected ${want} ${what}, got ${got}.`,
  /** A file that is not what the import expected; `what` names the expected kind. */
  notA: (what: string, why: string): string => `This file is not ${what}: ${why}. Nothing was imported.`,
  /** A picture over the size limit: its size and the limit, in plain units. */
  imageTooLarge: (size: string, max: string): string =>
    `This picture is ${size}; pictures can be at most ${max}. Nothing was attached: choose a smaller one (or a smaller export of it).`,
  /** A file whose bytes are not one of the picture types kept; `name` is what the person picked. */
  imageUnsupported: (name: string): string =>
    `"${name}" is not a picture this app can keep (PNG, JPEG, GIF or WebP, checked from its content, not its name). Nothing was attached.`,
  /** A model file the hub did not give (404, 500, ...). */
  modelFileMissing: (file: string, status: number): string =>
    `The model file ${file} could not be downloaded (the server answered ${status}). Nothing broken was kept.`,
  /** A picked folder that is not a model this app can run; `why` says what is missing or wrong. */
  modelFolder: (why: string): string =>
    `This folder does not hold a model this app can run: ${why}. It needs config.json, tokenizer.json and onnx/*.onnx, as the model hub lays them out. Nothing was added.`,
  /** A downloaded model file whose SHA-256 is not the pinned one. */
  modelChecksum: (file: string): string =>
    `The downloaded file ${file} is not the file expected (its checksum differs). It was not kept; try again later.`,
} as const;

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

const isKnownCode = (c: unknown): c is ErrorCode => typeof c === 'string' && Object.hasOwn(ERROR_CATALOGUE, c);

/** A plain { code, message } object as it arrives from a worker (not an Error instance). */
export function isErrorEnvelope(e: unknown): e is ErrorEnvelope {
  return (
    !!e &&
    typeof e === 'object' &&
    !(e instanceof Error) &&
    isKnownCode((e as ErrorEnvelope).code) &&
    typeof (e as ErrorEnvelope).message === 'string'
  );
}

/** A cancellation, whatever raised it: our ABORTED, or a DOM / fetch / Comlink AbortError. */
export function isAborted(e: unknown): boolean {
  if (e instanceof AppError) return e.code === 'ABORTED';
  if (isErrorEnvelope(e)) return e.code === 'ABORTED';
  return !!e && typeof e === 'object' && (e as { name?: unknown }).name === 'AbortError';
}

/** Any description of what went wrong, for `detail` and logs. */
export function describeError(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  if (e && typeof e === 'object' && 'message' in e) return String((e as { message: unknown }).message);
  return String(e);
}

/**
 * Any thrown value as an AppError: an AppError as it is, an envelope from a worker rebuilt,
 * an abort as ABORTED, anything else as `fallback` with what it said kept in `detail`.
 */
export function toAppError(e: unknown, fallback: ErrorCode = 'WORKER_CRASHED'): AppError {
  if (e instanceof AppError) return e;
  if (isErrorEnvelope(e)) return AppError.fromEnvelope(e);
  if (isAborted(e)) return new AppError('ABORTED', undefined, describeError(e));
  return new AppError(fallback, undefined, describeError(e));
}

/** Any thrown value as a plain envelope that survives structured cloning (a worker's answer). */
export function toEnvelope(e: unknown, fallback: ErrorCode = 'WORKER_CRASHED'): ErrorEnvelope {
  return toAppError(e, fallback).toEnvelope();
}
