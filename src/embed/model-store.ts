// Downloaded and picked model files, kept for offline use in Cache Storage. A file is stored under
// the same-origin URL it would have if it were bundled (`${BASE_URL}models/<modelPath>/<file>`),
// so the embed worker loads every model the same way: Transformers.js asks its cache for that
// path first (`transformersCache` below, set as env.customCache), and falls back to the app's own
// origin for bundled models. Nothing here fetches anything; the download is model-download.ts.

import type { EncoderEntry } from './catalogue';

/** Cache Storage name of the model files (a new name = a new layout; the old one is dropped by the UI). */
export const MODEL_CACHE_NAME = 'mnemograph-models-v1';

/** The subset of the Cache API used here (the browser's `caches`, a fake in Node tests). */
export interface ModelCache {
  match(request: string): Promise<Response | undefined>;
  put(request: string, response: Response): Promise<void>;
  delete(request: string): Promise<boolean>;
}

export interface ModelCacheStorage {
  open(name: string): Promise<ModelCache>;
}

/** The browser's Cache Storage, or an error a person can read when there is none (an insecure origin). */
export function browserCacheStorage(): ModelCacheStorage | null {
  const c = (globalThis as { caches?: ModelCacheStorage }).caches;
  return c && typeof c.open === 'function' ? c : null;
}

/** Absolute URL of the models folder, e.g. `https://app.example/models/` (ends with '/'). */
export function modelsBaseUrl(origin: string, base = '/'): string {
  return new URL(`${base.replace(/\/?$/, '/')}models/`, origin).href;
}

/** The same-origin URL a model file is kept under. */
export function modelFileUrl(modelsBase: string, e: Pick<EncoderEntry, 'folder'>, file: string): string {
  return new URL(`${e.folder}/${file}`, modelsBase).href;
}

/** The files of `e` present in the cache (hub and folder models; bundled ones are the service worker's). */
export async function cachedFiles(storage: ModelCacheStorage, modelsBase: string, e: EncoderEntry): Promise<string[]> {
  if (!e.files?.length) return [];
  const cache = await storage.open(MODEL_CACHE_NAME);
  const present: string[] = [];
  for (const f of e.files) if (await cache.match(modelFileUrl(modelsBase, e, f.path))) present.push(f.path);
  return present;
}

/** Every file of a downloaded or picked model is kept: it can run offline. Bundled models always can. */
export async function isModelAvailable(storage: ModelCacheStorage | null, modelsBase: string, e: EncoderEntry): Promise<boolean> {
  if (e.source === 'bundled') return true;
  if (!storage || !e.files?.length) return false;
  return (await cachedFiles(storage, modelsBase, e)).length === e.files.length;
}

/** Deletes a model's kept files. */
export async function removeModelFiles(storage: ModelCacheStorage, modelsBase: string, e: EncoderEntry): Promise<void> {
  const cache = await storage.open(MODEL_CACHE_NAME);
  for (const f of e.files ?? []) await cache.delete(modelFileUrl(modelsBase, e, f.path));
}

/** Lowercase hex SHA-256 of some bytes (WebCrypto: the browser, workers and Node 20). */
export async function sha256Hex(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const digest = await crypto.subtle.digest('SHA-256', view as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Stores verified bytes under their same-origin URL. */
export async function putModelFile(cache: ModelCache, url: string, bytes: Uint8Array): Promise<void> {
  const type = url.endsWith('.json') ? 'application/json' : 'application/octet-stream';
  await cache.put(url, new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': type, 'content-length': String(bytes.byteLength) } }));
}

/**
 * For the embed worker: Transformers.js' custom cache (env.useCustomCache = true,
 * env.customCache = transformersCache(...)). It looks up the local path Transformers.js asks for
 * (`/models/<modelPath>/<file>`) among the kept files and never stores anything itself, so a
 * bundled model still comes from the app's origin (precached by the service worker).
 */
export function transformersCache(storage: ModelCacheStorage, origin: string) {
  let opened: Promise<ModelCache> | null = null;
  return {
    async match(request: string): Promise<Response | undefined> {
      let url: string;
      try {
        url = new URL(request, origin).href;
      } catch {
        return undefined;
      }
      if (!url.startsWith(origin)) return undefined; // a hub URL: never looked up, never fetched
      opened ??= storage.open(MODEL_CACHE_NAME);
      return (await opened).match(url);
    },
    async put(): Promise<void> {
      /* the app keeps model files itself (verified); Transformers.js caches nothing */
    },
  };
}

/**
 * For the embed worker: a fetch that answers a kept model file (a downloaded or picked model)
 * from Cache Storage and everything else from the network (the app's own origin: the bundled
 * models). Nothing is ever stored by it.
 */
export function keptFirstFetch(storage: ModelCacheStorage | null, origin: string, fetchImpl: typeof fetch = fetch): typeof fetch {
  const kept = storage ? transformersCache(storage, origin) : null;
  return (async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const hit = kept ? await kept.match(url).catch(() => undefined) : undefined;
    return hit ?? fetchImpl(input, init);
  }) as typeof fetch;
}
