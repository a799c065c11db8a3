// Small rules every importer applies to a raw field before the core's validation: a source is
// never a script or inline-data link and never longer than the store allows; a date must be
// readable and in range. Each change is reported as a note on the item.

import { MAX_SOURCE_LENGTH } from '../core/validate';
import { problem, type ImportResult, type Where } from './result';
import { isDangerousLink, UNSAFE_SOURCE_NOTE } from './safe-url';

/** The source to keep, or undefined; a dropped one leaves a note. */
export function cleanSource(raw: unknown, where: Where, out: ImportResult): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') {
    out.errors.push(problem(where, 'The source was not text and was dropped.', 'note'));
    return undefined;
  }
  const s = raw.trim();
  if (!s) return undefined;
  if (isDangerousLink(s)) {
    out.errors.push(problem(where, UNSAFE_SOURCE_NOTE, 'note'));
    return undefined;
  }
  if (s.length > MAX_SOURCE_LENGTH) {
    out.errors.push(problem(where, `The source was longer than ${MAX_SOURCE_LENGTH} characters and was dropped.`, 'note'));
    return undefined;
  }
  return s;
}

/** A value for an error message: a string quoted, anything else as written; at most 40 characters. */
export function quote(raw: unknown): string {
  const cut = (s: string) => (s.length > 40 ? `${s.slice(0, 40)}…` : s);
  if (typeof raw === 'string') return JSON.stringify(cut(raw));
  if (raw === null || typeof raw !== 'object') return cut(String(raw));
  let json: string | undefined;
  try {
    json = JSON.stringify(raw);
  } catch {
    json = undefined; // a cycle or a BigInt: the type name says enough
  }
  return cut(json ?? Object.prototype.toString.call(raw));
}
