// The full list, read in pages as the person scrolls: the services answer a window of the sorted,
// filtered list (browse(query, offset, limit)), so 100k memories never enter the page at once.
// Any stored change (this tab or another) re-reads the pages on screen; until they arrive the old
// rows stay, so a save does not blank the list.
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { isAborted } from '../../core/errors';
import { logError } from '../app/report';
import { keepApi, type BrowseQuery, type MemoryHeader, type TagCount } from './keep-api';

export const PAGE = 100;

const subscribe = (fn: () => void) => keepApi().subscribeChanges(fn);
const version = () => keepApi().changeVersion();

/** A number that moves on every stored change (this tab or another). */
export function useChangeCount(): number {
  return useSyncExternalStore(subscribe, version, version);
}

export interface Browse {
  /** Rows in the list (null until the first page arrives). */
  total: number | null;
  item(index: number): MemoryHeader | undefined;
  /** Asks for the rows [start, end) (the ones on screen). */
  ensure(start: number, end: number): void;
  /** Every id of the list, read page by page (for "select all"). */
  allIds(): Promise<string[]>;
  error: string | null;
}

export function useBrowse(query: BrowseQuery): Browse {
  const change = useChangeCount();
  const queryKey = JSON.stringify(query);
  const [total, setTotal] = useState<number | null>(null);
  const [, setTick] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const pages = useRef(new Map<number, MemoryHeader[]>());
  const fresh = useRef(new Set<number>()); // pages read since the last change
  const inFlight = useRef(new Set<number>());
  const generation = useRef(0);
  const lastQuery = useRef(queryKey);
  const wanted = useRef<[number, number]>([0, PAGE]);

  const load = useCallback(
    (page: number) => {
      if (fresh.current.has(page) || inFlight.current.has(page)) return;
      inFlight.current.add(page);
      const gen = generation.current;
      keepApi()
        .browseMemories(JSON.parse(lastQuery.current) as BrowseQuery, { offset: page * PAGE, limit: PAGE })
        .then(
          (p) => {
            if (gen !== generation.current) return;
            inFlight.current.delete(page);
            pages.current.set(page, p.items);
            fresh.current.add(page);
            setTotal(p.total);
            setError(null);
            setTick((t) => t + 1);
          },
          (e: unknown) => {
            if (gen !== generation.current || isAborted(e)) return;
            inFlight.current.delete(page);
            setError(logError(e).message);
          },
        );
    },
    [],
  );

  const ensure = useCallback(
    (start: number, end: number) => {
      wanted.current = [start, end];
      const first = Math.floor(Math.max(0, start) / PAGE);
      const last = Math.floor(Math.max(start, end - 1) / PAGE);
      for (let p = first; p <= last; p++) load(p);
    },
    [load],
  );

  // a new query starts afresh; a stored change re-reads what is on screen, keeping the old rows meanwhile
  useEffect(() => {
    generation.current++;
    inFlight.current.clear();
    fresh.current.clear();
    if (lastQuery.current !== queryKey) {
      pages.current.clear();
      setTotal(null);
      wanted.current = [0, PAGE];
    }
    lastQuery.current = queryKey;
    load(0);
    ensure(...wanted.current);
  }, [queryKey, change, load, ensure]);

  const item = useCallback((i: number) => pages.current.get(Math.floor(i / PAGE))?.[i % PAGE], []);

  const allIds = useCallback(async () => {
    const q = JSON.parse(lastQuery.current) as BrowseQuery;
    const first = await keepApi().browseMemories(q, { offset: 0, limit: 500 });
    const ids = first.items.map((m) => m.id);
    for (let off = 500; off < first.total; off += 500) ids.push(...(await keepApi().browseMemories(q, { offset: off, limit: 500 })).items.map((m) => m.id));
    return ids;
  }, []);

  return { total, item, ensure, allIds, error };
}

/** Tag counts of the list as filtered (every tag of the matching memories), refreshed on changes. */
export function useTagCounts(query: BrowseQuery): TagCount[] | null {
  const change = useChangeCount();
  const key = JSON.stringify({ ...query, sort: undefined });
  const [counts, setCounts] = useState<TagCount[] | null>(null);
  useEffect(() => {
    let live = true;
    keepApi()
      .tagCounts(JSON.parse(key) as BrowseQuery)
      .then(
        (c) => live && setCounts(c),
        (e: unknown) => logError(e),
      );
    return () => {
      live = false;
    };
  }, [key, change]);
  return counts;
}

/** How many memories a query matches, kept up to date. */
export function useCount(query: BrowseQuery): number | null {
  const change = useChangeCount();
  const key = JSON.stringify(query);
  const [n, setN] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    keepApi()
      .browseMemories(JSON.parse(key) as BrowseQuery, { offset: 0, limit: 1 })
      .then(
        (p) => live && setN(p.total),
        (e: unknown) => logError(e),
      );
    return () => {
      live = false;
    };
  }, [key, change]);
  return n;
}

