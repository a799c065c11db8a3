// A Transformers.js encoder (MiniLM by default) in the embed worker. Model files and the
// onnxruntime-web runtime come from the app's own origin (models/<folder>/, ort/), never a hub or
// a CDN. WebGPU when a hardware adapter exists and a warm-up run succeeds, else WASM (threads when
// the page is cross-origin isolated); a WebGPU failure mid-run moves it to WASM for good (the
// failed batch is re-run there). The same rules as USE-lite's (src/embed/webgpu-choice.ts).
import { AppError } from '../src/core/errors';
import type { EncoderMeta } from '../src/embed/encoders';
import { createTransformersEncoder, loadExtractor, type TransformersEncoder, type TransformersModule } from '../src/embed/transformers';
import type { EmbedLoadProgress } from '../src/embed/types';
import { failureText, fallbackMessage } from '../src/embed/webgpu-choice';
import type { EmbedInitOptions } from '../src/protocol/embed';
import { WARM_UP } from './warm-up';
import { browserCacheStorage, keptFirstFetch } from '../src/embed/model-store';
import { probeWebGpu, withinBudget } from './embed-webgpu';
import { mark } from './startup-marks';

type ProgressFn = (p: EmbedLoadProgress) => void;

interface TjsEnv {
  allowRemoteModels: boolean;
  allowLocalModels: boolean;
  localModelPath: string;
  useBrowserCache: boolean;
  useWasmCache: boolean;
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  backends: { onnx: { wasm?: { wasmPaths?: unknown; numThreads?: number; proxy?: boolean } } };
}

/** A model file download that brings no byte for this long has stalled (see createOnceFetch). */
export const STALL_MS = 60_000;

/** The onnxruntime-web files Transformers.js 4.x loads (WASM and WebGPU alike: the build WebGPU needs); copied by scripts/fetch-models.mjs. */
export const ORT_FILES = { mjs: 'ort-wasm-simd-threaded.asyncify.mjs', wasm: 'ort-wasm-simd-threaded.asyncify.wasm' };

/** onnxruntime-web's WASM-only build (no asyncify: 14 MB against 27 MB), run where WebGPU will not be tried. */
export const ORT_PLAIN_FILES = { mjs: 'ort-wasm-simd-threaded.mjs', wasm: 'ort-wasm-simd-threaded.wasm' };

let module: Promise<TransformersModule> | undefined;

/** Threads for the WASM runtime: several only under cross-origin isolation (SharedArrayBuffer). */
export function wasmThreads(isolated: boolean, cores: number | undefined): number {
  return isolated ? Math.max(1, Math.min(4, cores ?? 1)) : 1;
}

/** onnxruntime session config entries asked for in the init options (comparisons), if any. */
function sessionConfigOf(opts: EmbedInitOptions): Record<string, string> | undefined {
  return opts.spinning === undefined ? undefined : { 'intra_op.allow_spinning': opts.spinning ? '1' : '0' };
}

/** Imports Transformers.js once (its own chunk: pages running USE-lite never load it) and points it at our origin. */
function transformers(opts: EmbedInitOptions, base: string, build: 'asyncify' | 'plain'): Promise<TransformersModule> {
  module ??= import('@huggingface/transformers').then((m) => {
    const env = m.env as unknown as TjsEnv;
    const here = self.location.href;
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    // a path, not a URL: Transformers.js treats an http(s) URL here as remote and never asks for it
    env.localModelPath = opts.modelsUrl ?? `${base}models/`;
    // the service worker's precache keeps the files offline; a second copy in Cache Storage would double the space
    env.useBrowserCache = false;
    env.useWasmCache = false;
    const ort = new URL(opts.ortPath ?? `${base}ort/`, here).href;
    const wasm = env.backends.onnx.wasm;
    if (!wasm) throw new AppError('MODEL_LOAD_FAILED', undefined, 'onnxruntime-web has no WASM backend here');
    const files = build === 'plain' ? ORT_PLAIN_FILES : ORT_FILES;
    wasm.wasmPaths = { mjs: ort + files.mjs, wasm: ort + files.wasm };
    wasm.numThreads = opts.wasmThreads ?? wasmThreads(self.crossOriginIsolated === true, navigator.hardwareConcurrency);
    return m as unknown as TransformersModule;
  });
  return module;
}

