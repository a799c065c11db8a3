// CSV (RFC 4180): fields separated by a delimiter, optionally in double quotes, a doubled quote
// inside quotes for a quote, line breaks allowed inside quotes; CRLF or LF. The first record is
// the header. The caller maps columns to fields (previewCsv shows them); a row whose mapped values
// cannot be read is skipped and reported with its line, never imported half-read.

import { admit, guard, problem, type ImportResult } from './result';
import { cleanSource, quote } from './draft';
import { decodeText, INVALID_UTF8_NOTE, parseDate } from './text';

export interface CsvRecord {
  fields: string[];
  /** 1-based line where the record starts. */
  line: number;
}

export interface CsvParse {
  records: CsvRecord[];
  /** Lines whose quotes were not closed before the end of the file. */
  unterminated: number[];
}

const DELIMITERS = [',', ';', '\t'] as const;
export type CsvDelimiter = (typeof DELIMITERS)[number];

/** The delimiter most frequent outside quotes on the first line (comma when none appears). */
export function detectDelimiter(text: string): CsvDelimiter {
  let best: CsvDelimiter = ',';
  let bestCount = 0;
  const end = text.search(/\r|\n/);
  const first = (end < 0 ? text : text.slice(0, end)).replace(/"[^"]*"/g, '');
  for (const d of DELIMITERS) {
    const n = first.split(d).length - 1;
    if (n > bestCount) [best, bestCount] = [d, n];
  }
  return best;
}

/**
 * Every record of the text. Tolerant where the RFC is strict: a quote inside an unquoted field is
 * kept as a character, text after a closing quote is appended, and an unclosed quote at the end
 * takes the rest of the file as its field and is reported.
 */
export function parseCsv(text: string, delimiter: string = detectDelimiter(text)): CsvParse {
  const records: CsvRecord[] = [];
  const unterminated: number[] = [];
  const d = delimiter.charCodeAt(0);
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let i = 0;
  const n = text.length;
  const endRecord = () => {
    fields.push(field);
    // A record that is one empty field is a blank line: not a record.
    if (fields.length > 1 || fields[0] !== '') records.push({ fields, line: recordLine });
    fields = [];
    field = '';
  };
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 && field === '') {
      // a quoted field: up to the next quote that is not doubled
      const start = line;
      let j = i + 1;
      let buf = '';
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) {
          buf += text.slice(j);
          unterminated.push(start);
          j = n;
          break;
        }
        buf += text.slice(j, q);
        if (text.charCodeAt(q + 1) === 34) {
          buf += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      for (let k = i; k < j; k++) if (text.charCodeAt(k) === 10) line++;
      field = buf;
      i = j;
      continue;
    }
    if (c === d) {
      fields.push(field);
      field = '';
      i++;
    } else if (c === 13 || c === 10) {
      endRecord();
      i += c === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
      line++;
      recordLine = line;
    } else {
      // a run of plain characters at once
      let j = i + 1;
      while (j < n) {
        const x = text.charCodeAt(j);
        if (x === d || x === 13 || x === 10) break;
        j++;
      }
      field += text.slice(i, j);
      i = j;
    }
  }
  if (field !== '' || fields.length > 0) endRecord();
  return { records, unterminated };
}

export interface CsvPreview {
  header: string[];
  rows: string[][];
  /** Records after the header. */
  total: number;
  delimiter: string;
  invalidUtf8: boolean;
}

/** The header and the first rows, for the UI to offer the column mapping. */
export function previewCsv(input: string | Uint8Array, opts: { rows?: number; delimiter?: string } = {}): CsvPreview {
  const { text, invalidUtf8 } = decodeText(input);
  const delimiter = opts.delimiter ?? detectDelimiter(text);
  const { records } = parseCsv(text, delimiter);
  return {
    header: records[0]?.fields ?? [],
    rows: records.slice(1, 1 + (opts.rows ?? 5)).map((r) => r.fields),
    total: Math.max(0, records.length - 1),
    delimiter,
    invalidUtf8,
  };
}

/** A column by header name (exact, then case-insensitive) or by 0-based index. */
export type CsvColumn = string | number;

export interface CsvMapping {
  text: CsvColumn;
  tags?: CsvColumn;
  createdAt?: CsvColumn;
  importance?: CsvColumn;
  source?: CsvColumn;
}

export interface CsvImportOptions {
  mapping: CsvMapping;
  delimiter?: string;
  file?: string;
}

function columnIndex(header: string[], c: CsvColumn): number {
  if (typeof c === 'number') return Number.isInteger(c) && c >= 0 && c < header.length ? c : -1;
  const exact = header.indexOf(c);
  if (exact >= 0) return exact;
  return header.findIndex((h) => h.trim().toLowerCase() === c.trim().toLowerCase());
}

export function importCsv(input: string | Uint8Array, opts: CsvImportOptions): ImportResult {
  return guard({ file: opts.file }, (out) => {
    const file = opts.file;
    const { text, invalidUtf8 } = decodeText(input);
    if (invalidUtf8) out.errors.push(problem({ file }, INVALID_UTF8_NOTE, 'note'));
    const { records, unterminated } = parseCsv(text, opts.delimiter ?? detectDelimiter(text));
    if (records.length === 0) return;
    const header = records[0].fields;
    const cols: Partial<Record<keyof CsvMapping, number>> = {};
    for (const [name, c] of Object.entries(opts.mapping) as [keyof CsvMapping, CsvColumn | undefined][]) {
      if (c === undefined) continue;
      const i = columnIndex(header, c);
      if (i < 0) {
        out.errors.push(problem({ file, line: 1 }, `The column ${quote(c)} chosen for ${name} is not in the header; nothing was imported.`));
        return;
      }
      cols[name] = i;
    }
    const badQuote = new Set(unterminated);
    for (const { fields, line } of records.slice(1)) {
      const where = { file, line };
      if (badQuote.has(line)) {
        out.errors.push(problem(where, 'A quoted field is not closed before the end of the file; this row was skipped.'));
        continue;
      }
      const cell = (k: keyof CsvMapping) => (cols[k] === undefined ? undefined : (fields[cols[k]!] ?? ''));
      const created = cell('createdAt')?.trim();
      const createdAt = created ? parseDate(created) : undefined;
      if (createdAt === null) {
        out.errors.push(problem(where, `createdAt: ${quote(created)} is not a date from year 1 to 9999; this row was skipped.`));
        continue;
      }
      const imp = cell('importance')?.trim();
      admit(
        {
          text: cell('text') ?? '',
          tags: (cell('tags') ?? '').replace(/[;|]/g, ',').replace(/(^|,)\s*#/g, '$1'),
          createdAt,
          importance: imp ? Number(imp) : undefined,
          source: cleanSource(cell('source'), where, out),
        },
        where,
        out,
      );
    }
  });
}
