// Owns the engine worker's life: lazy start (filled from the database), per-call timeout,
// AbortSignal, crash -> every pending call rejects WORKER_CRASHED -> the next call starts a
// fresh worker and reloads it from the database.

import * as Comlink from 'comlink';
import { AppError, type ErrorEnvelope } from '../core/errors';
import type { HybridConfig, HybridQuery, HybridSearchOptions, IndexDoc } from '../core/hybrid';
import type { MemoryId, ScoredHit } from '../core/types';
import type { EngineApi } from '../../workers/engine.worker';
import type { EngineStats } from '../../workers/engine-core';

export type { EngineStats };

/** What the services need from the engine; the worker bridge and an in-process engine both provide it. */
export interface EngineClient {
  /** Starts (and loads) the engine now rather than on first use. */
  start(): Promise<void>;
  upsert(doc: IndexDoc): Promise<void>;
  remove(id: MemoryId): Promise<void>;
  search(q: HybridQuery, opts: HybridSearchOptions, signal?: AbortSignal): Promise<ScoredHit[]>;
  stats(): Promise<EngineStats>;
  dispose(): void;
}

/** Everything needed to fill a fresh engine: read from the database on every (re)start. */
export interface EngineSnapshot {
  docs: IndexDoc[];
  dim: number;
  config?: Partial<HybridConfig>;
}

/** A started worker, abstracted so tests can drive a MessageChannel and simulate crashes. */
export interface WorkerHandle {
  port: Comlink.Endpoint;
  terminate(): void;
  onCrash(cb: (detail: string) => void): void;
}

export interface EngineBridgeOptions {
  source: () => Promise<EngineSnapshot>;
  spawn?: () => WorkerHandle;
  /** Per call (default 15 s); loading gets loadTimeoutMs (default 120 s). */
  timeoutMs?: number;
  loadTimeoutMs?: number;
  /** Told when the worker died or hung and will be restarted on next use. */
  onCrash?: (error: AppError) => void;
}

export function spawnEngineWorker(): WorkerHandle {
  const worker = new Worker(new URL('../../workers/engine.worker.ts', import.meta.url), { type: 'module', name: 'engine' });
  return {
    port: worker,
    terminate: () => worker.terminate(),
    onCrash(cb) {
      worker.addEventListener('error', (e) => {
        e.preventDefault();
        cb(e.message || 'worker error');
      });
      worker.addEventListener('messageerror', () => cb('a message could not be deserialised'));
    },
  };
}

export function isErrorEnvelope(e: unknown): e is ErrorEnvelope {
  return !!e && typeof e === 'object' && !(e instanceof Error) && typeof (e as ErrorEnvelope).code === 'string' && typeof (e as ErrorEnvelope).message === 'string';
}

function fromRemote(e: unknown): AppError {
  if (e instanceof AppError) return e;
  if (isErrorEnvelope(e)) return AppError.fromEnvelope(e);
  return new AppError('WORKER_CRASHED', undefined, e instanceof Error ? e.message : String(e));
}

/** Transfers each vector's buffer when the vector owns all of it; copies otherwise (a view must not detach its parent). */
function transferable(docs: IndexDoc[]): { docs: IndexDoc[]; buffers: ArrayBuffer[] } {
  const seen = new Set<ArrayBufferLike>();
  const buffers: ArrayBuffer[] = [];
  const out = docs.map((d) => {
    const v = d.vector;
    if (!v) return d;
    const owns = v.byteOffset === 0 && v.byteLength === v.buffer.byteLength && v.buffer instanceof ArrayBuffer;
    if (owns && !seen.has(v.buffer)) {
      seen.add(v.buffer);
      buffers.push(v.buffer as ArrayBuffer);
      return d;
    }
    return { ...d, vector: v.slice() };
  });
  return { docs: out, buffers };
}

interface Running {
  handle: WorkerHandle;
  remote: Comlink.Remote<EngineApi>;
  ready: Promise<void>;
  loaded: boolean;
  dead: boolean;
}