/** `fetchFiles`: how the model's files are fetched (default: the origin's for a bundled model, else kept files first); the judge's worker keeps its own. */
export async function loadTransformersEncoder(meta: EncoderMeta, opts: EmbedInitOptions, base: string, report: ProgressFn, fetchFiles?: typeof fetch): Promise<TransformersEncoder> {
  report({ phase: 'fetching-model', loaded: 0, encoder: meta.id });
  // WebGPU is probed first: where it will not be tried, onnxruntime's WASM-only build runs (14 MB
  // against 27 MB, and its session is created in about half the time: the asyncify build that
  // WebGPU needs slows every function); the asyncify build only where WebGPU may run
  const want = opts.backend ?? 'auto';
  let notWebGpu: string | undefined;
  if (want !== 'wasm') {
    const declined = await probeWebGpu(want === 'webgpu' || opts.allowSoftwareWebGpu === true);
    if (declined && want === 'webgpu') throw new AppError('MODEL_LOAD_FAILED', undefined, declined);
    notWebGpu = declined ?? undefined;
  }
  const tryWebGpu = want !== 'wasm' && !notWebGpu;
  const tjs = await transformers(opts, base, opts.ortBuild ?? (tryWebGpu ? 'asyncify' : 'plain'));
  mark('runtime-imported');
  // Every model file is fetched once, by us: with byte progress, and shared by Transformers.js's
  // repeated requests for it (it asks for some files twice, and two concurrent downloads of the
  // 23 MB weights failed with "network error" in about a third of loads in Chromium).
  // a downloaded or picked model's files are kept in Cache Storage (src/embed/model-store.ts)
  const files = createOnceFetch(
    (loaded, total) => report({ phase: 'fetching-model', loaded, total, encoder: meta.id }),
    fetchFiles ?? (meta.source === 'bundled' ? fetch : keptFirstFetch(browserCacheStorage(), self.location.origin)),
  );
  tjsEnv(tjs).fetch = files.fetch;
  let encoder: TransformersEncoder | undefined;
  let onWebGpu = false;
  async function onBatchError(error: unknown): Promise<boolean> {
    if (!encoder || !onWebGpu) return false;
    console.warn('embed worker: WebGPU failed, switching to WASM:', error);
    encoder.replaceExtractor(await loadExtractor(tjs, meta, 'wasm', undefined, opts.graphOptimization, sessionConfigOf(opts)), 'wasm');
    onWebGpu = false;
    report({ phase: 'ready', backend: 'wasm', encoder: meta.id, message: 'WebGPU failed; switched to WASM.' });
    return true;
  }
  async function buildOn(device: 'webgpu' | 'wasm', why?: string): Promise<TransformersEncoder> {
    const extractor = await loadExtractor(tjs, meta, device, undefined, opts.graphOptimization, device === 'wasm' ? sessionConfigOf(opts) : undefined);
    mark(`session-created-${device}`);
    report({ phase: 'warming-up', backend: device, encoder: meta.id, ...(why && { message: fallbackMessage(why) }) });
    const enc = createTransformersEncoder({ extractor, meta, backend: device, batchSize: opts.batchSize, tokenBudget: opts.tokenBudget, onBatchError });
    try {
      await enc.embed(WARM_UP);
      mark(`warmed-up-${device}`);
      return enc;
    } catch (e) {
      await enc.dispose();
      throw e;
    }
  }

  try {
    return await chooseAndBuild();
  } finally {
    files.clear(); // the session holds the weights now; drop our copies
  }

  async function chooseAndBuild(): Promise<TransformersEncoder> {
    if (tryWebGpu) {
      const budgetMs = opts.webgpuWarmUpTimeoutMs ?? (want === 'webgpu' ? 120_000 : 30_000);
      try {
        encoder = await withinBudget(buildOn('webgpu'), budgetMs, (late) => void late.dispose());
        onWebGpu = true;
        return encoder;
      } catch (e) {
        if (want === 'webgpu') throw new AppError('MODEL_LOAD_FAILED', undefined, `WebGPU warm-up failed (${failureText(e)})`);
        console.warn('embed worker: WebGPU warm-up failed, using WASM:', e);
        notWebGpu = `the warm-up failed (${failureText(e)})`;
      }
    }
    encoder = await buildOn('wasm', notWebGpu);
    return encoder;
  }
}

