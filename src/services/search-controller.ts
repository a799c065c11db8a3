// Stale answers never replace fresh ones: each new search aborts the previous one, and a
// response that arrives after a newer request was made is dropped by its request id.

import type { SearchOptions, SearchResultView } from './types';

/** `R` is what one run answers: the hits of search(), or recall()'s whole outcome. */
export type SearchRunner<R = SearchResultView[], O = SearchOptions> = (query: string, opts: O, signal: AbortSignal) => Promise<R>;

export type SearchOutcome<R = SearchResultView[]> =
  | { status: 'fresh'; requestId: number; query: string; results: R }
  | { status: 'stale'; requestId: number };

/** Over search() by default; createRecallController() gives one over recall(). */
export interface SearchController<R = SearchResultView[], O = SearchOptions> {
  /**
   * Starts a search and aborts the previous one. Resolves 'fresh' with the results if no newer
   * search was started meanwhile, else 'stale' (ignore it). Rejects only for the newest request.
   */
  run(query: string, opts?: O): Promise<SearchOutcome<R>>;
  /** Aborts the search in flight, if any (e.g. when the search box unmounts). */
  abort(): void;
  /** Id of the newest request (0 before the first). */
  latestRequestId(): number;
}

export function createSearchController<R = SearchResultView[], O = SearchOptions>(runner: SearchRunner<R, O>): SearchController<R, O> {
  let latest = 0;
  let current: AbortController | null = null;
  return {
    async run(query, opts = {} as O) {
      const requestId = ++latest;
      current?.abort();
      const ac = new AbortController();
      current = ac;
      try {
        const results = await runner(query, opts, ac.signal);
        if (requestId !== latest) return { status: 'stale', requestId };
        return { status: 'fresh', requestId, query, results };
      } catch (e) {
        // a superseded request's failure (usually ABORTED) is as stale as its answer
        if (requestId !== latest) return { status: 'stale', requestId };
        throw e;
      } finally {
        if (current === ac) current = null;
      }
    },
    abort() {
      latest++; // whatever is in flight is now stale
      current?.abort();
      current = null;
    },
    latestRequestId: () => latest,
  };
}
