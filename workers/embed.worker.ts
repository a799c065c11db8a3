// The sentence encoder worker: loads USE-lite from the app's own origin, picks WebGPU when a
// hardware adapter exists and a warm-up run succeeds (else WASM, saying why in the progress),
// and falls back to WASM for good if WebGPU fails mid-run (the failed batch is re-run there).
// Vectors leave by transfer.
import * as Comlink from 'comlink';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { AppError, toEnvelope } from '../src/core/errors';
import { createTokenizer } from '../src/core/tokenizer';
import { fetchUseLite } from '../src/embed/fetch-model';
import type { EmbedBackend, EmbedderInfo, EmbedLoadProgress } from '../src/embed/types';
import { createUseLiteEncoder, type UseLiteEncoder } from '../src/embed/use-lite';
import { failureText, fallbackMessage, webGpuDeclined, type AdapterFacts } from '../src/embed/webgpu-choice';
import type { LexicalResources } from '../src/core/features';
import { getResources } from '../src/features/resources';
import { LEXICAL_ID, type EmbedInitOptions, type FeaturizedItem, type FeaturizeItem, type SerializedFeatures } from '../src/protocol/embed';
import { buffersOf, featurizeItems, featurizeQueryText, resourcesOrFail } from './featurize-core';

type ProgressFn = (p: EmbedLoadProgress) => void;

const WARM_UP = ['Warming up the sentence encoder.', 'A second, longer sentence so the warm-up sees a padded batch.'];

let encoder: UseLiteEncoder | undefined;
let loading: Promise<EmbedderInfo> | undefined;
/** Kept only while on WebGPU, to rebuild the model on WASM without refetching. */
let artifactsForFallback: tf.io.ModelArtifacts | undefined;
let wasmPathPrefix = '';
const inflight = new Map<number, AbortController>();

async function useWasm(): Promise<void> {
  setWasmPaths(wasmPathPrefix);
  if (!(await tf.setBackend('wasm'))) throw new AppError('MODEL_LOAD_FAILED', undefined, 'the WASM backend did not start');
  await tf.ready();
}

interface GpuAdapterLike {
  info?: AdapterFacts;
  /** Chromium before GPUAdapterInfo.isFallbackAdapter. */
  isFallbackAdapter?: boolean;
}

/**
 * Starts the tfjs WebGPU backend when this browser has an adapter worth trying; else says why
 * not. `allowSoftware` (WebGPU asked for explicitly) accepts a software fallback adapter.
 */
async function startWebGpu(allowSoftware: boolean): Promise<string | null> {
  const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<GpuAdapterLike | null> } }).gpu;
  if (!gpu) return 'this browser has no WebGPU';
  try {
    const adapter = await gpu.requestAdapter();
    // GPUAdapterInfo fields are prototype getters: read them one by one (a spread sees none).
    const info = adapter?.info;
    const facts = adapter && {
      vendor: info?.vendor,
      architecture: info?.architecture,
      isFallbackAdapter: info?.isFallbackAdapter ?? adapter.isFallbackAdapter,
    };
    const declined = webGpuDeclined(facts, allowSoftware);
    if (declined) return declined;
    await import('@tensorflow/tfjs-backend-webgpu');
    if (!(await tf.setBackend('webgpu'))) return 'the tfjs WebGPU backend did not start';
    await tf.ready();
    return null;
  } catch (e) {
    return `WebGPU did not start (${failureText(e)})`;
  }
}

/** Builds the encoder on the current backend and proves it with a warm-up run. */
async function buildOn(
  backend: EmbedBackend,
  artifacts: tf.io.ModelArtifacts,
  vocabulary: Parameters<typeof createUseLiteEncoder>[0]['vocabulary'],
  batchSize: number | undefined,
): Promise<UseLiteEncoder> {
  let model: GraphModel | undefined;
  try {
    model = await loadGraphModel(tf.io.fromMemory(artifacts));
    const enc = createUseLiteEncoder({ tf, model, vocabulary, backend, batchSize, onBatchError });
    await enc.embed(WARM_UP);
    return enc;
  } catch (e) {
    model?.dispose();
    throw e;
  }
}

/** Mid-run failure on WebGPU: reload on WASM and let the wrapper re-run the failed batch. */
async function onBatchError(error: unknown): Promise<boolean> {
  if (!encoder || encoder.info().backend !== 'webgpu' || !artifactsForFallback) return false;
  console.warn('embed worker: WebGPU failed, switching to WASM:', error);
  await useWasm();
  const model = await loadGraphModel(tf.io.fromMemory(artifactsForFallback));
  encoder.replaceModel(model, 'wasm');
  artifactsForFallback = undefined;
  progressSink?.({ phase: 'ready', backend: 'wasm', message: 'WebGPU failed; switched to WASM.' });
  return true;
}

let progressSink: ProgressFn | undefined;

