// Markdown files, a folder, or an Obsidian vault: one memory per note. The front matter gives
// tags, dates, importance and source; inline #tags join the tags; [[wikilinks]] (and
// [[target|alias]], [[target#heading]]) become links between the imported notes, resolved by file
// name the way Obsidian does (the shortest path wins). A note without a date in its front matter
// takes the file's modification time. The Markdown is kept as the person wrote it: it is text
// here, and the UI renders it through its sanitiser.

import { MAX_TAGS, normaliseTag } from '../core/validate';
import { cleanSource, quote } from './draft';
import { parseFrontMatter, splitFrontMatter, type FrontMatter } from './front-matter';
import { admit, guard, problem, type ImportLink, type ImportResult, type Where } from './result';
import { decodeText, INVALID_UTF8_NOTE, parseDate } from './text';

export interface MarkdownFile {
  /** Path inside the folder or vault ("Projects/Garden.md"). */
  path: string;
  text: string | Uint8Array;
  /** The file's modification time (epoch ms), used when the front matter has no date. */
  mtime?: number;
}

export interface MarkdownOptions {
  tags?: string[];
  /**
   * Put the file name as a heading above the text when the note does not start with a heading
   * (in Obsidian the file name is the title). Never for a Mnemograph export (front matter `id`).
   * Default true.
   */
  titleFromFileName?: boolean;
}

const MARKDOWN = /\.(md|markdown|mdown|mkd)$/i;
const CREATED_KEYS = ['createdAt', 'created', 'date', 'created_at', 'creation_date'];
const SOURCE_KEYS = ['source', 'url', 'link'];

