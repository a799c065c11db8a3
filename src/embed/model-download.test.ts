// The opt-in hub download against a real HTTP server on the loopback interface (src/testing/
// hub-server.ts) serving real model files in the hub's layout: checksums, the faults (404, a
// truncated file, a connection dropped mid-file), cancel, resume, and what is kept.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import { HUB_ENCODERS, hubFileUrl, type EncoderEntry } from './catalogue';
import { downloadModel, type DownloadProgress } from './model-download';
import { MODEL_CACHE_NAME, isModelAvailable, modelFileUrl, modelsBaseUrl, transformersCache } from './model-store';
import { createFakeCacheStorage, type FakeCacheStorage } from '../testing/cache-storage';
import { entryFor, readFolder, startHubServer, type HubRepo, type HubServer } from '../testing/hub-server';

// The bundled MiniLM files (issue 8's default encoder) when the build has fetched them; else
// the bundled USE-lite files: real model bytes either way.
const MINILM = join(process.cwd(), 'public/models/all-MiniLM-L6-v2-int8');
const USE_LITE = join(process.cwd(), 'public/models/use-lite');
const fixtureDir = existsSync(MINILM) ? MINILM : USE_LITE;

const ORIGIN = 'https://app.test';
const MODELS = modelsBaseUrl(ORIGIN, '/');
const REPO: HubRepo = { repo: 'test-org/minilm-copy', revision: 'a'.repeat(40), files: readFolder(fixtureDir) };

let hub: HubServer;
let entry: EncoderEntry;
let storage: FakeCacheStorage;

beforeAll(async () => {
  hub = await startHubServer([REPO]);
  entry = await entryFor(REPO);
});
afterAll(() => hub.close());
beforeEach(() => {
  storage = createFakeCacheStorage();
  for (const f of REPO.files.keys()) hub.fault(f, undefined);
  hub.pace(64 * 1024);
  hub.requests.length = 0;
});

const run = (opts: { signal?: AbortSignal; onProgress?: (p: DownloadProgress) => void } = {}) =>
  downloadModel(entry, { hubBase: hub.base, modelsBase: MODELS, storage, ...opts });

const kept = () => storage.keys(MODEL_CACHE_NAME);
const urlOf = (file: string) => `${ORIGIN}/models/hub/test-org_minilm-copy/${file}`;
const biggest = () => [...REPO.files].sort((a, b) => b[1].byteLength - a[1].byteLength)[0][0];

