// The import / export worker's protocol (workers/io.worker.ts <-> src/bridge/io-bridge.ts): what
// goes in (the files and the person's choices; for an export, the rows read from the database) and
// what comes back (validated drafts, problems, and for a backup its rows; for an export, the
// file's bytes). Types only: the work itself is src/io, run by workers/io-core.ts.

import type { BackupItems, BackupRows, BuildBackupOptions, ImportResult } from '../io';
import type { Memory } from '../core/types';

export type ImportFormat = 'backup' | 'markdown' | 'bookmarks' | 'text' | 'csv' | 'chatgpt';

export interface ImportFile {
  name: string;
  /** Path inside a chosen folder or vault ("Projects/Garden.md"); the name when absent. */
  path?: string;
  bytes: Uint8Array;
  /** Epoch ms (a Markdown note without a date takes it). */
  lastModified?: number;
}

export interface CsvColumnMapping {
  text: string;
  tags?: string;
  createdAt?: string;
  importance?: string;
  source?: string;
}

export interface ParseRequest {
  files: ImportFile[];
  /** Absent: detected from the names, then the content. */
  format?: ImportFormat;
  passphrase?: string;
  csv?: { mapping: CsvColumnMapping };
  text?: { mode: 'line' | 'paragraph' };
}

export interface ParseOutcome {
  format: ImportFormat;
  /** Drafts, problems and (Markdown) links; for a backup, only its problems. */
  result: ImportResult;
  /** A backup's rows (memories keep their ids), when format is 'backup' and it could be read. */
  backup?: BackupItems;
  /** CSV: the header, for the column mapping. */
  csvColumns?: string[];
  /** An encrypted backup and no passphrase given: nothing was read. */
  needsPassphrase?: boolean;
}

/** A backup to write: the rows as read (copied to the worker), how, and the passphrase if any. */
export interface BackupWriteRequest {
  rows: BackupRows;
  options: BuildBackupOptions;
  /** Given: the file is the encrypted envelope (AES-GCM, PBKDF2). */
  passphrase?: string;
}

/** A Markdown archive to write: the memories (those in the trash are left out) under one folder. */
export interface MarkdownWriteRequest {
  memories: Memory[];
  folder: string;
  /** The memories' pictures, written under `images/` in the archive. */
  pictures?: { id: string; mime: string; data: Uint8Array }[];
}

/**
 * What the services need to read and write files: the worker's bridge on the page, the same code
 * in-process in tests and in Node. The writers return the file's bytes (transferred, not copied).
 */
export interface ImportParser {
  parse(req: ParseRequest, signal?: AbortSignal): Promise<ParseOutcome>;
  /** The backup file's UTF-8 bytes (JSON, or the encrypted envelope's JSON). */
  writeBackup(req: BackupWriteRequest): Promise<Uint8Array>;
  /** The zip's bytes and how many notes it holds. */
  writeMarkdown(req: MarkdownWriteRequest): Promise<{ zip: Uint8Array; files: number }>;
  dispose(): void;
}
