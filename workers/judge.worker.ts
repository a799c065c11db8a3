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
import { keptJudge } from './judge-cache';

type ProgressFn = (p: EmbedLoadProgress) => void;

/** The judge worker's options: the encoder's (folders, threads, backend, graph optimisation); `encoder` / `fallbackEncoder` are ignored. */
export type JudgeInitOptions = Omit<EmbedInitOptions, 'encoder' | 'fallbackEncoder' | 'entry'>;

// The judge's files are kept by this worker in Cache Storage named by their content (the build's
// files.json; workers/judge-cache.ts): a rebuilt model is fetched again.

let judge: Embedder | undefined;
let loading: Promise<EmbedderInfo> | undefined;
const inflight = new Map<number, AbortController>();

async function load(opts: JudgeInitOptions, report: ProgressFn): Promise<EmbedderInfo> {
  const base = import.meta.env.BASE_URL ?? '/';
  const { loadTransformersEncoder } = await import('./embed-transformers');
  // one WASM thread unless told: it works in the background beside the encoder on a shared CPU
  const folder = MPNET_JUDGE.folder ?? MPNET_JUDGE.id;
  const kept = await keptJudge({ id: MPNET_JUDGE.id, folder, folderUrl: `${opts.modelsUrl ?? `${base}models/`}${folder}/`, caches: typeof caches === 'undefined' ? null : caches });
  judge = await loadTransformersEncoder(MPNET_JUDGE, { wasmThreads: 1, ...opts }, base, report, kept.fetch);
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
