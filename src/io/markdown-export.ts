// The Markdown archive: a zip with one `.md` file per memory, its fields in YAML front matter and
// its text, as written, below. Readable without Mnemograph (Obsidian opens it as a vault) and read
// back by importMarkdown (the `id` line marks the file as Mnemograph's own, so no title is added).

import { zipSync } from 'fflate';
import type { Memory } from '../core/types';
import { markdownFileName } from './file-names';
import { emitFrontMatter } from './front-matter';
import { inTimeRange, isoDate } from './text';

const iso = (ms: number) => (inTimeRange(ms) ? isoDate(ms) : ms);
const enc = new TextEncoder();

/** One memory as a Markdown file: front matter, a blank line, the text, a final newline. */
export function memoryToMarkdown(m: Memory): string {
  const fm = emitFrontMatter({
    id: m.id,
    tags: m.tags,
    createdAt: iso(m.createdAt),
    updatedAt: iso(m.updatedAt),
    importance: m.importance,
    source: m.source,
    validFrom: iso(m.validFrom),
    validTo: m.validTo === null ? null : iso(m.validTo),
    status: m.status === 'active' ? undefined : m.status,
  });
  return `${fm}\n${m.text}\n`;
}

export interface MarkdownArchiveOptions {
  /** Memories in the trash are left out unless asked for. */
  includeDeleted?: boolean;
  /** Folder inside the zip ("mnemograph-2024-05-01"); the root when absent. */
  folder?: string;
}

/** Zip timestamps are DOS dates: 1980 to 2107. */
function zipTime(ms: number): number {
  return Math.min(Math.max(ms, Date.UTC(1980, 0, 2)), Date.UTC(2107, 11, 30));
}

export interface MarkdownArchive {
  zip: Uint8Array;
  /** The name each memory was written under, in order. */
  files: { id: string; name: string }[];
}

export function exportMarkdownArchive(memories: readonly Memory[], opts: MarkdownArchiveOptions = {}): MarkdownArchive {
  const used = new Set<string>();
  const entries: Record<string, [Uint8Array, { mtime: number }]> = {};
  const files: { id: string; name: string }[] = [];
  // Letters, digits, _ and -: no separator and no dot, so the folder can never climb out.
  const folder = opts.folder ? `${opts.folder.replace(/[^\p{L}\p{N}_]+/gu, '-').replace(/^-+|-+$/g, '') || 'memories'}/` : '';
  for (const m of memories) {
    if (m.deletedAt !== null && !opts.includeDeleted) continue;
    const name = markdownFileName(m.text, m.id, used);
    entries[folder + name] = [enc.encode(memoryToMarkdown(m)), { mtime: zipTime(m.updatedAt) }];
    files.push({ id: m.id, name: folder + name });
  }
  return { zip: zipSync(entries, { level: 6 }), files };
}
