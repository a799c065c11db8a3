import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectDelimiter, importCsv, parseCsv, previewCsv } from './csv';

const CSV = readFileSync(join(__dirname, 'fixtures', 'notes.csv'), 'utf8');
const MAPPING = { text: 'Note', tags: 'labels', createdAt: 'When', importance: 3, source: 'Link' } as const;

describe('parseCsv (RFC 4180, tolerant)', () => {
  it('reads quotes, doubled quotes, line breaks in quotes, CRLF and blank lines', () => {
    const { records, unterminated } = parseCsv('a,b\r\n"x, y","say ""hi"""\r\n\r\n"multi\nline",z\n', ',');
    expect(records).toEqual([
      { fields: ['a', 'b'], line: 1 },
      { fields: ['x, y', 'say "hi"'], line: 2 },
      { fields: ['multi\nline', 'z'], line: 4 },
    ]);
    expect(unterminated).toEqual([]);
  });
  it('keeps a stray quote as a character and reports an unclosed one', () => {
    expect(parseCsv('a 5" pipe,b', ',').records[0].fields).toEqual(['a 5" pipe', 'b']);
    const res = parseCsv('h\n"never closed\nmore', ',');
    expect(res.records[1]).toEqual({ fields: ['never closed\nmore'], line: 2 });
    expect(res.unterminated).toEqual([2]);
  });
  it('detects the delimiter from the first line, ignoring quoted text', () => {
    expect(detectDelimiter('a;b;c\n1,2')).toBe(';');
    expect(detectDelimiter('"x,y,z"\tb\n')).toBe('\t');
    expect(detectDelimiter('single')).toBe(',');
  });
});

describe('previewCsv', () => {
  it('gives the header, the first rows and the count, for the mapping step', () => {
    const p = previewCsv(CSV, { rows: 2 });
    expect(p.header).toEqual(['Note', 'Labels', 'When', 'Weight', 'Link']);
    expect(p.rows).toEqual([
      ['Call the plumber about the leak, again', 'home;urgent', '2024-02-10T09:30:00Z', '0.9', 'https://example.org/plumber'],
      ['She said "see you at eight"\nand left', 'people', '1707500000', '', ''],
    ]);
    expect(p.total).toBe(7);
    expect(p.delimiter).toBe(',');
  });
});

describe('importCsv', () => {
  const res = importCsv(CSV, { mapping: MAPPING, file: 'notes.csv' });
  it('imports the readable rows with their mapped fields', () => {
    expect(res.items.map((i) => ({ line: i.where.line, ...i.draft }))).toEqual([
      {
        line: 2,
        text: 'Call the plumber about the leak, again',
        tags: ['home', 'urgent'],
        createdAt: Date.UTC(2024, 1, 10, 9, 30),
        importance: 0.9,
        source: 'https://example.org/plumber',
        validTo: null,
        media: undefined,
        validFrom: undefined,
        sessionId: undefined,
      },
      expect.objectContaining({ line: 3, text: 'She said "see you at eight"\nand left', createdAt: 1_707_500_000_000, importance: 0.5, source: undefined }),
      expect.objectContaining({ line: 7, text: 'Script link row', tags: ['web'], source: undefined }),
      expect.objectContaining({ line: 10, text: 'Semicolons; and tabs\tinside quotes', importance: 0, source: undefined }),
    ]);
  });
  it('skips each unreadable row with its line and says why; notes dropped links', () => {
    expect(res.errors.map((e) => [e.line, e.severity, e.message])).toEqual([
      [5, 'skipped', 'createdAt: "next tuesday" is not a date from year 1 to 9999; this row was skipped.'],
      [6, 'skipped', 'Importance must be a number from 0 to 1.'],
      [7, 'note', 'A script or inline-data link was dropped from the source.'],
      [8, 'skipped', 'A memory needs some text. Type something, then save.'],
      [10, 'note', 'A script or inline-data link was dropped from the source.'],
    ]);
  });
  it('imports nothing when a mapped column is missing', () => {
    const r = importCsv(CSV, { mapping: { text: 'Body' } });
    expect(r.items).toEqual([]);
    expect(r.errors.map((e) => e.message)).toEqual(['The column "Body" chosen for text is not in the header; nothing was imported.']);
  });
  it('skips a row whose quote never closes', () => {
    const r = importCsv('text\nok\n"broken\nrest', { mapping: { text: 0 } });
    expect(r.items.map((i) => i.draft.text)).toEqual(['ok']);
    expect(r.errors.map((e) => e.line)).toEqual([3]);
  });
});
