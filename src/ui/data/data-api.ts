// The data-ownership half of the services (import, restore, export, the backup reminder) as the
// "Your data" view uses it: the services' own methods and types, with one seam for the view's
// unit tests (setDataApiForTests), which run against the sample stand-in in sample-data-api.ts.
import type { Observable } from 'dexie';
import {
  services,
  type BackupStatus,
  type ExportedFile,
  type ImportFile,
  type ImportFormat,
  type ImportOutcome,
  type ImportPreview,
  type ImportPreviewProblem,
  type ImportRequest,
  type RunImportOptions,
} from '../../services';
import type { CsvColumnMapping } from '../../protocol/io';

export type { BackupStatus, ExportedFile, ImportFile, ImportFormat, ImportOutcome, ImportPreview, ImportRequest };
export type ImportProblemView = ImportPreviewProblem;
export type CsvMappingInput = CsvColumnMapping;
export type ImportProgress = Parameters<NonNullable<RunImportOptions['onProgress']>>[0];

/** What the view calls; `services()` provides exactly this. */
export interface DataApi {
  previewImport(req: ImportRequest, signal?: AbortSignal): Promise<ImportPreview>;
  runImport(planId: string, opts?: RunImportOptions): Promise<ImportOutcome>;
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
  return override ?? services();
}