async function failure(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe('the hub layout and the kept files', () => {
  it('asks the hub for <org>/<name>/resolve/<revision>/<file> and keeps a file under its same-origin models URL', () => {
    const bge = HUB_ENCODERS.find((e) => e.hub?.repo === 'Xenova/bge-small-en-v1.5')!;
    expect(hubFileUrl('https://huggingface.co/', bge, 'onnx/model_quantized.onnx')).toBe(
      'https://huggingface.co/Xenova/bge-small-en-v1.5/resolve/ea104dacec62c0de699686887e3f920caeb4f3e3/onnx/model_quantized.onnx',
    );
    expect(modelFileUrl(MODELS, bge, 'config.json')).toBe('https://app.test/models/hub/Xenova_bge-small-en-v1.5/config.json');
    expect(modelsBaseUrl('https://x.example', '/app')).toBe('https://x.example/app/models/');
  });
});

describe('downloadModel', () => {
  it(`fetches every file of the model (${REPO.files.size} real files from ${fixtureDir.split('/').pop()}), checks it and keeps it`, async () => {
    const seen: DownloadProgress[] = [];
    const out = await run({ onProgress: (p) => seen.push(p) });
    expect(out).toEqual({ fetched: REPO.files.size, kept: 0, bytes: entry.bytes });
    expect(kept()).toEqual([...REPO.files.keys()].map(urlOf).sort());
    const cache = await storage.open(MODEL_CACHE_NAME);
    for (const [file, bytes] of REPO.files) {
      const got = new Uint8Array(await (await cache.match(urlOf(file)))!.arrayBuffer());
      expect(got.byteLength).toBe(bytes.byteLength);
      expect(Buffer.from(got).equals(Buffer.from(bytes))).toBe(true);
    }
    // progress only grows and ends at the whole size
    for (let i = 1; i < seen.length; i++) expect(seen[i].loaded).toBeGreaterThanOrEqual(seen[i - 1].loaded);
    expect(seen.at(-1)).toEqual({ loaded: entry.bytes, total: entry.bytes, file: '' });
    expect(seen.length).toBeGreaterThan(REPO.files.size); // the big file reports as it streams
    expect(await isModelAvailable(storage, MODELS, entry)).toBe(true);
    expect(hub.requests).toEqual([...REPO.files.keys()].map((f) => `/test-org/minilm-copy/resolve/${'a'.repeat(40)}/${f}`));
  });

  it('fetches nothing again once every file is kept', async () => {
    await run();
    hub.requests.length = 0;
    expect(await run()).toEqual({ fetched: 0, kept: REPO.files.size, bytes: entry.bytes });
    expect(hub.requests).toEqual([]);
  });

  it('a file the hub does not have (404) fails the download, names the file, and is not kept', async () => {
    const last = [...REPO.files.keys()].at(-1)!;
    hub.fault(last, 'missing');
    const e = await failure(run());
    expect(e.code).toBe('MODEL_DOWNLOAD_FAILED');
    expect(e.message).toContain(last);
    expect(e.message).toContain('404');
    expect(kept()).not.toContain(urlOf(last));
    expect(kept()).toHaveLength(REPO.files.size - 1); // the files before it are kept for the next try
    expect(await isModelAvailable(storage, MODELS, entry)).toBe(false);
  });

  it('a truncated file fails its checksum and nothing of it is kept', async () => {
    const big = biggest();
    hub.fault(big, 'truncate');
    const e = await failure(run());
    expect(e.code).toBe('MODEL_CHECKSUM');
    expect(e.message).toContain(big);
    expect(kept()).not.toContain(urlOf(big));
  });

  it('going offline mid-file fails the download, keeps nothing of that file, and the next try resumes with it alone', async () => {
    const big = biggest();
    hub.fault(big, 'drop');
    const e = await failure(run());
    expect(e.code).toBe('MODEL_DOWNLOAD_FAILED');
    expect(kept()).not.toContain(urlOf(big));
    hub.fault(big, undefined);
    hub.requests.length = 0;
    const again = await run();
    // the files after the dropped one were never reached: fetched now, with it
    expect(hub.requests.some((p) => p.endsWith(`/${big}`))).toBe(true);
    expect(again.fetched + again.kept).toBe(REPO.files.size);
    expect(again.kept).toBe([...REPO.files.keys()].indexOf(big));
    expect(await isModelAvailable(storage, MODELS, entry)).toBe(true);
  });

  it('cancel stops the download at once (ABORTED) and keeps nothing of the file being fetched', async () => {
    const big = biggest();
    hub.pace(16 * 1024);
    const ac = new AbortController();
    const e = await failure(run({ signal: ac.signal, onProgress: (p) => p.file === big && p.loaded > 0 && ac.abort() }));
    expect(e.code).toBe('ABORTED');
    expect(kept()).not.toContain(urlOf(big));
  });

  it('the hub unreachable (nothing listening) is a download failure, not a crash', async () => {
    const dead = await startHubServer([]);
    const base = dead.base;
    await dead.close();
    const e = await failure(downloadModel(entry, { hubBase: base, modelsBase: MODELS, storage }));
    expect(e.code).toBe('MODEL_DOWNLOAD_FAILED');
    expect(kept()).toEqual([]);
  });

  it('refuses a model whose checksums are not pinned, without asking the hub anything', async () => {
    const unpinned: EncoderEntry = { ...entry, files: entry.files!.map((f, i) => (i === 0 ? { ...f, sha256: null } : f)) };
    const e = await failure(downloadModel(unpinned, { hubBase: hub.base, modelsBase: MODELS, storage }));
    expect(e.code).toBe('MODEL_DOWNLOAD_FAILED');
    expect(hub.requests).toEqual([]);
  });
});

describe('transformersCache (the embed worker reads kept files through it)', () => {
  it('answers the local path Transformers.js asks for, and never a hub URL', async () => {
    await run();
    const tc = transformersCache(storage, ORIGIN);
    const [first, bytes] = [...REPO.files][0];
    const hit = await tc.match(`/models/hub/test-org_minilm-copy/${first}`);
    expect(new Uint8Array(await hit!.arrayBuffer()).byteLength).toBe(bytes.byteLength);
    expect(await tc.match(hubFileUrl('https://huggingface.co', entry, first))).toBeUndefined();
    expect(await tc.match('/models/all-MiniLM-L6-v2-int8/config.json')).toBeUndefined(); // bundled: from the origin
  });
});
