import { describe, expect, it } from 'vitest';
import { encryptBackup } from '../src/io';
import type { ImportFile } from '../src/protocol/io';
import { codeOf } from '../src/testing/errors';
import { detectFormat, formatOf, guessCsvMapping, parseImport } from './io-core';

const file = (name: string, content: string): ImportFile => ({ name, bytes: new TextEncoder().encode(content) });
const BACKUP = JSON.stringify({ format: 'mnemograph-backup', version: 1, exportedAt: '2026-01-01T00:00:00.000Z', app: { name: 'M', version: '0' }, memories: [], feedback: [], settings: [] });

describe('format detection', () => {
  it.each([
    ['vault/Note.md', '# hi', 'markdown'],
    ['vault.zip', 'PK', 'markdown'],
    ['notes.csv', 'a,b', 'csv'],
    ['bookmarks.html', '<!DOCTYPE NETSCAPE-Bookmark-file-1>', 'bookmarks'],
    ['export', '<!DOCTYPE NETSCAPE-Bookmark-file-1>', 'bookmarks'],
    ['backup.json', BACKUP, 'backup'],
    ['renamed.txt', '{"format":"mnemograph-encrypted","version":1}', 'backup'],
    ['conversations.json', '[{"title":"x","mapping":{}}]', 'chatgpt'],
    ['notes.txt', 'plain', 'text'],
    ['README', 'plain', null],
  ] as const)('%s -> %s', (name, content, want) => {
    expect(detectFormat(file(name, content))).toBe(want);
  });

  it('takes the first file whose format can be told; plain text when none can; a given format wins', () => {
    expect(formatOf({ files: [file('README', 'x'), file('a.csv', 'a')] })).toBe('csv');
    expect(formatOf({ files: [file('README', 'x')] })).toBe('text');
    expect(formatOf({ files: [file('a.csv', 'a')], format: 'text' })).toBe('text');
  });

  it('guesses the CSV mapping from the header names', () => {
    expect(guessCsvMapping(['Note', 'Labels', 'When', 'Weight', 'Link'])).toEqual({ text: 'Note', tags: 'Labels', createdAt: 'When', importance: 'Weight', source: 'Link' });
    expect(guessCsvMapping(['a', 'b'])).toEqual({ text: 0 });
  });
});

describe('parseImport', () => {
  it('an encrypted backup: needs the passphrase, refuses a wrong one, reads with the right one', async () => {
    const enc = file('b.json', await encryptBackup(BACKUP, 'pass'));
    expect(await parseImport({ files: [enc] })).toEqual({ format: 'backup', result: { items: [], errors: [] }, needsPassphrase: true });
    expect(await codeOf(parseImport({ files: [enc], passphrase: 'nope' }))).toBe('WRONG_PASSPHRASE');
    const ok = await parseImport({ files: [enc], passphrase: 'pass' });
    expect(ok.backup).toEqual({ memories: [], versions: [], links: [], feedback: [], settings: [], vectors: [], images: [] });
  });

  it('skips a picture or a Word file picked as text, CSV or a ChatGPT export, saying why, and reads the text beside it', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const docx = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 6, 0]);
    const out = await parseImport({ files: [{ name: 'photo.txt', bytes: png }, file('notes.txt', 'One note\nAnother note')], format: 'text' });
    expect(out.result.items.map((i) => i.draft.text)).toEqual(['One note', 'Another note']);
    expect(out.result.errors).toEqual([expect.objectContaining({ file: 'photo.txt', severity: 'skipped', code: 'IMPORT_INVALID', message: expect.stringMatching(/^This file is not text .*nothing was read from it/) })]);
    for (const format of ['csv', 'chatgpt', 'bookmarks'] as const) {
      const r = await parseImport({ files: [{ name: 'report.docx', bytes: docx }], format });
      expect(r.result.items).toEqual([]);
      expect(r.result.errors.map((e) => e.file)).toEqual(['report.docx']);
    }
  });

  it('refuses what is not a backup as a whole, and more than one backup at a time', async () => {
    expect(await codeOf(parseImport({ files: [file('b.json', '{"format":"mnemograph-backup","version":99}')], format: 'backup' }))).toBe('IMPORT_INVALID');
    expect(await codeOf(parseImport({ files: [file('a.json', BACKUP), file('b.json', BACKUP)] }))).toBe('IMPORT_INVALID');
  });
});
