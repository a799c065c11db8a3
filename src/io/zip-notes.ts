// Markdown notes out of a zip (a vault or folder zipped, or our own Markdown archive), with limits
// so a zip bomb costs a message, not the tab: the sizes each entry declares are checked before
// anything is inflated, and only Markdown entries are inflated at all.

import { unzipSync } from 'fflate';
import type { MarkdownFile } from './markdown-import';
import { problem, type ImportProblem } from './result';

export interface ZipLimits {
  /** Most Markdown entries read (default 100 000). */
  maxFiles?: number;
  /** Most bytes of one entry once inflated (default 20 MB). */
  maxFileBytes?: number;
  /** Most bytes of all entries once inflated (default 200 MB). */
  maxTotalBytes?: number;
}

const MARKDOWN = /\.(md|markdown|mdown|mkd)$/i;

export function unzipNotes(zip: Uint8Array, limits: ZipLimits = {}): { files: MarkdownFile[]; errors: ImportProblem[] } {
  const maxFiles = limits.maxFiles ?? 100_000;
  const maxFile = limits.maxFileBytes ?? 20 << 20;
  const maxTotal = limits.maxTotalBytes ?? 200 << 20;
  const errors: ImportProblem[] = [];
  let total = 0;
  let count = 0;
  let tooMany = false;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip, {
      filter: (f) => {
        if (!MARKDOWN.test(f.name) || f.name.endsWith('/')) return false;
        if (f.originalSize > maxFile) {
          errors.push(problem({ file: f.name }, `This note is larger than ${maxFile >> 20} MB once unpacked; it was skipped.`));
          return false;
        }
        if (count >= maxFiles || total + f.originalSize > maxTotal) {
          tooMany = true;
          return false;
        }
        count++;
        total += f.originalSize;
        return true;
      },
    });
  } catch (e) {
    return { files: [], errors: [problem({}, `This zip could not be read (${e instanceof Error ? e.message : String(e)}). Nothing was imported.`)] };
  }
  if (tooMany)
    errors.push(problem({}, `The zip holds more than ${maxFiles} notes or ${maxTotal >> 20} MB of them; only the first ones were read.`));
  const files = Object.entries(entries).map(([path, bytes]) => ({ path: path.replace(/\\/g, '/').replace(/^\/+/, ''), text: bytes }));
  return { files, errors };
}
