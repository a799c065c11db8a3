import { describe, expect, it } from 'vitest';
import { AppError, ERROR_CATALOGUE, MESSAGES, isAborted, isErrorEnvelope, toAppError, toEnvelope } from './errors';

describe('toAppError', () => {
  it('keeps an AppError as it is', () => {
    const e = new AppError('NOT_FOUND');
    expect(toAppError(e, 'TIMEOUT')).toBe(e);
  });
  it('rebuilds an envelope from a worker with its code, message and detail', () => {
    const e = toAppError({ code: 'QUOTA_EXCEEDED', message: 'full', detail: 'd' });
    expect(e).toBeInstanceOf(AppError);
    expect([e.code, e.message, e.detail]).toEqual(['QUOTA_EXCEEDED', 'full', 'd']);
  });
  it('turns an AbortError into ABORTED', () => {
    const abort = Object.assign(new Error('stop'), { name: 'AbortError' });
    expect(toAppError(abort, 'MODEL_LOAD_FAILED').code).toBe('ABORTED');
  });
  it('wraps anything else in the fallback code, keeping what it said as detail', () => {
    const e = toAppError(new TypeError('boom'), 'MODEL_LOAD_FAILED');
    expect([e.code, e.message, e.detail]).toEqual(['MODEL_LOAD_FAILED', ERROR_CATALOGUE.MODEL_LOAD_FAILED, 'TypeError: boom']);
    expect(toAppError('bare string').code).toBe('WORKER_CRASHED');
  });
  it('does not take an object with an unknown code for an envelope', () => {
    expect(isErrorEnvelope({ code: 'NOPE', message: 'x' })).toBe(false);
    expect(toAppError({ code: 'NOPE', message: 'x' }).code).toBe('WORKER_CRASHED');
  });
});

describe('isAborted', () => {
  it('knows every form a cancellation takes, and nothing else', () => {
    expect(isAborted(new AppError('ABORTED'))).toBe(true);
    expect(isAborted({ code: 'ABORTED', message: 'x' })).toBe(true);
    expect(isAborted(Object.assign(new Error(''), { name: 'AbortError' }))).toBe(true);
    expect(isAborted(new AppError('TIMEOUT'))).toBe(false);
    expect(isAborted(new Error('AbortError'))).toBe(false);
    expect(isAborted(null)).toBe(false);
  });
});

describe('toEnvelope and MESSAGES', () => {
  it('gives a plain object that survives structured cloning', () => {
    const env = toEnvelope(new RangeError('r'));
    expect(structuredClone(env)).toEqual({ code: 'WORKER_CRASHED', message: ERROR_CATALOGUE.WORKER_CRASHED, detail: 'RangeError: r' });
  });
  it('builds parameterised messages', () => {
    expect(MESSAGES.outOfRange('topK', 'a whole number from 1 to 200', 0)).toBe('topK must be a whole number from 1 to 200 (got 0).');
    expect(MESSAGES.tooLong('A reason', 500)).toBe('A reason must be text of at most 500 characters.');
    expect(MESSAGES.notA('a Mnemograph backup', 'it is version 9')).toBe(
      'This file is not a Mnemograph backup: it is version 9. Nothing was imported.',
    );
  });
  it('has plain-language entries for a wrong passphrase and an unreadable import', () => {
    expect(ERROR_CATALOGUE.WRONG_PASSPHRASE).toMatch(/passphrase is wrong/);
    // a full device: what happened, that nothing was saved, and what a person can do about it
    expect(ERROR_CATALOGUE.QUOTA_EXCEEDED).toMatch(/Nothing was saved\. Free some space \(empty the trash, .*\) or make storage persistent/);
    expect(ERROR_CATALOGUE.WRONG_PASSPHRASE).toMatch(/Nothing was restored/);
    expect(new AppError('IMPORT_INVALID').message).toBe('This file could not be read for import. Nothing was imported.');
  });
});
