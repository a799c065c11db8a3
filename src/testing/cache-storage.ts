// Cache Storage for Node tests (Node has no `caches`): named caches of request URL -> bytes and
// headers; every match answers a fresh Response, as the browser's does.
import type { ModelCache, ModelCacheStorage } from '../embed/model-store';

export interface FakeCacheStorage extends ModelCacheStorage {
  /** URLs stored in a cache, sorted. */
  keys(name: string): string[];
}

export function createFakeCacheStorage(): FakeCacheStorage {
  const caches = new Map<string, Map<string, { bytes: ArrayBuffer; headers: [string, string][] }>>();
  const get = (name: string) => {
    let c = caches.get(name);
    if (!c) caches.set(name, (c = new Map()));
    return c;
  };
  return {
    async open(name: string): Promise<ModelCache> {
      const c = get(name);
      return {
        async match(url) {
          const hit = c.get(url);
          return hit ? new Response(hit.bytes.slice(0), { headers: hit.headers }) : undefined;
        },
        async put(url, res) {
          c.set(url, { bytes: await res.arrayBuffer(), headers: [...res.headers] });
        },
        async delete(url) {
          return c.delete(url);
        },
      };
    },
    keys: (name) => [...get(name).keys()].sort(),
  };
}
