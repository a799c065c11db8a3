// The search engine as the services see it: an EngineClient backed by the engine worker.
// Built on WorkerLifecycle (lazy start, calls in order, timeout, AbortSignal, crash ->
// WORKER_CRASHED -> fresh worker on next use). Every (re)start fills the new worker from the
// database through `source`, so a crash loses nothing that was committed.

import * as Comlink from 'comlink';
import type { AppError } from '../core/errors';
import type { HybridConfig, HybridQuery, HybridSearchOptions, IndexDoc } from '../core/hybrid';
import type { MemoryId, ScoredHit } from '../core/types';
import type { EngineApi } from '../../workers/engine.worker';
import type { EngineStats } from '../../workers/engine-core';
import { handleFromWorker, WorkerLifecycle, type WorkerHandle } from './worker-lifecycle';

export type { EngineStats, WorkerHandle };

/** What the services need from the engine. */
export interface EngineClient {
  /** Starts (and loads) the engine now rather than on first use. */
  start(): Promise<void>;
  upsert(doc: IndexDoc): Promise<void>;
  /** Many docs in one message (imports); all or nothing. */
  upsertMany(docs: IndexDoc[]): Promise<void>;
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

export interface EngineBridgeOptions {
  source: () => Promise<EngineSnapshot>;
  spawn?: () => WorkerHandle;
  /** Per call (default 15 s); loading gets loadTimeoutMs (default 120 s). */
  timeoutMs?: number;
  loadTimeoutMs?: number;
  /** Told when the worker died or hung; it restarts (and reloads) on next use. */
  onCrash?: (error: AppError) => void;
}

export function spawnEngineWorker(): WorkerHandle {
  return handleFromWorker(
    new Worker(new URL('../../workers/engine.worker.ts', import.meta.url), { type: 'module', name: 'engine' }),
  );
}

/** Transfers each vector's buffer when the vector owns all of it; copies otherwise (a view must not detach its parent). */
export function transferable(docs: IndexDoc[]): { docs: IndexDoc[]; buffers: ArrayBuffer[] } {
  const seen = new Set<ArrayBufferLike>();
  const buffers: ArrayBuffer[] = [];
  const out = docs.map((d) => {
    const v = d.vector;
    if (!v) return d;
    const owns = v.buffer instanceof ArrayBuffer && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength;
    if (owns && !seen.has(v.buffer)) {
      seen.add(v.buffer);
      buffers.push(v.buffer as ArrayBuffer);
      return d;
    }
    return { ...d, vector: v.slice() };
  });
  return { docs: out, buffers };
}

export function createEngineBridge(opts: EngineBridgeOptions): EngineClient {
  let nextRequestId = 1;
  const baseTimeout = opts.timeoutMs ?? 15_000;
  const life = new WorkerLifecycle<EngineApi>({
    name: 'the search engine',
    spawn: opts.spawn ?? spawnEngineWorker,
    timeoutMs: baseTimeout,
    setupTimeoutMs: opts.loadTimeoutMs ?? 120_000,
    // serial: an upsert reaches the worker before a later search, in call order
    serial: true,
    onCrash: opts.onCrash,
    setup: async (remote) => {
      const snap = await opts.source();
      const { docs, buffers } = transferable(snap.docs);
      await remote.load(Comlink.transfer(docs, buffers), { dim: snap.dim, config: snap.config });
    },
  });

  return {
    start: () => life.start(),
    async upsert(doc) {
      const { docs, buffers } = transferable([doc]);
      // Tokenising is linear in the text: a multi-MB paste takes seconds (about 1.6 s per MB
      // measured on the dev box), which must not look like a hung worker.
      const ms = baseTimeout + Math.ceil(doc.text.length / 100);
      await life.call((r) => r.upsert(Comlink.transfer(docs[0], buffers)), { timeoutMs: ms });
    },
    async upsertMany(list) {
      const { docs, buffers } = transferable(list);
      const chars = list.reduce((n, d) => n + d.text.length, 0);
      await life.call((r) => r.upsertMany(Comlink.transfer(docs, buffers)), { timeoutMs: baseTimeout + Math.ceil(chars / 100) });
    },
    async remove(id) {
      await life.call((r) => r.remove(id));
    },
    search(q, o, signal) {
      const requestId = nextRequestId++;
      // The query vector is small and the caller may keep it: copied, not transferred.
      return life.call((r) => r.search(q, o, requestId), {
        signal,
        // the worker yields before searching, so a cancel sent now skips the work
        onAbort: (r) => void r.cancel(requestId).catch(() => undefined),
      });
    },
    stats: () => life.call((r) => r.stats()),
    dispose: () => life.dispose(),
  };
}