/** Text outside fenced code blocks and inline code: where #tags and [[links]] count. */
function prose(body: string): string {
  return body.replace(/^(```|~~~)[^\n]*\n[\s\S]*?(?:^\1[^\n]*$|(?![\s\S]))/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Obsidian's tag rule: after a space or line start, letters / digits / _ - /, not all digits. */
const INLINE_TAG = /(?:^|[\s(,;])#([\p{L}\p{N}_/-]+)/gu;
const WIKILINK = /(!?)\[\[([^\]\n|]{1,500})(?:\|[^\]\n]{0,500})?\]\]/g;

export function inlineTags(body: string): string[] {
  const out: string[] = [];
  for (const m of prose(body).matchAll(INLINE_TAG)) if (!/^[\d/_-]+$/.test(m[1])) out.push(m[1]);
  return out;
}

/** The targets of the note's [[wikilinks]], without heading / block parts; embeds of non-notes left out. */
export function wikilinkTargets(body: string): string[] {
  const out: string[] = [];
  for (const m of prose(body).matchAll(WIKILINK)) {
    const target = m[2].split(/[#^]/)[0].trim();
    if (!target) continue;
    if (m[1] && /\.[a-z0-9]+$/i.test(target) && !MARKDOWN.test(target)) continue; // ![[photo.png]]
    out.push(target);
  }
  return out;
}

const stem = (path: string) => path.replace(/\\/g, '/').replace(MARKDOWN, '');
const baseName = (path: string) => stem(path).split('/').pop() ?? '';

function tagsFrom(fm: FrontMatter, where: Where, out: ImportResult): string[] {
  const raw = fm.tags ?? fm.tag ?? fm.keywords;
  if (raw === undefined || raw === null) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  const tags: string[] = [];
  for (const t of list) {
    if (typeof t === 'string' || typeof t === 'number') tags.push(...String(t).split(/[,\s]+/).map((s) => s.replace(/^#/, '')));
    else out.errors.push(problem(where, `A tag in the front matter is not text (${quote(t)}); it was left out.`, 'note'));
  }
  return tags;
}

function dateField(fm: FrontMatter, keys: string[], where: Where, out: ImportResult): number | undefined {
  const key = keys.find((k) => fm[k] !== undefined && fm[k] !== null && fm[k] !== '');
  if (!key) return undefined;
  const d = parseDate(fm[key]);
  if (d === null) out.errors.push(problem(where, `${key}: ${quote(fm[key])} is not a date from year 1 to 9999; it was left out.`, 'note'));
  return d ?? undefined;
}

function importOne(f: MarkdownFile, opts: MarkdownOptions, out: ImportResult, targets: Map<string, string[]>): void {
  const where: Where = { file: f.path, line: 1 };
  const { text, invalidUtf8 } = decodeText(f.text);
  if (invalidUtf8) out.errors.push(problem(where, INVALID_UTF8_NOTE, 'note'));
  const split = splitFrontMatter(text);
  let fm: FrontMatter = {};
  if (split.yaml !== null) {
    const parsed = parseFrontMatter(split.yaml);
    if (parsed.ok) fm = parsed.data;
    else out.errors.push(problem({ ...where, line: 2 }, `The front matter could not be read (${parsed.message}); the note was imported without it.`, 'note'));
  }
  let body = split.body.replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\s+$/, '');
  const own = typeof fm.id === 'string' && fm.id !== '';
  const heading = /^#{1,6}\s/.test(body);
  if (opts.titleFromFileName !== false && !own && !heading && baseName(f.path).trim()) body = body ? `# ${baseName(f.path)}\n\n${body}` : '';
  const tags = [...(opts.tags ?? []), ...tagsFrom(fm, where, out), ...inlineTags(split.body)];
  const unique = [...new Set(tags.map(normaliseTag).filter(Boolean))];
  if (unique.length > MAX_TAGS) out.errors.push(problem(where, `The note has more than ${MAX_TAGS} tags; the first ${MAX_TAGS} were kept.`, 'note'));
  let createdAt = dateField(fm, CREATED_KEYS, where, out);
  if (createdAt === undefined && f.mtime !== undefined) createdAt = parseDate(f.mtime) ?? undefined;
  const validFrom = dateField(fm, ['validFrom', 'valid_from'], where, out);
  const validTo = dateField(fm, ['validTo', 'valid_to'], where, out);
  let importance: unknown = fm.importance;
  if (importance !== undefined && importance !== null && (typeof importance !== 'number' || !Number.isFinite(importance) || importance < 0 || importance > 1)) {
    out.errors.push(problem(where, `importance: ${quote(importance)} is not a number from 0 to 1; the default was used.`, 'note'));
    importance = undefined;
  }
  const sourceKey = SOURCE_KEYS.find((k) => fm[k] !== undefined);
  const item = admit(
    {
      text: body,
      tags: unique.slice(0, MAX_TAGS),
      importance: importance as number | undefined,
      source: sourceKey ? cleanSource(fm[sourceKey], where, out) : undefined,
      createdAt,
      validFrom,
      validTo: validTo ?? null,
    },
    where,
    out,
    f.path,
  );
  if (item) targets.set(f.path, wikilinkTargets(split.body));
}

/** Links from each note to the notes it names, by path or by file name (the shortest path wins). */
function resolveLinks(targets: Map<string, string[]>): ImportLink[] {
  const byName = new Map<string, string>();
  const byPath = new Map<string, string>();
  const paths = [...targets.keys()].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
  for (const p of paths) {
    byPath.set(stem(p).toLowerCase(), p);
    const n = baseName(p).toLowerCase();
    if (!byName.has(n)) byName.set(n, p);
  }
  const links: ImportLink[] = [];
  for (const [from, list] of targets) {
    const seen = new Set<string>();
    for (const target of list) {
      const key = stem(target).toLowerCase();
      const to = byPath.get(key) ?? (key.includes('/') ? undefined : byName.get(key)) ?? null;
      const id = `${to ?? '\u0000'}${target}`;
      if (seen.has(id) || to === from) continue;
      seen.add(id);
      links.push({ from, to, target });
    }
  }
  return links;
}

export function importMarkdown(files: readonly MarkdownFile[], opts: MarkdownOptions = {}): ImportResult {
  const targets = new Map<string, string[]>();
  const result = guard({}, (out) => {
    const seen = new Set<string>();
    const others: string[] = [];
    for (const f of files) {
      if (!f || typeof f.path !== 'string') {
        out.errors.push(problem({}, 'A file without a name was skipped.'));
        continue;
      }
      if (!MARKDOWN.test(f.path) || f.path.split(/[\\/]/).some((seg) => seg.startsWith('.'))) {
        others.push(f.path);
        continue;
      }
      if (seen.has(f.path)) {
        out.errors.push(problem({ file: f.path }, 'The same path was given twice; the first file was kept.'));
        continue;
      }
      seen.add(f.path);
      try {
        importOne(f, opts, out, targets);
      } catch (e) {
        // A hostile file (a nesting deep enough to overflow the YAML reader) costs only itself.
        out.errors.push(problem({ file: f.path }, `This file could not be read (${e instanceof Error ? e.message : String(e)}); it was skipped.`));
      }
    }
    if (others.length)
      out.errors.push(problem({}, `${others.length} file(s) that are not Markdown notes were left out (${quote(others[0])}${others.length > 1 ? ', …' : ''}).`, 'note'));
  });
  result.links = resolveLinks(targets);
  return result;
}
