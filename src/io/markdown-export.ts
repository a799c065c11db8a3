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

/** A stored picture for the archive: written as `images/<id>.<ext>` beside the notes. */
export interface ArchivePicture {
  id: string;
  mime: string;
  data: Uint8Array;
}

const EXT: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/** A picture's path in the archive, relative to the notes (ids are UUIDs; anything else is made safe). */
export function pictureFile(p: Pick<ArchivePicture, 'id' | 'mime'>): string {
  return `images/${p.id.replace(/[^A-Za-z0-9-]+/g, '-')}.${EXT[p.mime] ?? 'bin'}`;
}

/**
 * One memory as a Markdown file: front matter, a blank line, the text, a final newline. Its
 * pictures (those in `files`, by image id) are listed in the front matter (`pictures`: the files,
 * `captions`: what each shows), so the text reads back unchanged.
 */
export function memoryToMarkdown(m: Memory, files: ReadonlyMap<string, string> = new Map()): string {
  const shown = (m.media ?? []).filter((r) => r.imageId !== undefined && files.has(r.imageId));
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
    pictures: shown.length ? shown.map((r) => files.get(r.imageId!)!) : undefined,
    captions: shown.length ? shown.map((r) => r.caption ?? '') : undefined,
  });
  return `${fm}\n${m.text}\n`;
}

export interface MarkdownArchiveOptions {
  /** Memories in the trash are left out unless asked for. */
  includeDeleted?: boolean;
  /** Folder inside the zip ("mnemograph-2024-05-01"); the root when absent. */
  folder?: string;
  /** The memories' pictures (schema v10): each written once under `images/`, named in its notes' front matter. */
  pictures?: readonly ArchivePicture[];
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
  const pictureFiles = new Map<string, string>();
  // a picture's file time: the newest note's (the archive is a pure function of its input)
  const newest = memories.reduce((t, m) => Math.max(t, m.updatedAt), 0);
  const wanted = new Set(memories.filter((m) => m.deletedAt === null || opts.includeDeleted).flatMap((m) => (m.media ?? []).flatMap((r) => (r.imageId ? [r.imageId] : []))));
  for (const p of opts.pictures ?? []) {
    if (!wanted.has(p.id) || pictureFiles.has(p.id)) continue;
    pictureFiles.set(p.id, pictureFile(p));
    entries[folder + pictureFile(p)] = [p.data, { mtime: zipTime(newest) }];
  }
  for (const m of memories) {
    if (m.deletedAt !== null && !opts.includeDeleted) continue;
    const name = markdownFileName(m.text, m.id, used);
    entries[folder + name] = [enc.encode(memoryToMarkdown(m, pictureFiles)), { mtime: zipTime(m.updatedAt) }];
    files.push({ id: m.id, name: folder + name });
  }
  return { zip: zipSync(entries, { level: 6 }), files };
}