/** The module's env (configured in `transformers`). */
function tjsEnv(tjs: TransformersModule): TjsEnv {
  return (tjs as unknown as { env: TjsEnv }).env;
}

/**
 * A fetch for Transformers.js that downloads each URL once (byte progress summed over the files,
 * at most one report per 256 KiB) and answers every request for it from that copy. A download
 * that brings no byte for `stallMs` is stopped and fails ("stalled"), so a load that hangs (a
 * loaded machine, a stuck service worker) ends with a reason instead of "Loading model" forever.
 */
export function createOnceFetch(onProgress: (loaded: number, total: number | undefined) => void, fetchImpl: typeof fetch = fetch, stallMs = STALL_MS) {
  const got = new Map<string, Promise<{ status: number; headers: Headers; body: ArrayBuffer }>>();
  const sizes = new Map<string, { loaded: number; total: number }>();
  let reported = -1;
  const tick = () => {
    let loaded = 0;
    let total = 0;
    for (const s of sizes.values()) {
      loaded += s.loaded;
      total += s.total;
    }
    const known = total >= loaded && total > 0 ? total : undefined;
    if (loaded === reported || (loaded - reported < 256 * 1024 && loaded !== known)) return;
    reported = loaded;
    onProgress(loaded, known);
  };
  async function download(url: string, init?: RequestInit) {
    const name = url.slice(url.lastIndexOf('/') + 1);
    const stop = new AbortController();
    // each wait (the answer, then every chunk) has `stallMs` to bring something
    const watched = <T>(p: Promise<T>): Promise<T> => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<never>((_, fail) => {
        timer = setTimeout(() => {
          stop.abort();
          fail(new AppError('MODEL_LOAD_FAILED', undefined, `stalled: no data for ${Math.round(stallMs / 1000)} s from ${name}`));
        }, stallMs);
      });
      return Promise.race([p, stalled]).finally(() => clearTimeout(timer));
    };
    const res = await watched(fetchImpl(url, { ...init, signal: stop.signal }));
    if (!res.ok || !res.body) return { status: res.status, headers: res.headers, body: await watched(res.arrayBuffer()) };
    const size = { loaded: 0, total: Number(res.headers.get('content-length')) || 0 };
    sizes.set(url, size);
    const reader = res.body.getReader();
    const chunks: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await watched(reader.read());
      if (done) break;
      chunks.push(value);
      size.loaded += value.byteLength;
      tick();
    }
    const body = new Uint8Array(size.loaded);
    let at = 0;
    for (const c of chunks) {
      body.set(c, at);
      at += c.byteLength;
    }
    size.total = size.loaded;
    mark(`fetched-${url.slice(url.lastIndexOf('/') + 1)}`);
    tick();
    const headers = new Headers(res.headers);
    headers.set('content-length', String(size.loaded));
    headers.delete('content-encoding');
    return { status: res.status, headers, body: body.buffer };
  }
  return {
    fetch: async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      let p = got.get(url);
      if (!p) {
        p = download(url, init);
        got.set(url, p);
        p.catch(() => got.delete(url)); // a failed download may be retried
      }
      const r = await p;
      return new Response(r.body.slice(0), { status: r.status, headers: r.headers });
    },
    clear: () => got.clear(),
  };
}
