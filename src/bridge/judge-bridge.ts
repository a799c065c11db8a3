// The judge (careful ranking's second encoder) as the services see it: a typed client of
// workers/judge.worker.ts. Lazy start (nothing happens until `ready()` or the first `embed`), one
// call at a time, AbortSignal (forwarded to the worker as cancel), timeouts, crash -> the pending
// calls reject and a fresh worker starts on the next call; its state in words for Settings.
import * as Comlink from 'comlink';
import { AppError, toAppError } from '../core/errors';
import type { EmbedderInfo, EmbedLoadProgress } from '../embed/types';
import type { JudgeInitOptions, JudgeWorkerApi } from '../../workers/judge.worker';
import { handleFromWorker, WorkerLifecycle, type WorkerHandle } from './worker-lifecycle';

export type { JudgeInitOptions };

/** Where the judge is: not asked yet, loading its files, ready, or unavailable (absent or failing: `message` says why). */
export type JudgeLoadState =
  | { state: 'idle' }
  | { state: 'loading'; loaded?: number; total?: number }
  | { state: 'ready'; info: EmbedderInfo; loadMs: number }
  | { state: 'unavailable'; message: string; detail?: string };

export interface JudgeClient {
  /** Starts the worker and loads the model (once); rejects MODEL_LOAD_FAILED when it cannot. */
  ready(): Promise<EmbedderInfo>;
  /** One unit vector per text. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  state(): JudgeLoadState;
  /** `listener` is called at once, then on every change; returns unsubscribe. */
  onState(listener: (s: JudgeLoadState) => void): () => void;
  dispose(): void;
}

export interface JudgeBridgeOptions {
  spawn?: () => WorkerHandle;
  init?: JudgeInitOptions;
  /** Per call (default 60 s); loading (default 180 s: ~111 MB of weights). */
  timeoutMs?: number;
  loadTimeoutMs?: number;
}

export function spawnJudgeWorker(): WorkerHandle {
  return handleFromWorker(new Worker(new URL('../../workers/judge.worker.ts', import.meta.url), { type: 'module', name: 'judge' }));
}

export function createJudgeBridge(opts: JudgeBridgeOptions = {}): JudgeClient {
  const listeners = new Set<(s: JudgeLoadState) => void>();
  let current: JudgeLoadState = { state: 'idle' };
  const set = (s: JudgeLoadState) => {
    current = s;
    for (const l of listeners) l(s);
  };
  let nextRequestId = 1;
  let loaded: Promise<EmbedderInfo> | undefined;
  const onProgress = (p: EmbedLoadProgress) => {
    if (current.state === 'loading' && p.phase === 'fetching-model') set({ state: 'loading', loaded: p.loaded, total: p.total });
  };
  const life = new WorkerLifecycle<JudgeWorkerApi>({
    name: 'careful ranking',
    spawn: opts.spawn ?? spawnJudgeWorker,
    timeoutMs: opts.timeoutMs ?? 60_000,
    setupTimeoutMs: opts.loadTimeoutMs ?? 180_000,
    fallbackErrorCode: 'MODEL_LOAD_FAILED',
    setup: async (remote) => {
      const t0 = performance.now();
      const info = await remote.init(opts.init ?? {}, Comlink.proxy(onProgress));
      set({ state: 'ready', info, loadMs: Math.round(performance.now() - t0) });
    },
  });

  function ready(): Promise<EmbedderInfo> {
    loaded ??= (async () => {
      set({ state: 'loading' });
      try {
        await life.start();
        if (current.state !== 'ready') throw new AppError('MODEL_LOAD_FAILED', undefined, 'careful ranking did not report ready');
        return current.info;
      } catch (e) {
        const err = toAppError(e, 'MODEL_LOAD_FAILED');
        set({ state: 'unavailable', message: err.message, ...(err.detail ? { detail: err.detail } : {}) });
        life.dispose(); // its memory back; the app runs without it until a reload
        throw err;
      }
    })();
    return loaded;
  }

  return {
    ready,
    async embed(texts, signal) {
      await ready();
      const requestId = nextRequestId++;
      return life.call((r) => r.embed(texts, requestId), { signal, onAbort: (r) => void r.cancel(requestId).catch(() => undefined) });
    },
    state: () => current,
    onState(listener) {
      listeners.add(listener);
      listener(current);
      return () => listeners.delete(listener);
    },
    dispose() {
      listeners.clear();
      life.dispose();
    },
  };
}
