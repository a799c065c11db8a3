// The import / export worker's work, kept free of Comlink so Node runs the very same code
// in-process: detect the format, decrypt an encrypted backup, run the src/io importer, return
// drafts + problems; and the export's heavy part (build + serialise + encrypt a backup, zip the
// Markdown notes), which would otherwise freeze the page for a big store. Everything here is
// synchronous except the WebCrypto steps, which is why the bridge terminates the worker to cancel.

import { AppError } from '../src/core/errors';
import {
  buildBackup,
  decryptBackup,
  encryptBackup,
  exportMarkdownArchive,
  serializeBackup,
  importBookmarks,
  importChatGpt,
  importCsv,
  importMarkdown,
  importPlainText,
  isEncryptedBackup,
  looksBinary,
  NOT_TEXT_NOTE,
  problem,
  parseBackup,
  previewCsv,
  unzipNotes,
  type CsvMapping,
  type ImportResult,
  type MarkdownFile,
} from '../src/io';
import type { BackupWriteRequest, ImportFile, ImportFormat, MarkdownWriteRequest, ParseOutcome, ParseRequest } from '../src/protocol/io';

const head = (f: ImportFile): string => new TextDecoder('utf-8', { fatal: false }).decode(f.bytes.subarray(0, 4096)).replace(/^\uFEFF/, '');
const nameOf = (f: ImportFile): string => (f.path ?? f.name).toLowerCase();

/** One file's format, from its name and then its first bytes; null when neither tells. */
export function detectFormat(f: ImportFile): ImportFormat | null {
  const name = nameOf(f);
  if (/\.(md|markdown|mdown|mkd|zip)$/.test(name)) return 'markdown';
  if (/\.csv$|\.tsv$/.test(name)) return 'csv';
  const start = head(f).trimStart();
  if (/\.html?$/.test(name) || /^<!DOCTYPE NETSCAPE-Bookmark-file/i.test(start)) return 'bookmarks';
  if (/^\{\s*"format"\s*:\s*"mnemograph-(backup|encrypted)"/.test(start)) return 'backup';
  if (/\.json$/.test(name) || start.startsWith('[') || start.startsWith('{')) {
    if (/"mnemograph-(backup|encrypted)"/.test(start)) return 'backup';
    if (/^\[/.test(start) || /"mapping"/.test(start)) return 'chatgpt';
  }
  if (/\.(txt|text)$/.test(name)) return 'text';
  return null;
}

/** The request's format: given, else that of the first file whose format can be told (else plain text). */
export function formatOf(req: ParseRequest): ImportFormat {
  if (req.format) return req.format;
  for (const f of req.files) {
    const found = detectFormat(f);
    if (found) return found;
  }
  return 'text';
}

const FIELD_GUESSES: [keyof CsvMapping, RegExp][] = [
  ['text', /^(text|note|notes|content|body|memory)$/i],
  ['tags', /^(tags?|labels?|keywords?)$/i],
  ['createdAt', /^(date|created|created_?at|when|time)$/i],
  ['importance', /^(importance|weight|priority)$/i],
  ['source', /^(source|url|link)$/i],
];

/** A CSV mapping guessed from the header (text: a column named like it, else the first). */
export function guessCsvMapping(header: readonly string[]): CsvMapping {
  const mapping: CsvMapping = { text: 0 };
  for (const [field, re] of FIELD_GUESSES) {
    const i = header.findIndex((h) => re.test(h.trim()));
    if (i >= 0) (mapping as unknown as Record<string, string>)[field] = header[i];
  }
  return mapping;
}

function merge(into: ImportResult, part: ImportResult): void {
  into.items.push(...part.items);
  into.errors.push(...part.errors);
  if (part.links) (into.links ??= []).push(...part.links);
}

function markdownFiles(files: ImportFile[], out: ImportResult): MarkdownFile[] {
  const notes: MarkdownFile[] = [];
  for (const f of files) {
    if (/\.zip$/i.test(f.name)) {
      const { files: inside, errors } = unzipNotes(f.bytes);
      out.errors.push(...errors.map((e) => ({ ...e, file: e.file ? `${f.name}/${e.file}` : f.name })));
      notes.push(...inside.map((n) => ({ ...n, mtime: n.mtime ?? f.lastModified })));
    } else notes.push({ path: f.path ?? f.name, text: f.bytes, mtime: f.lastModified });
  }
  return notes;
}

async function parseBackupFile(req: ParseRequest): Promise<ParseOutcome> {
  const result: ImportResult = { items: [], errors: [] };
  if (req.files.length !== 1) throw new AppError('IMPORT_INVALID', 'Restore one backup file at a time.');
  let input: string | Uint8Array = req.files[0].bytes;
  if (isEncryptedBackup(input)) {
    if (!req.passphrase) return { format: 'backup', result, needsPassphrase: true };
    input = await decryptBackup(input, req.passphrase); // WRONG_PASSPHRASE: nothing is read
  }
  const parsed = parseBackup(input);
  if (!parsed.ok) throw new AppError('IMPORT_INVALID', parsed.errors.at(-1)?.message);
  result.errors.push(...parsed.errors.map((e) => ({ ...e, file: req.files[0].name })));
  return { format: 'backup', result, backup: parsed.items };
}

/** Parses the request's files into drafts and problems (or a backup's rows). Never writes anything. */
export async function parseImport(req: ParseRequest): Promise<ParseOutcome> {
  if (!req || !Array.isArray(req.files) || req.files.length === 0) throw new AppError('IMPORT_INVALID', 'Choose at least one file to import.');
  const format = formatOf(req);
  if (format === 'backup') return parseBackupFile(req);
  const result: ImportResult = { items: [], errors: [] };
  const outcome: ParseOutcome = { format, result };
  if (format === 'markdown') {
    merge(result, importMarkdown(markdownFiles(req.files, result)));
    return outcome;
  }
  for (const f of req.files) {
    const file = f.path ?? f.name;
    // a picture or a .docx picked by mistake would become one memory of unreadable characters
    if (looksBinary(f.bytes)) result.errors.push(problem({ file }, NOT_TEXT_NOTE));
    else if (format === 'bookmarks') merge(result, importBookmarks(f.bytes, { file }));
    else if (format === 'chatgpt') merge(result, importChatGpt(f.bytes, { file }));
    else if (format === 'text') merge(result, importPlainText(f.bytes, { split: req.text?.mode ?? 'line', file }));
    else {
      const header = previewCsv(f.bytes, { rows: 0 }).header;
      outcome.csvColumns ??= header;
      const mapping = req.csv?.mapping ?? guessCsvMapping(header);
      merge(result, importCsv(f.bytes, { mapping, file }));
    }
  }
  return outcome;
}

/** The backup file's UTF-8 bytes: built, serialised and (with a passphrase) encrypted. */
export async function writeBackup(req: BackupWriteRequest): Promise<Uint8Array> {
  let text = serializeBackup(buildBackup(req.rows, req.options));
  if (req.passphrase !== undefined) text = await encryptBackup(text, req.passphrase);
  return new TextEncoder().encode(text);
}

/** The Markdown archive's zip bytes and the number of notes in it. */
export function writeMarkdown(req: MarkdownWriteRequest): { zip: Uint8Array; files: number } {
  const archive = exportMarkdownArchive(req.memories, { folder: req.folder, pictures: req.pictures });
  return { zip: archive.zip, files: archive.files.length };
}
