// The search engine as the services see it: an EngineClient backed by the engine worker.
// Built on WorkerLifecycle (lazy start, calls in order, timeout, AbortSignal, crash ->
// WORKER_CRASHED -> fresh worker on next use). Every (re)start fills the new worker from the
// database through `source`, so a crash loses nothing that was committed.

import * as Comlink from 'comlink';
import type { AppError } from '../core/errors';
import type { EngineApi } from '../../workers/engine.worker';
import { AppError as Failure } from '../core/errors';
import type { EngineDoc, EngineJudgeSource, EngineModelSource, EngineLoadProgress, EngineRecallOutcome, EngineRecallQuery, EngineSnapshot, SerializedFeatures } from '../protocol/engine';
import type { RecallOptionsInput } from '../core/recall';
import { DEEP_SEARCH_DEFAULTS } from '../core/deep';
import { handleFromWorker, WorkerLifecycle, type WorkerHandle } from './worker-lifecycle';

export type * from '../protocol/engine';
export type { WorkerHandle };

/** A worker method as the services call it: a trailing request id becomes an AbortSignal. */
type WithSignal<F> = F extends (...args: [...infer A, (number | undefined)?]) => infer R ? (...args: [...A, AbortSignal?]) => R : never;

/**
 * What the services need from the engine: the worker's own methods (derived from its API type,
 * not restated), the two cancellable ones taking an AbortSignal, plus start and dispose. `load`
 * and `cancel` stay inside the bridge.
 */
export type EngineClient = Omit<EngineApi, 'load' | 'loadFromStore' | 'whenWarm' | 'whenSaved' | 'saveWords' | 'saveEngine' | 'cancel' | 'search' | 'recall' | 'prepareSearch'> & {
  search: WithSignal<EngineApi['search']>;
  /** A plain search's keyword half ahead of its vector (sent while the query is embedded; the next search of the text takes it). Optional: a client without it searches as before. */
  prepareSearch?: EngineApi['prepareSearch'];
  /**
   * The ranking pipeline over a featurized query (its buffers are copied, not transferred).
   * `judge`: careful ranking's judge for deep search's reader, called by the engine only when the
   * query escalates (sent as a Comlink proxy; absent = the offline reader). `model`: the language
   * model on this computer as deep search's reader, likewise (absent = the judge's or the offline reader).
   */
  recall(q: EngineRecallQuery, o?: RecallOptionsInput, signal?: AbortSignal, judge?: EngineJudgeSource, model?: EngineModelSource): Promise<EngineRecallOutcome>;
  /** Starts (and loads) the engine now rather than on first use. */
  start(): Promise<void>;
  /** Refills the running engine from `source` (e.g. the encoder turned out other than the one it was filled for). */
  reload(): Promise<void>;
  /** Told of every staged load's progress (keyword searchable, features attached, warm); returns the unsubscribe. */
  onLoadProgress(listener: (p: EngineLoadProgress) => void): () => void;
  /** The last progress told (null before the first load). */
  loadProgress(): EngineLoadProgress | null;
  dispose(): void;
};

export interface EngineBridgeOptions {
  source: () => Promise<EngineSnapshot>;
  spawn?: () => WorkerHandle;
  /** Per call (default 15 s). */
  timeoutMs?: number;
  /**
   * A load fails (TIMEOUT, the worker restarts) when it reports no progress for this long
   * (default 60 s): a large store takes as long as it takes while it moves, a stuck one does not.
   */
  loadStallMs?: number;
  /** Resolve a (re)load only once it is warm (tests); default: once every memory is keyword-searchable. */
  awaitWarm?: boolean;
  /** Told when the worker died or hung; it restarts (and reloads) on next use. */
  onCrash?: (error: AppError) => void;
}

/** Tells the worker to skip a superseded call. Best effort: if the worker is gone, so is the call. */
function cancelInWorker(r: Comlink.Remote<EngineApi>, requestId: number): void {
  r.cancel(requestId).catch((e: unknown) => console.debug('[mnemograph] cancel not delivered (the engine is restarting)', e));
}

export function spawnEngineWorker(): WorkerHandle {
  return handleFromWorker(
    new Worker(new URL('../../workers/engine.worker.ts', import.meta.url), { type: 'module', name: 'engine' }),
  );
}

/**
 * Docs with their feature buffers marked for transfer (no copy). Each buffer is transferred once:
 * a buffer shared by two docs is copied for the second.
 */