export function createEngineBridge(opts: EngineBridgeOptions): EngineClient {
  const spawn = opts.spawn ?? spawnEngineWorker;
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const loadTimeoutMs = opts.loadTimeoutMs ?? 120_000;
  let running: Running | null = null;
  let disposed = false;
  let nextRequestId = 1;
  const pending = new Set<(e: AppError) => void>();

  function kill(r: Running, error: AppError, notify = true) {
    if (r.dead) return;
    r.dead = true;
    if (running === r) running = null;
    try {
      r.remote[Comlink.releaseProxy]();
    } catch {
      /* the port may already be gone */
    }
    r.handle.terminate();
    for (const reject of [...pending]) reject(error);
    pending.clear();
    if (notify) opts.onCrash?.(error);
  }

  /** Runs fn against the remote with a timeout and an optional signal; a timeout restarts the worker. */
  function call<T>(r: Running, fn: (remote: Comlink.Remote<EngineApi>) => Promise<T>, ms: number, signal?: AbortSignal, onAbort?: () => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) return reject(new AppError('ABORTED'));
      let settled = false;
      const finish = (f: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        pending.delete(rejectPending);
        signal?.removeEventListener('abort', abort);
        f();
      };
      const rejectPending = (e: AppError) => finish(() => reject(e));
      const abort = () => {
        onAbort?.();
        finish(() => reject(new AppError('ABORTED')));
      };
      // A worker stuck in a loop answers nothing more: restart it rather than queue behind it.
      const timer = setTimeout(() => {
        finish(() => reject(new AppError('TIMEOUT')));
        kill(r, new AppError('WORKER_CRASHED', undefined, 'the engine stopped answering (timeout)'));
      }, ms);
      pending.add(rejectPending);
      signal?.addEventListener('abort', abort, { once: true });
      fn(r.remote).then(
        (v) => finish(() => resolve(v)),
        (e) => finish(() => reject(fromRemote(e))),
      );
    });
  }

  function ensure(): Promise<Running> {
    if (disposed) return Promise.reject(new AppError('WORKER_CRASHED', undefined, 'the engine was shut down'));
    if (running) return running.ready.then(() => running ?? ensure());
    const handle = spawn();
    const remote = Comlink.wrap<EngineApi>(handle.port);
    const r: Running = { handle, remote, ready: Promise.resolve(), loaded: false, dead: false };
    running = r;
    handle.onCrash((detail) => kill(r, new AppError('WORKER_CRASHED', undefined, detail)));
    r.ready = (async () => {
      const snap = await opts.source();
      const { docs, buffers } = transferable(snap.docs);
      await call(r, (rem) => rem.load(Comlink.transfer(docs, buffers), { dim: snap.dim, config: snap.config }), loadTimeoutMs);
      r.loaded = true;
    })();
    // A failed start must not poison later calls: drop this worker so the next call retries.
    r.ready.catch((e) => {
      if (!r.dead) kill(r, fromRemote(e));
    });
    return r.ready.then(() => r);
  }

  /**
   * The running, loaded worker, or null. Calls made while it is ready post their message
   * synchronously, so they reach the worker in the order they were made (an upsert before a
   * search, a cancel right after its search).
   */
  const ready = (): Running | null => (running && running.loaded && !running.dead ? running : null);

  return {
    async start() {
      await ensure();
    },
    async upsert(doc) {
      const r = ready() ?? (await ensure());
      const { docs, buffers } = transferable([doc]);
      await call(r, (rem) => rem.upsert(Comlink.transfer(docs[0], buffers)), timeoutMs);
    },
    async remove(id) {
      const r = ready() ?? (await ensure());
      await call(r, (rem) => rem.remove(id), timeoutMs);
    },
    async search(q, o, signal) {
      if (signal?.aborted) throw new AppError('ABORTED');
      const r = ready() ?? (await ensure());
      const requestId = nextRequestId++;
      // the query vector is small and the caller may reuse it: copy, do not transfer
      return call(r, (rem) => rem.search(q, o, requestId), timeoutMs, signal, () => {
        if (!r.dead) void r.remote.cancel(requestId).catch(() => undefined);
      });
    },
    async stats() {
      const r = ready() ?? (await ensure());
      return call(r, (rem) => rem.stats(), timeoutMs);
    },
    dispose() {
      disposed = true;
      if (running) kill(running, new AppError('ABORTED', 'The engine was shut down.'), false);
    },
  };
}
