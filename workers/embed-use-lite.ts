// USE-lite in the embed worker: fetched from the app's own origin, on tfjs WebGPU when a hardware
// adapter exists and a warm-up run succeeds (else WASM, saying why in the progress), and moved to
// WASM for good if WebGPU fails mid-run (the failed batch is re-run there).
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { AppError } from '../src/core/errors';
import { createTokenizer } from '../src/core/tokenizer';
import { fetchUseLite } from '../src/embed/fetch-model';
import type { EmbedBackend, EmbedLoadProgress } from '../src/embed/types';
import { createUseLiteEncoder, type UseLiteEncoder } from '../src/embed/use-lite';
import { failureText, fallbackMessage } from '../src/embed/webgpu-choice';
import type { EmbedInitOptions } from '../src/protocol/embed';
import { probeWebGpu, withinBudget } from './embed-webgpu';

type ProgressFn = (p: EmbedLoadProgress) => void;

import { WARM_UP } from './warm-up';
export { WARM_UP };

async function useWasm(wasmPathPrefix: string): Promise<void> {
  setWasmPaths(wasmPathPrefix);
  if (!(await tf.setBackend('wasm'))) throw new AppError('MODEL_LOAD_FAILED', undefined, 'the WASM backend did not start');
  await tf.ready();
}

/** Starts the tfjs WebGPU backend when this browser has an adapter worth trying; else says why not. */
async function startWebGpu(allowSoftware: boolean): Promise<string | null> {
  const declined = await probeWebGpu(allowSoftware);
  if (declined) return declined;
  try {
    await import('@tensorflow/tfjs-backend-webgpu');
    if (!(await tf.setBackend('webgpu'))) return 'the tfjs WebGPU backend did not start';
    await tf.ready();
    return null;
  } catch (e) {
    return `WebGPU did not start (${failureText(e)})`;
  }
}

/** Live tfjs tensors, for leak checks in diagnostics. */
export const numTensors = (): number => tf.memory().numTensors;

export async function loadUseLite(opts: EmbedInitOptions, base: string, report: ProgressFn): Promise<UseLiteEncoder> {
  const wasmPathPrefix = opts.wasmPath ?? `${base}wasm/`;
  let encoder: UseLiteEncoder | undefined;
  /** Kept only while on WebGPU, to rebuild the model on WASM without refetching. */
  let artifactsForFallback: tf.io.ModelArtifacts | undefined;

  /** Mid-run failure on WebGPU: reload on WASM and let the wrapper re-run the failed batch. */
  async function onBatchError(error: unknown): Promise<boolean> {
    if (!encoder || encoder.info().backend !== 'webgpu' || !artifactsForFallback) return false;
    console.warn('embed worker: WebGPU failed, switching to WASM:', error);
    await useWasm(wasmPathPrefix);
    const model = await loadGraphModel(tf.io.fromMemory(artifactsForFallback));
    encoder.replaceModel(model, 'wasm');
    artifactsForFallback = undefined;
    report({ phase: 'ready', backend: 'wasm', message: 'WebGPU failed; switched to WASM.' });
    return true;
  }

  /** Builds the encoder on the current backend and proves it with a warm-up run. */
  async function buildOn(backend: EmbedBackend, artifacts: tf.io.ModelArtifacts, tokenizer: ReturnType<typeof createTokenizer>): Promise<UseLiteEncoder> {
    let model: GraphModel | undefined;
    try {
      model = await loadGraphModel(tf.io.fromMemory(artifacts));
      const enc = createUseLiteEncoder({ tf, model, vocabulary: tokenizer, backend, batchSize: opts.batchSize, onBatchError });
      await enc.embed(WARM_UP);
      return enc;
    } catch (e) {
      model?.dispose();
      throw e;
    }
  }

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
    try {
      encoder = await withinBudget(buildOn('webgpu', fetched.artifacts, tokenizer), budgetMs, (late) => late.dispose());
      artifactsForFallback = fetched.artifacts;
      return encoder;
    } catch (e) {
      if (want === 'webgpu') throw new AppError('MODEL_LOAD_FAILED', undefined, `WebGPU warm-up failed (${failureText(e)})`);
      console.warn('embed worker: WebGPU warm-up failed, using WASM:', e);
      notWebGpu = `the warm-up failed (${failureText(e)})`;
    }
  }
  await useWasm(wasmPathPrefix);
  report({ phase: 'warming-up', backend: 'wasm', ...(notWebGpu && { message: fallbackMessage(notWebGpu) }) });
  encoder = await buildOn('wasm', fetched.artifacts, tokenizer);
  return encoder;
}
