// The judge's files in Cache Storage, named by their content. The build writes the folder's
// `files.json` (scripts/fetch-judge.mjs writeFileSums: every file's SHA-256 and size); the cache's
// name carries a digest of those sums, so a rebuilt model, even one of exactly the same size, gets
// a new cache and is fetched again (the name used to be the model id and its catalogue size, which
// kept serving the old file). A file is kept only when its bytes match its sum; older judge caches
// are deleted once the new one is named. Offline (the sums cannot be read), the judge cache already
// kept is used as it is.

/** What `files.json` holds. */
export interface JudgeFileSums {
  id: string;
  files: Record<string, { sha256: string; bytes: number }>;
}

export const SUMS_FILE = 'files.json';
export const JUDGE_CACHE_PREFIX = 'mnemograph-judge-';

/** The parts of the Cache Storage API used here (a fake in tests). */
export type CacheStore = Pick<CacheStorage, 'open' | 'keys' | 'delete'>;

const hex = (buf: ArrayBuffer): string => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');

export async function sha256Hex(data: ArrayBuffer | Uint8Array): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', data as BufferSource));
}

/** Validates a parsed `files.json`; null when it is not one for `id`. */
export function parseSums(raw: unknown, id: string): JudgeFileSums | null {
  const r = raw as Partial<JudgeFileSums> | null;
  if (!r || typeof r !== 'object' || r.id !== id || !r.files || typeof r.files !== 'object') return null;
  for (const v of Object.values(r.files)) {
    if (!v || typeof v.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(v.sha256) || typeof v.bytes !== 'number') return null;
  }
  return r as JudgeFileSums;
}

/** `mnemograph-judge-<id>-<first 16 hex of the SHA-256 of every "path sha256" line, sorted>`. */
export async function judgeCacheName(sums: JudgeFileSums): Promise<string> {
  const lines = Object.entries(sums.files)
    .map(([path, f]) => `${path} ${f.sha256}`)
    .sort()
    .join('\n');
  return `${JUDGE_CACHE_PREFIX}${sums.id}-${(await sha256Hex(new TextEncoder().encode(lines))).slice(0, 16)}`;
}

/** The model's files as `files.json` names them: the URL's path after `/<folder>/`. */
export function pathInFolder(url: string, folder: string): string | null {
  const path = new URL(url, 'http://x/').pathname;
  const at = path.indexOf(`/${folder}/`);
  return at < 0 ? null : decodeURIComponent(path.slice(at + folder.length + 2));
}

export interface KeptJudge {
  /** The fetch handed to Transformers.js. */
  fetch: typeof fetch;
  /** The cache the files are kept in; null = none (no Cache Storage, or neither sums nor an earlier copy). */
  cacheName: string | null;
}

/**
 * Reads the folder's sums (revalidated, never a stale HTTP copy), names the cache by them and
 * deletes the other judge caches of this id. Offline or without sums: the judge cache already kept
 * (if any) is read as it is and nothing new is kept.
 */
export async function keptJudge(opts: { id: string; folderUrl: string; folder: string; caches: CacheStore | null; fetchImpl?: typeof fetch }): Promise<KeptJudge> {
  const { id, folderUrl, folder, caches } = opts;
  const net = opts.fetchImpl ?? fetch;
  let sums: JudgeFileSums | null = null;
  let offline = false;
  try {
    const res = await net(`${folderUrl}${SUMS_FILE}`, { cache: 'no-cache' });
    if (res.ok) sums = parseSums(await res.json(), id);
  } catch {
    offline = true;
  }
  if (!caches) return { fetch: net, cacheName: null };
  const mine = `${JUDGE_CACHE_PREFIX}${id}-`;
  const names = (await caches.keys().catch(() => [] as string[])).filter((n) => n.startsWith(mine));
  if (!sums) {
    // offline: the copy kept earlier (there is at most one) serves the judge; a server without
    // sums (a build that could not write them): nothing kept, every file from the network
    const earlier = offline ? names[0] : undefined;
    return earlier ? { fetch: keptFetch(caches, earlier, null, folder, net), cacheName: earlier } : { fetch: net, cacheName: null };
  }
  const name = await judgeCacheName(sums);
  for (const n of names) if (n !== name) await caches.delete(n).catch(() => false);
  return { fetch: keptFetch(caches, name, sums, folder, net), cacheName: name };
}

/**
 * Cache first; else the network, and an answer whose bytes match its sum kept (without sums, e.g.
 * offline, nothing is kept). A file that does not match is still used this once (it is what the
 * server sent) but never kept, so the next start fetches it again. A failure to keep (storage
 * full) is only logged.
 */
export function keptFetch(caches: CacheStore, cacheName: string, sums: JudgeFileSums | null, folder: string, net: typeof fetch = fetch): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const cache = await caches.open(cacheName).catch(() => null);
    const hit = await cache?.match(url).catch(() => undefined);
    if (hit) return hit;
    const res = await net(input, init);
    const path = pathInFolder(url, folder);
    const want = path !== null ? sums?.files[path] : undefined;
    if (res.ok && cache && want) {
      void keepIfIntact(cache, url, res.clone(), want.sha256).catch((e: unknown) => console.warn('judge worker: could not keep', url, e));
    }
    return res;
  }) as typeof fetch;
}

async function keepIfIntact(cache: Cache, url: string, res: Response, sha256: string): Promise<void> {
  const body = await res.arrayBuffer();
  const got = await sha256Hex(body);
  if (got !== sha256) {
    console.warn(`judge worker: ${url} has SHA-256 ${got}, not the build's ${sha256}: not kept`);
    return;
  }
  await cache.put(url, new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers }));
}
