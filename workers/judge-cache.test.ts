// The judge's Cache Storage copy is named by the build's file sums: a rebuilt model of the same
// size is fetched again (the old name, id + catalogue size, kept serving the old file).
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { JUDGE_CACHE_PREFIX, judgeCacheName, keptJudge, parseSums, pathInFolder, type CacheStore, type JudgeFileSums } from './judge-cache';

const ID = 'all-mpnet-base-v2-int8';
const FOLDER = ID;
const BASE = `http://app.test/models/${FOLDER}/`;
const MODEL = `${BASE}onnx/model_quantized.onnx`;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** Cache Storage in memory: name -> url -> body text. */
function fakeCaches() {
  const stores = new Map<string, Map<string, string>>();
  const api: CacheStore = {
    async open(name: string) {
      const m = stores.get(name) ?? new Map<string, string>();
      stores.set(name, m);
      return {
        async match(url: RequestInfo | URL) {
          const body = m.get(String(url));
          return body === undefined ? undefined : new Response(body);
        },
        async put(url: RequestInfo | URL, res: Response) {
          m.set(String(url), await res.text());
        },
      } as unknown as Cache;
    },
    async keys() {
      return [...stores.keys()];
    },
    async delete(name: string) {
      return stores.delete(name);
    },
  };
  return { api, stores };
}

/** A server holding the model's bytes (same length in both builds) and its files.json. */
function server(model: string, opts: { sums?: boolean; offline?: boolean } = {}) {
  const sums: JudgeFileSums = { id: ID, files: { 'onnx/model_quantized.onnx': { sha256: sha(model), bytes: model.length } } };
  const calls: string[] = [];
  const net = vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    calls.push(url.slice(url.lastIndexOf('/') + 1));
    if (opts.offline) throw new TypeError('Failed to fetch');
    if (url.endsWith('files.json')) return opts.sums === false ? new Response('not found', { status: 404 }) : Response.json(sums);
    if (url === MODEL) return new Response(model);
    return new Response('?', { status: 404 });
  }) as unknown as typeof fetch;
  return { net, calls, sums };
}

/** Waits until the background keep has written (it is not awaited by the fetch). */
async function settled(stores: Map<string, Map<string, string>>, name: string | null) {
  await vi.waitFor(() => expect(name && stores.get(name)?.has(MODEL)).toBe(true));
}

