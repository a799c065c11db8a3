// The graph-layout worker as the graph sees it, on the same WorkerLifecycle as the other workers
// (lazy start, timeout, crash -> restart-free fallback here). The graph must always appear: when
// the worker cannot start, dies or hangs, the same pure layout runs on the main thread from then on.
import { toAppError } from '../core/errors';
import type { LayoutApi } from '../../workers/layout.worker';
import type { LayoutRequest, LayoutResult } from '../ui/graph/layout';
import { handleFromWorker, WorkerLifecycle, type WorkerHandle } from './worker-lifecycle';

export type LayoutSource = 'worker' | 'main';

export interface LayoutRunner {
  run(req: LayoutRequest): Promise<LayoutResult & { source: LayoutSource }>;
  dispose(): void;
}

export interface LayoutRunnerOptions {
  /** The same layout on the main thread (the UI passes computeLayout from src/ui/graph/layout.ts). */
  fallback: (req: LayoutRequest) => LayoutResult;
  /** For tests and pages that must not use a worker. */
  forceMainThread?: boolean;
  timeoutMs?: number;
  /** Default: a module worker from workers/layout.worker.ts (none where Worker is missing, e.g. Node). */
  spawn?: () => WorkerHandle;
}

export function spawnLayoutWorker(): WorkerHandle {
  return handleFromWorker(new Worker(new URL('../../workers/layout.worker.ts', import.meta.url), { type: 'module', name: 'layout' }));
}

export function createLayoutRunner(opts: LayoutRunnerOptions): LayoutRunner {
  const spawn = opts.spawn ?? (typeof Worker === 'undefined' ? undefined : spawnLayoutWorker);
  let broken = opts.forceMainThread === true || spawn === undefined;
  const life = broken
    ? null
    : new WorkerLifecycle<LayoutApi>({
        name: 'the graph layout',
        spawn: spawn!,
        timeoutMs: opts.timeoutMs ?? 15_000,
        // one layout at a time: the graph asks again only after it has drawn the last one
        serial: true,
      });

  return {
    async run(req) {
      if (!broken && life) {
        try {
          // the request's typed arrays are small and the caller keeps them: copied, not transferred
          return { ...(await life.call((r) => r.layout(req))), source: 'worker' };
        } catch (err) {
          // A failed worker is not retried (a module that fails to load would fail every time):
          // the graph lays out on the main thread from now on.
          const e = toAppError(err);
          console.warn('[mnemograph]', e.code, 'the layout worker is unavailable; laying out on the main thread', e);
          broken = true;
          life.dispose();
        }
      }
      return { ...opts.fallback(req), source: 'main' };
    },
    dispose: () => life?.dispose(),
  };
}
