// The import worker's protocol (workers/io.worker.ts <-> src/bridge/io-bridge.ts): what goes in
// (the files and the person's choices) and what comes back (validated drafts, problems, and for a
// backup its rows). Types only: the parsing itself is src/io, run by workers/io-core.ts.

import type { BackupItems, ImportResult } from '../io';

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

/** What the services need from a parser: the worker's bridge on the page, the same code in-process in tests. */
export interface ImportParser {
  parse(req: ParseRequest, signal?: AbortSignal): Promise<ParseOutcome>;
  dispose(): void;
}