describe('the judge cache, named by content', () => {
  it('a rebuilt model of exactly the same size is fetched again and the old copy dropped', async () => {
    const { api, stores } = fakeCaches();
    const v1 = server('weights-version-1');
    const first = await keptJudge({ id: ID, folder: FOLDER, folderUrl: BASE, caches: api, fetchImpl: v1.net });
    expect(await (await first.fetch(MODEL)).text()).toBe('weights-version-1');
    await settled(stores, first.cacheName);
    // a second start of the same build: served from the cache, no download
    const again = await keptJudge({ id: ID, folder: FOLDER, folderUrl: BASE, caches: api, fetchImpl: v1.net });
    expect(again.cacheName).toBe(first.cacheName);
    v1.calls.length = 0;
    expect(await (await again.fetch(MODEL)).text()).toBe('weights-version-1');
    expect(v1.calls).toEqual([]);

    // the rebuilt model: same length, other bytes
    const v2 = server('weights-version-2');
    expect('weights-version-2'.length).toBe('weights-version-1'.length);
    const rebuilt = await keptJudge({ id: ID, folder: FOLDER, folderUrl: BASE, caches: api, fetchImpl: v2.net });
    expect(rebuilt.cacheName).not.toBe(first.cacheName);
    expect(await (await rebuilt.fetch(MODEL)).text()).toBe('weights-version-2');
    expect(v2.calls).toEqual(['files.json', 'model_quantized.onnx']);
    expect([...stores.keys()]).toEqual([rebuilt.cacheName]); // the old copy is gone
  });

  it('a file that does not match its sum is used once but never kept', async () => {
    const { api, stores } = fakeCaches();
    const s = server('weights-version-1');
    const sums: JudgeFileSums = { ...s.sums, files: { 'onnx/model_quantized.onnx': { sha256: sha('something else'), bytes: 17 } } };
    const net = vi.fn(async (input: RequestInfo | URL) => (String(input).endsWith('files.json') ? Response.json(sums) : s.net(input))) as unknown as typeof fetch;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const kept = await keptJudge({ id: ID, folder: FOLDER, folderUrl: BASE, caches: api, fetchImpl: net });
    expect(await (await kept.fetch(MODEL)).text()).toBe('weights-version-1');
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining('not kept')));
    expect(stores.get(kept.cacheName!)?.has(MODEL)).toBe(false);
    warn.mockRestore();
  });

  it('offline, the copy kept earlier serves the judge; a build without sums keeps nothing', async () => {
    const { api, stores } = fakeCaches();
    const online = server('weights-version-1');
    const first = await keptJudge({ id: ID, folder: FOLDER, folderUrl: BASE, caches: api, fetchImpl: online.net });
    await first.fetch(MODEL);
    await settled(stores, first.cacheName);
    const off = server('weights-version-1', { offline: true });
    const offline = await keptJudge({ id: ID, folder: FOLDER, folderUrl: BASE, caches: api, fetchImpl: off.net });
    expect(offline.cacheName).toBe(first.cacheName);
    expect(await (await offline.fetch(MODEL)).text()).toBe('weights-version-1');

    const bare = fakeCaches();
    const noSums = server('weights-version-1', { sums: false });
    const plain = await keptJudge({ id: ID, folder: FOLDER, folderUrl: BASE, caches: bare.api, fetchImpl: noSums.net });
    expect(plain.cacheName).toBeNull();
    expect(await (await plain.fetch(MODEL)).text()).toBe('weights-version-1');
    expect([...bare.stores.keys()]).toEqual([]);
  });

  it('names: the prefix, the id and 16 hex of the sums; the order of the files does not matter', async () => {
    const a: JudgeFileSums = { id: ID, files: { 'a.json': { sha256: sha('a'), bytes: 1 }, 'b.json': { sha256: sha('b'), bytes: 1 } } };
    const b: JudgeFileSums = { id: ID, files: { 'b.json': { sha256: sha('b'), bytes: 1 }, 'a.json': { sha256: sha('a'), bytes: 1 } } };
    const name = await judgeCacheName(a);
    expect(name).toMatch(new RegExp(`^${JUDGE_CACHE_PREFIX}${ID}-[0-9a-f]{16}$`));
    expect(await judgeCacheName(b)).toBe(name);
    expect(parseSums({ id: 'other', files: {} }, ID)).toBeNull();
    expect(parseSums({ id: ID, files: { x: { sha256: 'short', bytes: 1 } } }, ID)).toBeNull();
    expect(pathInFolder(MODEL, FOLDER)).toBe('onnx/model_quantized.onnx');
    expect(pathInFolder('/models/other/config.json', FOLDER)).toBeNull();
  });

  it("the build's files.json (scripts/fetch-judge.mjs) is what the worker reads, and a same-size rebuild renames the cache", async () => {
    // @ts-expect-error plain .mjs build script, no types
    const { writeFileSums } = (await import('../scripts/fetch-judge.mjs')) as { writeFileSums: (dir: string, id?: string) => unknown };
    const dir = mkdtempSync(join(tmpdir(), 'judge-sums-'));
    try {
      mkdirSync(join(dir, 'onnx'));
      writeFileSync(join(dir, 'config.json'), '{}');
      writeFileSync(join(dir, '.source.json'), 'the build stamp: not a model file');
      writeFileSync(join(dir, 'onnx/model_quantized.onnx'), 'weights-version-1');
      const one = parseSums(writeFileSums(dir, ID), ID)!;
      expect(one.files).toEqual({
        'config.json': { sha256: sha('{}'), bytes: 2 },
        'onnx/model_quantized.onnx': { sha256: sha('weights-version-1'), bytes: 17 },
      });
      writeFileSync(join(dir, 'onnx/model_quantized.onnx'), 'weights-version-2');
      const two = parseSums(writeFileSums(dir, ID), ID)!;
      expect(two.files['onnx/model_quantized.onnx']!.bytes).toBe(17);
      expect(await judgeCacheName(two)).not.toBe(await judgeCacheName(one));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
