import { useSyncExternalStore } from 'react';

export function useExternal<T>(s: { get(): T; subscribe(l: () => void): () => void }): T {
  return useSyncExternalStore(s.subscribe, s.get, s.get);
}
