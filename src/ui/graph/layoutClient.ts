// Owns the layout worker's life: lazy start, timeout, crash -> fall back to the main thread.
// A stale answer never overwrites a fresh one: callers pass a request id and drop old ones.
import * as Comlink from 'comlink';
import type { LayoutApi } from '../../../workers/layout.worker';
import { computeLayout, type LayoutRequest, type LayoutResult } from './layout';
import { AppError, toAppError } from '../../core/errors';

export type LayoutSource = 'worker' | 'main';

export interface LayoutRunner {
  run(req: LayoutRequest): Promise<LayoutResult & { source: LayoutSource }>;
  dispose(): void;
}

export interface LayoutRunnerOptions {
  /** For tests and pages that must not use a worker. */
  forceMainThread?: boolean;
  timeoutMs?: number;
}

export function createLayoutRunner(opts: LayoutRunnerOptions = {}): LayoutRunner {
  let worker: Worker | undefined;
  let remote: Comlink.Remote<LayoutApi> | undefined;
  let broken = opts.forceMainThread === true || typeof Worker === 'undefined';
  let crash: ((e: AppError) => void)[] = [];

  const start = (): Comlink.Remote<LayoutApi> => {
    if (remote) return remote;
    worker = new Worker(new URL('../../../workers/layout.worker.ts', import.meta.url), { type: 'module', name: 'layout' });
    worker.addEventListener('error', (ev) => {
      const err = new AppError('WORKER_CRASHED', undefined, `layout worker failed: ${ev.message ?? 'unknown error'}`);
      for (const f of crash) f(err);
      kill();
    });
    remote = Comlink.wrap<LayoutApi>(worker);
    return remote;
  };
  const kill = (): void => {
    worker?.terminate();
    worker = undefined;
    remote = undefined;
    broken = true;
  };

  const viaWorker = async (req: LayoutRequest): Promise<LayoutResult> => {
    const api = start();
    const timeout = opts.timeoutMs ?? 15_000;
    let onCrash: (e: AppError) => void = () => {};
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        api.layout(req),
        new Promise<never>((_, reject) => {
          onCrash = reject;
          crash.push(onCrash);
          timer = setTimeout(() => reject(new AppError('TIMEOUT', undefined, 'layout worker timed out')), timeout);
        }),
      ]);
    } finally {
      clearTimeout(timer);
      crash = crash.filter((f) => f !== onCrash);
    }
  };

  return {
    async run(req) {
      if (!broken) {
        try {
          return { ...(await viaWorker(req)), source: 'worker' };
        } catch (err) {
          // The graph must still appear: lay out on the main thread from now on (logged, not shown).
          const e = toAppError(err);
          console.warn('[mnemograph]', e.code, 'layout worker unavailable, using the main thread', e);
          kill();
        }
      }
      return { ...computeLayout(req), source: 'main' };
    },
    dispose: kill,
  };
}