export function transferable<D extends EngineDoc>(docs: D[]): { docs: D[]; buffers: ArrayBuffer[] } {
  const seen = new Set<ArrayBuffer>();
  const buffers: ArrayBuffer[] = [];
  const take = (b: ArrayBuffer): ArrayBuffer => {
    if (seen.has(b)) return b.slice(0);
    seen.add(b);
    buffers.push(b);
    return b;
  };
  const out = docs.map((d) => {
    if (!d.features) return d;
    const features: SerializedFeatures = {};
    for (const [k, b] of Object.entries(d.features)) if (b) features[k as keyof SerializedFeatures] = take(b);
    return { ...d, features };
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
    setupTimeoutMs: 0, // progress-based: see fill
    // serial: an upsert reaches the worker before a later search, in call order
    serial: true,
    onCrash: opts.onCrash,
    setup: (remote) => fill(remote),
  });

  const listeners = new Set<(p: EngineLoadProgress) => void>();
  let lastProgress: EngineLoadProgress | null = null;
  const stallMs = opts.loadStallMs ?? 60_000;

  async function fill(remote: Comlink.Remote<EngineApi>): Promise<void> {
    const { docs: all, store, ...options } = await opts.source();
    if (!store) {
      const { docs, buffers } = transferable(all ?? []);
      // the whole snapshot in one message: bounded by its size, not by a fixed time
      await withStallWatch(remote.load(Comlink.transfer(docs, buffers), options), () => undefined);
      return;
    }
    await withStallWatch(
      (async () => {
        await remote.loadFromStore(store, options, Comlink.proxy((p: EngineLoadProgress) => progress(p)));
        if (opts.awaitWarm) await remote.whenWarm();
      })(),
      (onTick) => {
        const l = () => onTick();
        listeners.add(l);
        return () => listeners.delete(l);
      },
    );
  }

  function progress(p: EngineLoadProgress): void {
    lastProgress = p;
    for (const l of [...listeners]) l(p);
  }

  /** Rejects with TIMEOUT when `work` reports no progress for stallMs (0 = never). */
  function withStallWatch(work: Promise<unknown>, subscribe: (onTick: () => void) => (() => unknown) | void): Promise<void> {
    if (stallMs <= 0) return work.then(() => undefined);
    return new Promise<void>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          stop?.();
          reject(new Failure('TIMEOUT', undefined, `the search engine's start made no progress for ${stallMs} ms`));
        }, stallMs);
      };
      const stop = subscribe(arm);
      arm();
      work.then(
        () => {
          clearTimeout(timer);
          stop?.();
          resolve();
        },
        (e: unknown) => {
          clearTimeout(timer);
          stop?.();
          reject(e as Error);
        },
      );
    });
  }

  return {
    start: () => life.start(),
    reload: () => life.call((r) => fill(r), { timeoutMs: 0 }),
    onLoadProgress(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    loadProgress: () => lastProgress,
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
    async removeMany(ids) {
      await life.call((r) => r.removeMany(ids));
    },
    search(q, o, signal) {
      const requestId = nextRequestId++;
      // The query vector is small and the caller may keep it: copied, not transferred.
      return life.call((r) => r.search(q, o, requestId), {
        signal,
        // the worker yields before searching, so a cancel sent now skips the work
        onAbort: (r) => cancelInWorker(r, requestId),
      });
    },
    async prepareSearch(text, o) {
      await life.call((r) => r.prepareSearch(text, o));
    },
    recall(q, o, signal, judge, model) {
      const requestId = nextRequestId++;
      // a reader the services hand in (the judge, the language model) may take deep search's whole time limit on top
      const reading = judge || model ? (typeof o?.deepSearch?.timeoutMs === 'number' ? o.deepSearch.timeoutMs : DEEP_SEARCH_DEFAULTS.timeoutMs) : 0;
      const ms = baseTimeout + Math.ceil(q.text.length / 100) + reading;
      // query features are small (a few KB) and the caller reuses them (divergence): copied
      return life.call((r) => r.recall(q, o ?? {}, requestId, judge ? Comlink.proxy(judge) : undefined, model ? Comlink.proxy(model) : undefined), {
        signal,
        timeoutMs: ms,
        onAbort: (r) => cancelInWorker(r, requestId),
      });
    },
    divergence: (q) => life.call((r) => r.divergence(q)),
    recordFeedback: (e) => life.call((r) => r.recordFeedback(e)),
    setSimilarityConfig: (c) => life.call((r) => r.setSimilarityConfig(c)),
    setRecallDefaults: (o) => life.call((r) => r.setRecallDefaults(o)),
    lateralStatus: () => life.call((r) => r.lateralStatus()),
    reEnableLateral: () => life.call((r) => r.reEnableLateral()),
    stats: () => life.call((r) => r.stats()),
    dispose: () => life.dispose(),
  };
}
