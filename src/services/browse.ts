// The full list (issue 9, Browse): a count and a window of headers for a virtualised list, full
// rows on demand (getMemories), tag counts. The ordered ids of the last few queries are kept until
// the memories table changes (onMemoriesChanged: this tab's writes and other tabs'), so
// scrolling through 100k memories reads only each window's rows.

import { imageRefs } from '../core/images';
import { titleLine } from '../core/text/title';
import { AppError } from '../core/errors';
import type { MemoryId } from '../core/types';
import { normaliseTags } from '../core/validate';
import { browseIds, countTags, onMemoriesChanged, rowsOf, type BrowseFilter } from '../db/browse';
import { SAMPLE_KEY_PREFIX, type MemoryRow } from '../db/schema';
import type { ServiceContext } from './context';
import type { BrowsePage, BrowseQuery, MemoryHeader, TagCount } from './types';

export const MAX_BROWSE_WINDOW = 500;
const TITLE_CHARS = 160;
const SORTS = ['newest', 'oldest', 'importance', 'opened'] as const;
const STATUSES = ['current', 'active', 'quarantined', 'archived', 'trashed', 'superseded', 'all'] as const;

const bad = (message: string) => new AppError('INVALID_OPTION', message);
const finiteOr = (v: unknown, name: string): number | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw bad(`${name} must be a number.`);
  return v;
};

/** A browse query checked and normalised (tags as memories store them). */
export function validateBrowseQuery(q: unknown): BrowseFilter {
  if (q === undefined || q === null) return { status: 'current', sort: 'newest' };
  if (typeof q !== 'object') throw bad('The list query must be an object.');
  const r = q as BrowseQuery;
  const sort = r.sort ?? 'newest';
  if (!SORTS.includes(sort)) throw bad(`Sort must be one of ${SORTS.join(', ')}.`);
  const status = r.status ?? 'current';
  if (!STATUSES.includes(status)) throw bad(`Status must be one of ${STATUSES.join(', ')}.`);
  const importanceMin = finiteOr(r.importanceMin, 'The lowest importance');
  const importanceMax = finiteOr(r.importanceMax, 'The highest importance');
  for (const v of [importanceMin, importanceMax]) if (v !== undefined && (v < 0 || v > 1)) throw bad('Importance filters must be from 0 to 1.');
  if (importanceMin !== undefined && importanceMax !== undefined && importanceMin > importanceMax) throw bad('The lowest importance must not be above the highest.');
  const from = finiteOr(r.from, 'The start date');
  const to = finiteOr(r.to, 'The end date');
  if (from !== undefined && to !== undefined && to < from) throw bad('The end date must not be before the start date.');
  if (r.source !== undefined && typeof r.source !== 'string') throw bad('The source must be text.');
  if (r.sample !== undefined && typeof r.sample !== 'boolean') throw bad('sample must be true or false.');
  const tags = r.tags === undefined ? [] : normaliseTags(r.tags);
  return {
    status,
    sort,
    ...(tags.length ? { tags } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    ...(r.source !== undefined && r.source.trim() ? { source: r.source.trim() } : {}),
    ...(r.sample !== undefined ? { sample: r.sample } : {}),
    ...(importanceMin !== undefined ? { importanceMin } : {}),
    ...(importanceMax !== undefined ? { importanceMax } : {}),
  };
}

/** The first line that says something (a snippet's first line of code), at most TITLE_CHARS characters (an ellipsis when cut). */
export function titleOf(text: string): string {
  return titleLine(text, TITLE_CHARS);
}

const pictureCaption = (m: MemoryRow): { picture?: string } => {
  const [ref] = imageRefs(m.media);
  return ref ? { picture: ref.caption ?? '' } : {};
};

export function headerOf(m: MemoryRow): MemoryHeader {
  return {
    id: m.id,
    title: titleOf(m.text),
    length: m.text.length,
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    importance: m.importance,
    tags: m.tags,
    ...(m.source !== undefined ? { source: m.source } : {}),
    status: m.status,
    deletedAt: m.deletedAt,
    ...(m.supersededBy !== undefined ? { supersededBy: m.supersededBy, supersededAt: m.supersededAt } : {}),
    ...(m.lastAccessedAt !== undefined ? { lastAccessedAt: m.lastAccessedAt } : {}),
    validFrom: m.validFrom,
    validTo: m.validTo,
    sample: m.importKey?.startsWith(SAMPLE_KEY_PREFIX) === true,
    ...pictureCaption(m),
  };
}

export function createBrowse(ctx: ServiceContext) {
  const { db } = ctx;
  let version = 0;
  const listeners = new Set<() => void>();
  const cache = new Map<string, { version: number; ids: MemoryId[] }>();
  const unsubscribe = onMemoriesChanged(db, () => {
    version++;
    cache.clear();
    for (const fn of listeners) fn();
  });

  async function ids(f: BrowseFilter): Promise<MemoryId[]> {
    const key = JSON.stringify(f);
    const hit = cache.get(key);
    if (hit && hit.version === version) return hit.ids;
    const at = version;
    const list = await browseIds(db, f);
    if (at === version) {
      if (cache.size >= 8) cache.delete(cache.keys().next().value as string);
      cache.set(key, { version: at, ids: list });
    }
    return list;
  }

  return {
    /** The list's length and the headers of one window ({ offset 0, limit 100 } by default; limit at most 500). */
    async browseMemories(query?: BrowseQuery, window: { offset?: number; limit?: number } = {}): Promise<BrowsePage> {
      const f = validateBrowseQuery(query);
      const offset = window.offset ?? 0;
      const limit = window.limit ?? 100;
      if (!Number.isInteger(offset) || offset < 0) throw bad('offset must be a whole number >= 0.');
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_BROWSE_WINDOW) throw bad(`limit must be a whole number from 1 to ${MAX_BROWSE_WINDOW}.`);
      const all = await ids(f);
      const rows = await rowsOf(db, all.slice(offset, offset + limit));
      return { total: all.length, offset, items: rows.map(headerOf) };
    },

    /** Tags of the memories the query lists, with counts, most used first (ties by tag). */
    async tagCounts(query?: BrowseQuery): Promise<TagCount[]> {
      const f = validateBrowseQuery(query);
      const counts = await countTags(db, new Set(await ids(f)));
      return [...counts].map(([tag, count]) => ({ tag, count })).sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : 1));
    },

    /** A number that changes whenever the memories change (this tab or another): useSyncExternalStore(subscribeChanges, changeVersion). */
    changeVersion: (): number => version,
    subscribeChanges(fn: () => void): () => void {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },

    disposeBrowse(): void {
      unsubscribe();
      listeners.clear();
      cache.clear();
    },
  };
}
