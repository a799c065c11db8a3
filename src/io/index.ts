// The import / export layer's public API (see README.md). Pure: runs in a worker and in Node.

export { buildBackup, parseBackup, serializeBackup, type BackupItems, type BackupParseResult, type BuildBackupOptions } from './backup';
export {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupDocument,
  type BackupRows,
  type FeedbackRecord,
  type LinkRecord,
  type SettingRecord,
  type VectorEntry,
  type VectorRecord,
  type VersionRecord,
} from './backup-schema';
export { IMAGES_BACKUP_VERSION, type ImageEntry, type ImageRecord } from './backup-images';
export { decryptBackup, encryptBackup, isEncryptedBackup, PBKDF2_ITERATIONS, type EncryptedEnvelope } from './crypto';
export { exportMarkdownArchive, memoryToMarkdown, type MarkdownArchive, type MarkdownArchiveOptions } from './markdown-export';
export { importMarkdown, type MarkdownFile, type MarkdownOptions } from './markdown-import';
export { unzipNotes, type ZipLimits } from './zip-notes';
export { importBookmarks, type BookmarkOptions } from './bookmarks';
export { importPlainText, type PlainTextOptions } from './plain-text';
export { importCsv, previewCsv, type CsvImportOptions, type CsvMapping, type CsvPreview } from './csv';
export { importChatGpt, type ChatGptOptions } from './chatgpt';
export { dedupeKey } from './dedupe';
export { batches, planImport, reusableVectors, type ImportPlan, type PlannedItem } from './preview';
export { safeUrl } from './safe-url';
export { looksBinary, NOT_TEXT_NOTE } from './text';
export { problem } from './result';
export type { ImportItem, ImportLink, ImportProblem, ImportResult, ImportSeverity, Where } from './result';
