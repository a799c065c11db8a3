// Transformers.js encoders in Node (tests, eval, benchmarks): the same wrapper as the embed worker
// (src/embed/transformers.ts), the model folder read from public/models/ (built by
// `npm run prepare-assets`). Native onnxruntime-node on the CPU when its binding loads; else
// onnxruntime-web's WASM build from node_modules (never a CDN). No network access.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AppError } from '../../src/core/errors';
import type { EncoderMeta } from '../../src/embed/encoders';
import { createTransformersEncoder, loadExtractor, type TransformersEncoder, type TransformersModule } from '../../src/embed/transformers';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The model folders: public/models/, or MNEMOGRAPH_MODELS_DIR (to score a candidate model file with the same scripts). */
export const MODELS_DIR = process.env.MNEMOGRAPH_MODELS_DIR || join(root, 'public', 'models');
const require = createRequire(import.meta.url);

export type NodeRuntime = 'cpu' | 'wasm';

/** Whether onnxruntime-node's native binding loads here (absent on Intel Macs, or when removed). */
export function nativeBindingLoads(): boolean {
  try {
    const tjsRequire = createRequire(require.resolve('@huggingface/transformers'));
    tjsRequire('onnxruntime-node');
    return true;
  } catch {
    return false;
  }
}

interface TjsEnv {
  allowRemoteModels: boolean;
  allowLocalModels: boolean;
  localModelPath: string;
  useWasmCache: boolean;
  backends: { onnx: { wasm?: { wasmPaths?: unknown; numThreads?: number } } };
}

let loaded: Promise<{ tjs: TransformersModule & { env: TjsEnv }; runtime: NodeRuntime }> | undefined;

/**
 * Imports Transformers.js once per process. 'wasm' (asked for, or the binding is missing) first
 * puts onnxruntime-web where Transformers.js looks for an injected runtime, and stubs
 * onnxruntime-node (which it requires at import time).
 */
function importTransformers(want: NodeRuntime | 'auto'): Promise<{ tjs: TransformersModule & { env: TjsEnv }; runtime: NodeRuntime }> {
  loaded ??= (async () => {
    const runtime: NodeRuntime = want === 'wasm' || !nativeBindingLoads() ? 'wasm' : 'cpu';
    let ortWebDir = '';
    if (runtime === 'wasm') {
      const stub = join(dirname(fileURLToPath(import.meta.url)), 'ort-node-stub.cjs');
      const M = Module as unknown as { _resolveFilename: (req: string, ...rest: unknown[]) => string };
      const original = M._resolveFilename;
      M._resolveFilename = (req, ...rest) => (req === 'onnxruntime-node' ? stub : original(req, ...rest));
      const entry = require.resolve('onnxruntime-web'); // dist/ort.node.min.js; the package.json path is not exported
      ortWebDir = dirname(entry);
      (globalThis as Record<symbol, unknown>)[Symbol.for('onnxruntime')] = await import(pathToFileURL(join(ortWebDir, 'ort.node.min.mjs')).href);
    }
    const tjs = (await import('@huggingface/transformers')) as unknown as TransformersModule & { env: TjsEnv };
    const env = tjs.env;
    env.allowRemoteModels = false;
    env.allowLocalModels = true;
    env.localModelPath = MODELS_DIR + '/';
    env.useWasmCache = false;
    if (runtime === 'wasm' && env.backends.onnx.wasm) {
      env.backends.onnx.wasm.wasmPaths = pathToFileURL(ortWebDir + '/').href;
      env.backends.onnx.wasm.numThreads = 1;
    }
    return { tjs, runtime };
  })();
  return loaded;
}

/** MNEMOGRAPH_NODE_RUNTIME=wasm runs Node scripts (the eval) on onnxruntime-web's WASM, the browser's kernels. */
function envRuntime(): NodeRuntime | 'auto' {
  const v = process.env.MNEMOGRAPH_NODE_RUNTIME;
  return v === 'wasm' || v === 'cpu' ? v : 'auto';
}

/** Transformers.js as this process configured it (the runtime: MNEMOGRAPH_NODE_RUNTIME, else native when it loads). */
export function nodeTransformersModule(): Promise<{ tjs: TransformersModule; runtime: NodeRuntime }> {
  return importTransformers(envRuntime());
}

export interface NodeTransformersOptions {
  /** 'auto' (default): native CPU when the binding loads, else WASM. The first call in a process decides. */
  runtime?: NodeRuntime | 'auto';
  batchSize?: number;
}

/** The encoder for `meta` in Node; MODEL_LOAD_FAILED saying how to build the folder when it is missing. */
export async function loadNodeTransformers(meta: EncoderMeta, opts: NodeTransformersOptions = {}): Promise<TransformersEncoder> {
  if (!meta.folder || !existsSync(join(MODELS_DIR, meta.folder, 'config.json'))) {
    throw new AppError(
      'MODEL_LOAD_FAILED',
      undefined,
      `${meta.id}: no model folder public/models/${meta.folder ?? meta.id}/; run npm run prepare-assets (it needs Python's pip and PyPI)`,
    );
  }
  const { tjs, runtime } = await importTransformers(opts.runtime ?? envRuntime());
  const extractor = runtime === 'cpu' ? await loadExtractor(tjs, meta, 'cpu') : await loadExtractor(tjs, meta, 'auto', ['wasm']);
  return createTransformersEncoder({ extractor, meta, backend: runtime, batchSize: opts.batchSize });
}
