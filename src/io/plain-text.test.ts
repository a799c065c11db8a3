import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importPlainText } from './plain-text';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name));

describe('importPlainText', () => {
  it('makes one memory per non-empty line, with its line number, text kept as typed', () => {
    const res = importPlainText(fixture('notes.txt'), { split: 'line', file: 'notes.txt', tags: ['Inbox'] });
    expect(res.errors).toEqual([]);
    expect(res.items.map((i) => [i.where.line, i.draft.text])).toEqual([
      [1, 'Bought a second-hand bike from Lena for 80 euros.'],
      [3, 'The sourdough starter needs feeding every 12 hours.'],
      [4, '<img src=x onerror=alert(1)> is how the wiki page was defaced'],
    ]);
    expect(res.items[0].draft.tags).toEqual(['inbox']);
    expect(res.items[0].draft.importance).toBe(0.5);
  });

  it('makes one memory per paragraph, whatever the line endings', () => {
    const res = importPlainText(fixture('paragraphs.txt'), { split: 'paragraph', createdAt: Date.UTC(2024, 4, 2) });
    expect(res.items.map((i) => [i.where.line, i.draft.text])).toEqual([
      [1, 'Trip to Lisbon: the tram 28 is always full.\nTake it early.'],
      [5, 'Meeting notes 2024-05-02\nDecided to move the launch to June.'],
      [8, 'Last paragraph without a trailing newline'],
    ]);
    expect(res.items.every((i) => i.draft.createdAt === Date.UTC(2024, 4, 2))).toBe(true);
  });

  it('notes invalid UTF-8 and an unsafe source, and keeps the lines', () => {
    const res = importPlainText(new Uint8Array([0x61, 0xff, 0x0a, 0x62]), { split: 'line', source: 'javascript:alert(1)' });
    expect(res.items.map((i) => i.draft.text)).toEqual(['a\ufffd', 'b']);
    expect(res.items.every((i) => i.draft.source === undefined)).toBe(true);
    expect(res.errors.map((e) => [e.severity, e.line, e.message])).toEqual([
      ['note', undefined, 'The file is not valid UTF-8; unreadable bytes were replaced with \uFFFD.'],
      ['note', 1, 'A script or inline-data link was dropped from the source.'],
      ['note', 2, 'A script or inline-data link was dropped from the source.'],
    ]);
  });
});
