// A tiny observable of the database's state, for the UI (useSyncExternalStore-friendly).

import type { AppError } from '../core/errors';

export type DbState = 'closed' | 'opening' | 'open' | 'blocked' | 'outdated' | 'error';

export interface DbStatus {
  state: DbState;
  /** Set for 'blocked', 'outdated' and 'error': what to tell the person (code + message). */
  error: AppError | null;
}

export interface DbStatusStore {
  get(): DbStatus;
  set(next: DbStatus): void;
  /** Calls fn on every change; returns the unsubscribe function. */
  subscribe(fn: (s: DbStatus) => void): () => void;
}

export function createDbStatusStore(initial: DbStatus = { state: 'closed', error: null }): DbStatusStore {
  let current = initial;
  const listeners = new Set<(s: DbStatus) => void>();
  return {
    get: () => current,
    set(next) {
      if (next.state === current.state && next.error === current.error) return;
      current = next;
      for (const fn of [...listeners]) fn(current);
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
