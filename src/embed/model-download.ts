// The one network fetch the app makes outside its own origin: a hub model a person asked for.
// Files come one at a time from `<hub>/<org>/<name>/resolve/<revision>/<file>` (a pinned commit),
// with progress and cancel; each file's SHA-256 must equal the catalogue's pin before it is kept
// (a file that fails is not cached); kept files are skipped by a later try, so an interrupted
// download resumes file by file. The hub base URL is a parameter: the app passes HUB_BASE_URL,
// tests a loopback server.

import { AppError, MESSAGES, describeError } from '../core/errors';
import { downloadable, hubFileUrl, type EncoderEntry } from './catalogue';
import { MODEL_CACHE_NAME, modelFileUrl, putModelFile, sha256Hex, type ModelCacheStorage } from './model-store';

export interface DownloadProgress {
  /** Bytes received so far, of every file (kept files count as received). */
  loaded: number;
  /** The catalogue's size of the whole model (exact when every file's size is pinned). */
  total: number;
  /** The file being fetched. */
  file: string;
}

export interface DownloadOptions {
  /** The hub, e.g. HUB_BASE_URL. */
  hubBase: string;
  /** Absolute URL of the app's models folder (modelsBaseUrl). */
  modelsBase: string;
  storage: ModelCacheStorage;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  onProgress?: (p: DownloadProgress) => void;
}

export interface DownloadOutcome {
  /** Files fetched now / already kept from an earlier try. */
  fetched: number;
  kept: number;
  bytes: number;
}

const aborted = (signal?: AbortSignal) => !!signal?.aborted;

/** Downloads every file of a hub model not kept yet. Rejects MODEL_DOWNLOAD_FAILED, MODEL_CHECKSUM or ABORTED. */
export async function downloadModel(e: EncoderEntry, opts: DownloadOptions): Promise<DownloadOutcome> {
  if (!downloadable(e))
    throw new AppError('MODEL_DOWNLOAD_FAILED', `${e.name} cannot be downloaded yet: its files' checksums are not pinned in this version.`);
  const doFetch = opts.fetch ?? fetch.bind(globalThis);
  const cache = await opts.storage.open(MODEL_CACHE_NAME);
  const total = e.bytes;
  let before = 0; // bytes of the files finished so far
  let fetched = 0;
  let kept = 0;
  const report = (file: string, inFile: number) => opts.onProgress?.({ loaded: Math.min(total, before + inFile), total, file });

  for (const spec of e.files ?? []) {
    if (aborted(opts.signal)) throw new AppError('ABORTED');
    const key = modelFileUrl(opts.modelsBase, e, spec.path);
    const have = await cache.match(key);
    if (have) {
      kept++;
      before += spec.bytes ?? Number(have.headers.get('content-length') ?? 0);
      report(spec.path, 0);
      continue;
    }
    const bytes = await fetchFile(hubFileUrl(opts.hubBase, e, spec.path), spec.path, doFetch, opts.signal, (n) => report(spec.path, n));
    if (spec.bytes !== undefined && bytes.byteLength !== spec.bytes)
      throw new AppError('MODEL_CHECKSUM', MESSAGES.modelChecksum(spec.path), `${bytes.byteLength} bytes, expected ${spec.bytes}`);
    const sha = await sha256Hex(bytes);
    if (sha !== spec.sha256) throw new AppError('MODEL_CHECKSUM', MESSAGES.modelChecksum(spec.path), `sha256 ${sha}`);
    if (aborted(opts.signal)) throw new AppError('ABORTED');
    await putModelFile(cache, key, bytes);
    fetched++;
    before += bytes.byteLength;
    report(spec.path, 0);
  }
  opts.onProgress?.({ loaded: total, total, file: '' });
  return { fetched, kept, bytes: before };
}

/** One file's bytes, streamed for progress. A network failure mid-way is MODEL_DOWNLOAD_FAILED. */
async function fetchFile(
  url: string,
  name: string,
  doFetch: typeof fetch,
  signal: AbortSignal | undefined,
  onBytes: (n: number) => void,
): Promise<Uint8Array> {
  let res: Response;
  try {
    // no cookies, no referrer: the hub learns only which public file was asked for
    res = await doFetch(url, { signal, credentials: 'omit', referrerPolicy: 'no-referrer', cache: 'no-store', redirect: 'follow' });
  } catch (e) {
    if (aborted(signal)) throw new AppError('ABORTED');
    throw new AppError('MODEL_DOWNLOAD_FAILED', undefined, `${name}: ${describeError(e)}`);
  }
  if (!res.ok || !res.body) throw new AppError('MODEL_DOWNLOAD_FAILED', MESSAGES.modelFileMissing(name, res.status), url);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let n = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      n += value.byteLength;
      onBytes(n);
    }
  } catch (e) {
    if (aborted(signal)) throw new AppError('ABORTED');
    throw new AppError('MODEL_DOWNLOAD_FAILED', undefined, `${name} stopped after ${n} bytes: ${describeError(e)}`);
  } finally {
    reader.releaseLock();
  }
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
