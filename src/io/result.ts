// What every importer returns, and the one way a raw draft becomes an item: validateNewMemory of
// the core. An item is only ever returned whole and valid; anything that fails is reported with
// where it came from (file, line, index) and skipped, never half-taken.

import { toAppError, type ErrorCode } from '../core/errors';
import { validateNewMemory, type NewMemoryInput, type ValidMemoryInput } from '../core/validate';

/** Where an item or a problem came from, for the preview's per-item list. */
export interface Where {
  file?: string;
  /** 1-based line of the item's first line in its file. */
  line?: number;
  /** 0-based position in a list (a JSON array, a conversation's exchanges). */
  index?: number;
  /** A path inside a structured document ("memories[3].createdAt"). */
  path?: string;
}

/**
 * 'skipped': the item was rejected and is not in `items`. 'note': the item was kept, but something
 * in it was dropped or replaced (an unsafe link, a date out of range); the note says what.
 */
export type ImportSeverity = 'skipped' | 'note';

export interface ImportProblem extends Where {
  severity: ImportSeverity;
  code: ErrorCode;
  message: string;
}

/** A memory ready to be written: it passed validateNewMemory (tags normalised, defaults set). */
export interface ImportItem {
  draft: ValidMemoryInput;
  where: Where;
  /** The importer's own handle for the item (a file path), the ends of `links`. */
  ref?: string;
}

/** A `[[wikilink]]` between two imported notes; `to` is null when no imported file matched. */
export interface ImportLink {
  from: string;
  to: string | null;
  /** The link as written, without brackets or alias. */
  target: string;
}

export interface ImportResult {
  items: ImportItem[];
  errors: ImportProblem[];
  links?: ImportLink[];
}

export function problem(where: Where, message: string, severity: ImportSeverity = 'skipped', code: ErrorCode = 'IMPORT_INVALID'): ImportProblem {
  return { ...where, severity, code, message };
}

/**
 * Validates a draft with the core's rule. Returns the item, or records why it was skipped.
 * The one gate every importer's output passes through.
 */
export function admit(raw: NewMemoryInput, where: Where, out: ImportResult, ref?: string): ImportItem | null {
  try {
    const draft = validateNewMemory(raw);
    const item: ImportItem = ref === undefined ? { draft, where } : { draft, where, ref };
    out.items.push(item);
    return item;
  } catch (e) {
    const err = toAppError(e, 'IMPORT_INVALID');
    out.errors.push(problem(where, err.message, 'skipped', err.code));
    return null;
  }
}

/**
 * Runs a whole importer so nothing escapes its boundary: an unexpected failure (a stack overflow on
 * a hostile nesting, a bug) becomes one reported problem, and the items admitted so far are kept
 * (each is whole).
 */
export function guard(where: Where, run: (out: ImportResult) => void): ImportResult {
  const out: ImportResult = { items: [], errors: [] };
  try {
    run(out);
  } catch (e) {
    const err = toAppError(e, 'IMPORT_INVALID');
    const why = err.detail ?? err.message;
    const message = out.items.length
      ? `Reading stopped early (${why}); the ${out.items.length} item(s) read before that are whole and were kept.`
      : `${err.code === 'IMPORT_INVALID' ? err.message : `${err.message} Nothing was imported.`} (${why})`;
    out.errors.push(problem(where, message, 'skipped', err.code));
  }
  return out;
}
