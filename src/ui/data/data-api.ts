// STUB FILE, swapped at merge: the issue 10 services contract (/tmp/issue10-contract.md) typed
// here because the services half is being written in parallel. When `services()` carries these
// methods, replace this file by re-exporting the types from '../../services' and
// `export const dataApi = (): DataApi => services();`. Until then, a page whose services lack the
// methods gets the sample fake (sample-data-api.ts), so the view can be looked at and tested.
import type { Observable } from 'dexie';
import { services } from '../../services';
import { sampleDataApi } from './sample-data-api';

export type ImportFormat = 'backup' | 'markdown' | 'bookmarks' | 'text' | 'csv' | 'chatgpt';
export interface ImportFile {
  name: string;
  path?: string;
  bytes: Uint8Array;
  lastModified?: number;
}
export interface CsvMappingInput {
  text: string;
  tags?: string;
  createdAt?: string;
  importance?: string;
  source?: string;
}
export interface ImportRequest {
  files: ImportFile[];
  /** Absent: detected from names / content. */
  format?: ImportFormat;
  passphrase?: string;
  csv?: { mapping: CsvMappingInput };
  text?: { mode: 'line' | 'paragraph' };
  /** Land as status 'quarantined' (reviewed later). */
  quarantine?: boolean;
}
export interface ImportProblemView {
  where: string;
  message: string;
  severity: 'skipped' | 'note';
}
export interface ImportPreview {
  planId: string;
  format: ImportFormat;
  total: number;
  fresh: number;
  existing: number;
  repeated: number;
  problems: ImportProblemView[];
  samples: { text: string; tags: string[]; createdAt?: number }[];
  csvColumns?: string[];
  needsPassphrase?: boolean;
  vectorsReused?: number;
}
export interface ImportOutcome {
  written: number;
  skipped: number;
  batches: number;
  cancelled: boolean;
}
export interface ImportProgress {
  written: number;
  total: number;
}
export interface BackupStatus {
  lastBackupAt: number | null;
  reminderDays: number | null;
  due: boolean;
}
export interface ExportedFile {
  blob: Blob;
  fileName: string;
  memories: number;
}

/** The data-ownership half of services() (issue 10 contract). */
export interface DataApi {
  previewImport(req: ImportRequest, signal?: AbortSignal): Promise<ImportPreview>;
  runImport(
    planId: string,
    opts?: { signal?: AbortSignal; onProgress?: (p: ImportProgress) => void; batchSize?: number },
  ): Promise<ImportOutcome>;
  exportBackup(opts: { vectors: boolean; passphrase?: string }): Promise<ExportedFile>;
  exportMarkdown(): Promise<ExportedFile>;
  liveBackupStatus(): Observable<BackupStatus>;
  setBackupReminder(days: number | null): Promise<void>;
}

let override: DataApi | null = null;

/** Tests (and only tests) put a fake in place; null restores the real one. */
export function setDataApiForTests(api: DataApi | null): void {
  override = api;
}

export function dataApi(): DataApi {
  if (override) return override;
  const s = services() as unknown as Partial<DataApi>;
  // STUB: the services do not have the contract yet; remove this branch at merge.
  if (typeof s.previewImport !== 'function') return sampleDataApi();
  return s as DataApi;
}