async function load(opts: EmbedInitOptions, report: ProgressFn): Promise<EmbedderInfo> {
  const base = import.meta.env.BASE_URL ?? '/';
  wasmPathPrefix = opts.wasmPath ?? `${base}wasm/`;
  report({ phase: 'fetching-model', loaded: 0 });
  // One progress message per 256 KiB (about 100 for the whole model), not one per chunk.
  let reported = 0;
  const fetched = await fetchUseLite(opts.modelUrl ?? `${base}models/use-lite/`, (loaded, total) => {
    if (loaded - reported < 256 * 1024 && loaded !== total) return;
    reported = loaded;
    report({ phase: 'fetching-model', loaded, total });
  });
  const tokenizer = createTokenizer(fetched.vocabulary); // built once, shared by any rebuild
  const want = opts.backend ?? 'auto';
  // Why 'auto' ends on WASM (shown in the load progress); unset when WASM was asked for.
  let notWebGpu: string | undefined;
  if (want !== 'wasm') {
    const declined = await startWebGpu(want === 'webgpu' || opts.allowSoftwareWebGpu === true);
    if (declined && want === 'webgpu') throw new AppError('MODEL_LOAD_FAILED', undefined, declined);
    notWebGpu = declined ?? undefined;
  }
  if (want !== 'wasm' && !notWebGpu) {
    report({ phase: 'warming-up', backend: 'webgpu' });
    const budgetMs = opts.webgpuWarmUpTimeoutMs ?? (want === 'webgpu' ? 120_000 : 30_000);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const building = buildOn('webgpu', fetched.artifacts, tokenizer, opts.batchSize);
    try {
      encoder = await Promise.race([
        building,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`WebGPU warm-up timed out after ${budgetMs} ms`)), budgetMs);
        }),
      ]);
      clearTimeout(timer);
      artifactsForFallback = fetched.artifacts;
      return encoder.info();
    } catch (e) {
      clearTimeout(timer);
      // A slow build may still finish later: free it rather than leak a second model.
      building.then((late) => late.dispose(), () => undefined);
      if (want === 'webgpu') throw new AppError('MODEL_LOAD_FAILED', undefined, `WebGPU warm-up failed (${failureText(e)})`);
      console.warn('embed worker: WebGPU warm-up failed, using WASM:', e);
      notWebGpu = `the warm-up failed (${failureText(e)})`;
    }
  }
  await useWasm();
  report({ phase: 'warming-up', backend: 'wasm', ...(notWebGpu && { message: fallbackMessage(notWebGpu) }) });
  encoder = await buildOn('wasm', fetched.artifacts, tokenizer, opts.batchSize);
  return encoder.info();
}

/**
 * The lexical resources of the spaces, fetched from the app's origin once, on first use. A
 * missing build (public/generated/ not built) is MODEL_LOAD_FAILED with the fix in the message.
 */
async function resources(): Promise<LexicalResources> {
  const base = import.meta.env.BASE_URL ?? '/';
  return resourcesOrFail(() => getResources(`${base}generated/`));
}

/** Runs `fn` with an AbortController registered under `requestId` (cancel() aborts it). */
async function tracked<T>(requestId: number, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  if (!encoder) throw new AppError('MODEL_LOAD_FAILED', undefined, 'called before init()').toEnvelope();
  const ac = new AbortController();
  inflight.set(requestId, ac);
  try {
    return await fn(ac.signal);
  } catch (e) {
    if (ac.signal.aborted) throw new AppError('ABORTED').toEnvelope();
    throw toEnvelope(e, 'MODEL_LOAD_FAILED');
  } finally {
    inflight.delete(requestId);
  }
}

const api = {
  /** Loads the model once; later calls return the same result. Rejects with an ErrorEnvelope. */
  async init(opts: EmbedInitOptions = {}, onProgress?: ProgressFn): Promise<EmbedderInfo> {
    // Progress goes through a Comlink proxy; never let a closed page break the load.
    const report: ProgressFn = (p) => {
      const closed = (e: unknown) => console.debug('[mnemograph] load progress not delivered (the page went away)', e);
      try {
        void Promise.resolve(onProgress?.(p)).catch(closed);
      } catch (e) {
        closed(e);
      }
    };
    progressSink = report;
    loading ??= load(opts, report).then(
      (info) => {
        report({ phase: 'ready', backend: info.backend });
        return info;
      },
      (e: unknown) => {
        loading = undefined; // a later init may retry
        const env = toEnvelope(e, 'MODEL_LOAD_FAILED');
        report({ phase: 'error', message: env.message + (env.detail ? ` (${env.detail})` : '') });
        throw env;
      },
    );
    return loading;
  },

  /** One vector per text, transferred. `requestId` lets cancel() stop it between batches. */
  async embed(texts: string[], requestId: number): Promise<Float32Array[]> {
    return tracked(requestId, async (signal) => {
      const vectors = await encoder!.embed(texts, signal);
      return Comlink.transfer(vectors, vectors.map((v) => v.buffer as ArrayBuffer));
    });
  },

  /** All thirteen spaces of each item (serialised, buffers transferred). */
  async featurize(items: FeaturizeItem[], requestId: number): Promise<FeaturizedItem[]> {
    return tracked(requestId, async (signal) => {
      const out = await featurizeItems(items, encoder!, await resources(), signal);
      return Comlink.transfer(out, buffersOf(out.map((o) => o.spaces)));
    });
  },

  /** A query's content spaces (serialised, buffers transferred). */
  async featurizeQuery(text: string, requestId: number): Promise<SerializedFeatures> {
    return tracked(requestId, async (signal) => {
      const out = await featurizeQueryText(text, encoder!, await resources(), signal);
      return Comlink.transfer(out, buffersOf([out]));
    });
  },

  /** Id of the lexical featurizers (the `model` of their stored rows). */
  lexicalId(): string {
    return LEXICAL_ID;
  },

  cancel(requestId: number): void {
    inflight.get(requestId)?.abort();
  },

  info(): EmbedderInfo | null {
    return encoder ? encoder.info() : null;
  },

  /** Live tfjs tensors, for leak checks in diagnostics. */
  numTensors(): number {
    return tf.memory().numTensors;
  },
};

export type EmbedWorkerApi = typeof api;

Comlink.expose(api);
