// The sentence encoder as the app sees it: an Embedder backed by the embed worker. Lazy start,
// calls queued one at a time, long inputs split into chunks (so a search query can slip in
// between the chunks of a bulk import), AbortSignal, timeouts, crash -> WORKER_CRASHED and a
// fresh worker on the next call, load progress for the UI.
import * as Comlink from 'comlink';
import { AppError, MESSAGES } from '../core/errors';
import { MAX_EMBED_CHARS, type Embedder, type EmbedderInfo, type EmbedLoadProgress } from '../embed/types';
import { DEFAULT_ENCODER_ID, encoderMeta, MINILM } from '../embed/encoders';
import type { EmbedWorkerApi } from '../../workers/embed.worker';
import { LEXICAL_ID, type EmbedInitOptions, type FeaturizedItem, type FeaturizeItem, type SpaceFeaturizer } from '../protocol/embed';
import { handleFromWorker, WorkerLifecycle, type WorkerHandle } from './worker-lifecycle';
import { chunksByLength, runOnPool, type ChunkRunner } from './chunk-pool';
import type { TokenMatrix } from '../core/pipeline';

export type * from '../protocol/embed';

export interface EmbedBridgeOptions {
  spawn?: () => WorkerHandle;
  init?: EmbedInitOptions;
  /** Texts per worker call (default 64). */
  chunkSize?: number;
  /** Memories per featurize call (default 16: each also carries its clauses and captions). */
  featurizeChunkSize?: number;
  /** Per chunk (default 60 s; WebGPU on a software adapter is slow). Loading: loadTimeoutMs (default 180 s). */
  timeoutMs?: number;
  loadTimeoutMs?: number;
  /** Terminate the worker (and free the model) after this long unused; 0 = never (default). */
  idleMs?: number;
  /**
   * The helper encoder (a second embed worker, one WASM thread) used beside the main one by large
   * calls (see `encoderWorkers`) is freed after this long unused (default HELPER_IDLE_MS).
   */
  helperIdleMs?: number;
  onCrash?: (error: AppError) => void;
}

export interface EmbedBridge extends Embedder, SpaceFeaturizer {
  /** Each text's token matrix (late interaction); null when the running encoder has none (USE-lite). */
  tokens(texts: string[], signal?: AbortSignal, idsOnly?: boolean): Promise<TokenMatrix[] | null>;
  /** Starts the worker and loads the model now; resolves with the final info. */
  ready(): Promise<EmbedderInfo>;
  /** Current load state; `listener` is called at once with it, then on every change. Returns unsubscribe. */
  onProgress(listener: (p: EmbedLoadProgress) => void): () => void;
  progress(): EmbedLoadProgress | null;
  dispose(): void;
}

/** Tells the worker to stop a call the caller gave up on. Best effort: if the worker is gone, so is the call. */
function cancelInWorker(r: Comlink.Remote<EmbedWorkerApi>, requestId: number): void {
  r.cancel(requestId).catch((e: unknown) => console.debug('[mnemograph] cancel not delivered (the encoder is restarting)', e));
}

/** A helper encoder is freed after this long without a large call (its model copy is ~100 MB). */
export const HELPER_IDLE_MS = 20_000;

/** Calls split into at least this many chunks run on the pool (smaller ones: the main worker alone). */
export const POOL_MIN_CHUNKS = 3;

/**
 * Encoder workers for large calls (imports): `asked` if set, else 1. A helper worker runs one WASM
 * thread; it runs only when the main encoder runs on WASM.
 */
export function encoderWorkers(asked: number | undefined): number {
  return Math.max(1, Math.min(2, Math.floor(asked ?? 1)));
}

export function spawnEmbedWorker(): WorkerHandle {
  return handleFromWorker(
    new Worker(new URL('../../workers/embed.worker.ts', import.meta.url), { type: 'module', name: 'embed' }),
  );
}

/**
 * What info() says before the model has loaded: the encoder asked for (default MiniLM). The one
 * that loads may differ (its files absent: the fallback runs); info() then says so, and the
 * services refill their engine for it (syncEncoder).
 */
function provisionalInfo(id: string | undefined): EmbedderInfo {
  const meta = encoderMeta(id ?? DEFAULT_ENCODER_ID) ?? MINILM;
  return { id: meta.id, name: meta.name, dim: meta.dim, backend: 'wasm', maxInputChars: MAX_EMBED_CHARS };
}

