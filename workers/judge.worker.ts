// The judge's worker (issue 8, "careful ranking"): a second, stronger sentence encoder (MPNet,
// src/embed/encoders.ts MPNET_JUDGE) whose cosine re-scores the refined answer's top 30
// (src/core/pipeline/judge.ts). Its own worker, so its ~0.5 s per text never queues behind (or
// ahead of) the encoder's captures and queries; started by the services only after the app is
// warm (src/services/judge.ts), never in the boot's path. The same loading as the encoder
// (workers/embed-transformers.ts: files from the app's own origin, WebGPU when a real adapter
// warms up, else WASM; mean pooling, unit vectors), but no fallback: when its files are absent or
// fail to load, the app runs without careful ranking and says so. Vectors leave by transfer.
import * as Comlink from 'comlink';
import { AppError, toEnvelope } from '../src/core/errors';
import { MPNET_JUDGE } from '../src/embed/encoders';
import type { Embedder, EmbedderInfo, EmbedLoadProgress } from '../src/embed/types';
import type { EmbedInitOptions } from '../src/protocol/embed';

type ProgressFn = (p: EmbedLoadProgress) => void;

/** The judge worker's options: the encoder's (folders, threads, backend, graph optimisation); `encoder` / `fallbackEncoder` are ignored. */
export type JudgeInitOptions = Omit<EmbedInitOptions, 'encoder' | 'fallbackEncoder' | 'entry'>;

/** The judge's files, kept by this worker (a new model build gets a new name: its size is in it). */
export const JUDGE_CACHE = `mnemograph-judge-${MPNET_JUDGE.id}-${MPNET_JUDGE.bytes}`;

/** Cache first; else the network, and a good answer kept (a failure to keep, e.g. storage full, is only logged). */
function keptFetch(cacheName: string): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const cache = typeof caches === 'undefined' ? null : await caches.open(cacheName).catch(() => null);
    const hit = await cache?.match(url).catch(() => undefined);
    if (hit) return hit;
    const res = await fetch(input, init);
    if (res.ok && cache) void cache.put(url, res.clone()).catch((e: unknown) => console.warn('judge worker: could not keep', url, e));
    return res;
  }) as typeof fetch;
}

let judge: Embedder | undefined;
let loading: Promise<EmbedderInfo> | undefined;
const inflight = new Map<number, AbortController>();

async function load(opts: JudgeInitOptions, report: ProgressFn): Promise<EmbedderInfo> {
  const base = import.meta.env.BASE_URL ?? '/';
  const { loadTransformersEncoder } = await import('./embed-transformers');
  // one WASM thread unless told: it works in the background beside the encoder on a shared CPU
  judge = await loadTransformersEncoder(MPNET_JUDGE, { wasmThreads: 1, ...opts }, base, report, keptFetch(JUDGE_CACHE));
  return judge.info();
}

const api = {
  /** Loads the judge once; later calls return the same result. Rejects with an ErrorEnvelope (MODEL_LOAD_FAILED). */
  async init(opts: JudgeInitOptions = {}, onProgress?: ProgressFn): Promise<EmbedderInfo> {
    const report: ProgressFn = (p) => {
      try {
        void Promise.resolve(onProgress?.(p)).catch(() => undefined);
      } catch {
        /* the page went away: nothing to tell */
      }
    };
    loading ??= load(opts, report).then(
      (info) => {
        report({ phase: 'ready', backend: info.backend, encoder: info.id });
        return info;
      },
      (e: unknown) => {
        loading = undefined;
        throw toEnvelope(e, 'MODEL_LOAD_FAILED');
      },
    );
    return loading;
  },

  /** One unit vector per text (documents and queries alike: MPNet has no prefixes), transferred. */
  async embed(texts: string[], requestId: number): Promise<Float32Array[]> {
    if (!judge) throw new AppError('MODEL_LOAD_FAILED', undefined, 'called before init()').toEnvelope();
    const ac = new AbortController();
    inflight.set(requestId, ac);
    try {
      const vectors = await judge.embed(texts, ac.signal);
      return Comlink.transfer(vectors, vectors.map((v) => v.buffer as ArrayBuffer));
    } catch (e) {
      if (ac.signal.aborted) throw new AppError('ABORTED').toEnvelope();
      throw toEnvelope(e, 'MODEL_LOAD_FAILED');
    } finally {
      inflight.delete(requestId);
    }
  },

  cancel(requestId: number): void {
    inflight.get(requestId)?.abort();
  },
};

export type JudgeWorkerApi = typeof api;

Comlink.expose(api);
