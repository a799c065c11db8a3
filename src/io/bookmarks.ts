// Browser bookmarks: the Netscape bookmark file Chrome, Firefox, Edge and Safari export. Each link
// is a memory: its title (and its description, if any) as the text, the URL as the source, the
// ADD_DATE as the creation time, and the folders it sits in as tags. Read with the tolerant
// tokenizer (no DOMParser in a worker); scripts are skipped, javascript: / data: URLs dropped.

import { MAX_SOURCE_LENGTH, MAX_TAGS, normaliseTag } from '../core/validate';
import { cleanSource } from './draft';
import { tokenizeHtml } from './html-tokens';
import { admit, guard, problem, type ImportResult } from './result';
import { isDangerousLink } from './safe-url';
import { decodeText, INVALID_UTF8_NOTE, inTimeRange, parseDate } from './text';

export interface BookmarkOptions {
  file?: string;
  /** Added to every bookmark (e.g. "bookmarks"). */
  tags?: string[];
}

interface Pending {
  href: string;
  addDate?: string;
  tags: string[];
  title: string;
  description: string;
  line: number;
}

/** ADD_DATE is Unix seconds in every export seen; microseconds (a Chrome quirk) are accepted too. */
function bookmarkDate(raw: string): number | null {
  const n = Number(raw);
  if (/^\d{15,17}$/.test(raw.trim()) && inTimeRange(n / 1000)) return Math.round(n / 1000);
  return parseDate(raw);
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

export function importBookmarks(input: string | Uint8Array, opts: BookmarkOptions = {}): ImportResult {
  const file = opts.file;
  return guard({ file }, (out) => {
    const { text, invalidUtf8 } = decodeText(input);
    if (invalidUtf8) out.errors.push(problem({ file }, INVALID_UTF8_NOTE, 'note'));
    if (!/<a\s/i.test(text) && !/NETSCAPE-Bookmark-file/i.test(text.slice(0, 4096))) {
      out.errors.push(problem({ file }, 'This file is not a browser bookmarks export (no links found). Nothing was imported.'));
      return;
    }
    const folders: (string | null)[] = [];
    let folderName: string | null = null; // the last <H3>, waiting for its <DL>
    let collecting: 'h3' | 'a' | 'dd' | null = null;
    let buf = '';
    let pending: Pending | null = null;
    let line = 1;
    let lineOffset = 0;
    const lineOf = (offset: number) => {
      for (let k = lineOffset; k < offset; k++) if (text.charCodeAt(k) === 10) line++;
      lineOffset = offset;
      return line;
    };

    const flush = () => {
      // An <A> or <DD> left open (tag soup) still gives what it held.
      if (pending && collecting === 'a') pending.title = buf;
      if (pending && collecting === 'dd') pending.description = squash(buf);
      collecting = null;
      if (!pending) return;
      const p = pending;
      pending = null;
      const where = { file, line: p.line };
      const title = squash(p.title);
      const dangerous = isDangerousLink(p.href);
      let body = title || (dangerous ? '' : p.href.trim());
      let source: string | undefined;
      if (dangerous || p.href.length <= MAX_SOURCE_LENGTH) source = cleanSource(p.href, where, out);
      else {
        body = body === p.href.trim() ? body : `${body}\n${p.href.trim()}`;
        out.errors.push(problem(where, `The link is longer than ${MAX_SOURCE_LENGTH} characters; it was kept in the text instead of the source.`, 'note'));
      }
      const desc = p.description.trim();
      if (desc && body) body = `${body}\n\n${desc}`;
      let createdAt: number | undefined;
      if (p.addDate !== undefined) {
        const d = bookmarkDate(p.addDate);
        if (d === null) out.errors.push(problem(where, 'ADD_DATE is not a date from year 1 to 9999; the import time is used.', 'note'));
        else createdAt = d;
      }
      const names = [...(opts.tags ?? []), ...folders.filter((f): f is string => !!f), ...p.tags].map(normaliseTag).filter(Boolean);
      const tags = [...new Set(names)];
      if (!body) {
        out.errors.push(problem(where, dangerous ? 'A script link with no title was skipped.' : 'A bookmark with no title and no URL was skipped.'));
        return;
      }
      if (tags.length > MAX_TAGS) out.errors.push(problem(where, `Only the first ${MAX_TAGS} folder names were kept as tags.`, 'note'));
      admit({ text: body, tags: tags.slice(0, MAX_TAGS), source, createdAt }, where, out);
    };

    for (const t of tokenizeHtml(text)) {
      if (t.kind === 'text') {
        if (collecting) buf += t.text;
        continue;
      }
      const name = t.name;
      if (t.kind === 'start' && name === 'a') {
        flush();
        pending = {
          href: t.attrs.href ?? '',
          addDate: t.attrs.add_date,
          tags: (t.attrs.tags ?? '').split(',').filter((s) => s.trim()),
          title: '',
          description: '',
          line: lineOf(t.offset),
        };
        collecting = 'a';
        buf = '';
      } else if (t.kind === 'end' && name === 'a' && collecting === 'a') {
        if (pending) pending.title = buf;
        collecting = null;
      } else if (t.kind === 'start' && name === 'h3') {
        flush();
        collecting = 'h3';
        buf = '';
      } else if (t.kind === 'end' && name === 'h3' && collecting === 'h3') {
        folderName = squash(buf).slice(0, 64) || null;
        collecting = null;
      } else if (t.kind === 'start' && name === 'dd') {
        collecting = 'dd';
        buf = '';
      } else if (t.kind === 'start' && name === 'dl') {
        flush();
        folders.push(folderName);
        folderName = null;
      } else if (t.kind === 'end' && name === 'dl') {
        flush();
        folders.pop();
      } else if (t.kind === 'start' && name === 'dt') {
        flush();
      }
    }
    flush();
  });
}