export function createEmbedBridge(opts: EmbedBridgeOptions = {}): EmbedBridge {
  // before the model has loaded: the asked-for encoder (a downloaded or picked one by its entry)
  const entry = opts.init?.entry;
  const provisional = (): EmbedderInfo =>
    entry ? { ...PROVISIONAL_INFO, id: entry.id, name: entry.name, dim: entry.dim } : { ...PROVISIONAL_INFO };
  const listeners = new Set<(p: EmbedLoadProgress) => void>();
  let last: EmbedLoadProgress | null = null;
  let info: EmbedderInfo | null = null;
  let nextRequestId = 1;
  const chunkSize = Math.max(1, opts.chunkSize ?? 64);
  const PROVISIONAL_INFO = provisionalInfo(opts.init?.encoder);

  const emit = (p: EmbedLoadProgress) => {
    last = p;
    if (p.backend && info) info = { ...info, backend: p.backend }; // e.g. a WebGPU -> WASM fallback
    for (const l of listeners) l(p);
  };

  const life = new WorkerLifecycle<EmbedWorkerApi>({
    name: 'the sentence encoder',
    spawn: opts.spawn ?? spawnEmbedWorker,
    timeoutMs: opts.timeoutMs ?? 60_000,
    setupTimeoutMs: opts.loadTimeoutMs ?? 180_000,
    idleMs: opts.idleMs ?? 0,
    fallbackErrorCode: 'MODEL_LOAD_FAILED',
    setup: async (remote) => {
      info = await remote.init(opts.init ?? {}, Comlink.proxy(emit));
    },
    onCrash: (e) => {
      emit({ phase: 'error', message: e.message });
      opts.onCrash?.(e);
    },
  });

  type Life = WorkerLifecycle<EmbedWorkerApi>;

  // The helper: a second embed worker (one WASM thread) that runs chunks of large calls beside the
  // main one, started by the first such call and freed after helperIdleMs unused. Two single-thread
  // encoders on independent chunks avoid the per-op sync of one encoder's two threads on small
  // batches. A helper that fails is dropped for good (its chunk reruns on the main worker).
  const workers = encoderWorkers(opts.init?.encoderWorkers);
  let helper: Life | null = null;
  let helperBroken = false;
  function helperLife(): Life | null {
    const main = info;
    if (workers < 2 || helperBroken || !main || main.backend !== 'wasm') return null;
    helper ??= new WorkerLifecycle<EmbedWorkerApi>({
      name: 'the helper encoder',
      spawn: opts.spawn ?? spawnEmbedWorker,
      timeoutMs: opts.timeoutMs ?? 60_000,
      setupTimeoutMs: opts.loadTimeoutMs ?? 180_000,
      idleMs: opts.helperIdleMs ?? HELPER_IDLE_MS,
      fallbackErrorCode: 'MODEL_LOAD_FAILED',
      setup: async (remote) => {
        const init: EmbedInitOptions = { ...opts.init, encoder: main.id, fallbackEncoder: null, backend: 'wasm', wasmThreads: 1, encoderWorkers: 1 };
        const t0 = performance.now();
        const got = await remote.init(init);
        console.debug(`[mnemograph] helper encoder ready after ${Math.round(performance.now() - t0)} ms`);
        if (got.id !== main.id || got.dim !== main.dim) throw new AppError('MODEL_LOAD_FAILED', undefined, `the helper encoder loaded ${got.id} (${got.dim}-d), not ${main.id}`);
      },
    });
    return helper;
  }
  function dropHelper(e: unknown): void {
    console.warn('[mnemograph] the helper encoder failed; large calls run on the main encoder alone:', e);
    helperBroken = true;
    helper?.dispose();
    helper = null;
  }

  /** `chunks` through `lane` on the main worker, and on the helper too when there are enough of them. */
  async function pooled<T, R>(chunks: T[], lane: (l: Life, chunk: T, signal?: AbortSignal) => Promise<R>, signal?: AbortSignal): Promise<R[]> {
    const runners: ChunkRunner<T, R>[] = [{ run: (c, s) => lane(life, c, s) }];
    if (workers > 1 && chunks.length >= POOL_MIN_CHUNKS) {
      await life.start(); // the main encoder's backend decides whether a helper runs
      const h = helperLife();
      if (h) runners.push({ ready: () => h.start(), run: (c, s) => lane(h, c, s), onFailure: dropHelper });
    }
    return runOnPool(chunks, runners, signal);
  }

  async function embedChunk(texts: string[], signal?: AbortSignal, role: 'document' | 'query' = 'document', on: Life = life): Promise<Float32Array[]> {
    const requestId = nextRequestId++;
    const vectors = await on.call((remote) => (role === 'query' ? remote.embedQueries(texts, requestId) : remote.embed(texts, requestId)), {
      signal,
      onAbort: (remote) => cancelInWorker(remote, requestId),
    });
    if (!Array.isArray(vectors) || vectors.length !== texts.length) {
      throw new AppError('INVALID_EMBEDDING', undefined, MESSAGES.wrongCount('vectors', vectors?.length ?? 0, texts.length));
    }
    return vectors;
  }

  async function embedAll(texts: string[], signal: AbortSignal | undefined, role: 'document' | 'query'): Promise<Float32Array[]> {
    if (!Array.isArray(texts)) throw new AppError('INVALID_OPTION', undefined, 'embed() takes an array of texts');
    if (signal?.aborted) throw new AppError('ABORTED');
    if (texts.length === 0) return [];
    const chunks: string[][] = [];
    for (let i = 0; i < texts.length; i += chunkSize) chunks.push(texts.slice(i, i + chunkSize));
    return (await pooled(chunks, (l, c, s) => embedChunk(c, s, role, l), signal)).flat();
  }

  async function featurizeOn(l: Life, part: FeaturizeItem[], signal?: AbortSignal): Promise<FeaturizedItem[]> {
    const requestId = nextRequestId++;
    const got = await l.call((remote) => remote.featurize(part, requestId), {
      signal,
      onAbort: (remote) => cancelInWorker(remote, requestId),
    });
    if (!Array.isArray(got) || got.length !== part.length)
      throw new AppError('INVALID_EMBEDDING', undefined, MESSAGES.wrongCount('feature sets', got?.length ?? 0, part.length));
    return got;
  }

  const featurizeChunk = Math.max(1, opts.featurizeChunkSize ?? 16);

  return {
    lexicalId: () => LEXICAL_ID,
    async featurize(items, signal) {
      if (!Array.isArray(items)) throw new AppError('INVALID_OPTION', 'featurize() takes an array of items');
      if (signal?.aborted) throw new AppError('ABORTED');
      // sortChunks (default on): chunks of texts of similar length (the encoder pads each call to its longest)
      const { chunks, back } = chunksByLength(items, featurizeChunk, opts.init?.sortChunks !== false ? (it) => Math.min(it.text.length, MAX_EMBED_CHARS) : () => 0);
      return back((await pooled(chunks, featurizeOn, signal)).flat());
    },
    async featurizeQuery(text, signal) {
      if (typeof text !== 'string') throw new AppError('INVALID_OPTION', 'featurizeQuery() takes a text');
      if (signal?.aborted) throw new AppError('ABORTED');
      const requestId = nextRequestId++;
      return life.call((remote) => remote.featurizeQuery(text, requestId), {
        signal,
        onAbort: (remote) => cancelInWorker(remote, requestId),
      });
    },
    async entities(texts, signal) {
      if (!Array.isArray(texts)) throw new AppError('INVALID_OPTION', 'entities() takes an array of texts');
      if (signal?.aborted) throw new AppError('ABORTED');
      if (texts.length === 0) return [];
      return life.call((remote) => remote.entities(texts), { signal });
    },
    async queryVariants(query, count, feedback, signal) {
      if (signal?.aborted) throw new AppError('ABORTED');
      const requestId = nextRequestId++;
      return life.call((remote) => remote.queryVariants(query, count, feedback, requestId), {
        signal,
        onAbort: (remote) => cancelInWorker(remote, requestId),
      });
    },
    async tokens(texts, signal, idsOnly = false) {
      if (!Array.isArray(texts)) throw new AppError('INVALID_OPTION', 'tokens() takes an array of texts');
      if (signal?.aborted) throw new AppError('ABORTED');
      if (texts.length === 0) return [];
      const requestId = nextRequestId++;
      const got = await life.call((remote) => remote.tokens(texts, requestId, idsOnly), { signal, onAbort: (remote) => cancelInWorker(remote, requestId) });
      if (got !== null && (!Array.isArray(got) || got.length !== texts.length))
        throw new AppError('INVALID_EMBEDDING', undefined, MESSAGES.wrongCount('token matrices', got?.length ?? 0, texts.length));
      return got;
    },
    embed: (texts, signal) => embedAll(texts, signal, 'document'),
    embedQueries: (texts, signal) => embedAll(texts, signal, 'query'),
    info: () => info ?? provisional(),
    async ready() {
      await life.start();
      return info ?? provisional();
    },
    onProgress(listener) {
      listeners.add(listener);
      if (last) listener(last);
      return () => listeners.delete(listener);
    },
    progress: () => last,
    dispose() {
      life.dispose();
      helper?.dispose();
      listeners.clear();
    },
  };
}
