// The USE-lite model wrapper, shared by the embed worker and Node scripts. It is handed the tfjs
// module and a loaded graph model, so it never chooses a backend or touches the network itself.
import type * as tfc from '@tensorflow/tfjs-core';
import type { GraphModel } from '@tensorflow/tfjs-converter';
import { AppError } from '../core/errors';
import { createTokenizer, type SentencePieceTokenizer, type Vocabulary } from '../core/tokenizer';
import {
  MAX_EMBED_CHARS,
  USE_LITE_DIM,
  USE_LITE_ID,
  USE_LITE_MAX_TOKENS,
  USE_LITE_NAME,
  prepareForEmbedding,
  type EmbedBackend,
  type Embedder,
  type EmbedderInfo,
} from './types';

export type Tfjs = typeof tfc;

export interface UseLiteOptions {
  tf: Tfjs;
  model: GraphModel;
  /** The parsed vocab.json, or a tokenizer already built from it. */
  vocabulary: Vocabulary | SentencePieceTokenizer;
  backend: EmbedBackend;
  /** Texts per model call. The graph pads to the longest text of a call, so texts are sorted by length first. */
  batchSize?: number;
  /**
   * Called once when a model call fails for a reason other than bad input or abort (a lost
   * WebGPU device, NaNs from a backend). Resolve true after swapping in a working model with
   * `replaceModel` and the failed batch is re-run once; resolve false to reject the call.
   */
  onBatchError?: (error: unknown) => Promise<boolean>;
}

export interface UseLiteEncoder extends Embedder {
  /** Encodes already-prepared texts in one model call (no truncation, no abort checks). */
  runBatch(texts: string[]): Promise<Float32Array[]>;
  readonly tokenizer: SentencePieceTokenizer;
  /** Swap the graph model (e.g. reloaded on another backend); the old one is disposed. */
  replaceModel(model: GraphModel, backend: EmbedBackend): void;
  dispose(): void;
}

export const DEFAULT_BATCH_SIZE = 32;

function isTokenizer(v: UseLiteOptions['vocabulary']): v is SentencePieceTokenizer {
  return typeof (v as SentencePieceTokenizer).encode === 'function';
}

/** Bad input and cancellation are not the backend's fault; anything else may be. */
function isRetryable(e: unknown): boolean {
  return !(e instanceof AppError) || e.code === 'INVALID_EMBEDDING' || e.code === 'MODEL_LOAD_FAILED';
}

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new AppError('ABORTED');
}

export function createUseLiteEncoder(opts: UseLiteOptions): UseLiteEncoder {
  const { tf } = opts;
  let model = opts.model;
  const tokenizer = isTokenizer(opts.vocabulary) ? opts.vocabulary : createTokenizer(opts.vocabulary);
  const batchSize = Math.max(1, Math.floor(opts.batchSize ?? DEFAULT_BATCH_SIZE));
  const info: EmbedderInfo = {
    id: USE_LITE_ID,
    name: USE_LITE_NAME,
    dim: USE_LITE_DIM,
    backend: opts.backend,
    maxInputChars: MAX_EMBED_CHARS,
  };

  async function runTokens(encoded: Int32Array[]): Promise<Float32Array[]> {
    const n = encoded.length;
    let total = 0;
    for (const ids of encoded) total += ids.length;
    const indices = new Int32Array(total * 2);
    const values = new Int32Array(total);
    let k = 0;
    for (let row = 0; row < n; row++) {
      const ids = encoded[row];
      for (let col = 0; col < ids.length; col++, k++) {
        indices[2 * k] = row;
        indices[2 * k + 1] = col;
        values[k] = ids[col];
      }
    }
    const indicesT = tf.tensor2d(indices, [total, 2], 'int32');
    const valuesT = tf.tensor1d(values, 'int32');
    let output: tfc.Tensor | tfc.Tensor[] | undefined;
    try {
      output = await model.executeAsync({ indices: indicesT, values: valuesT });
      const out = Array.isArray(output) ? output[0] : output;
      if (out.shape.length !== 2 || out.shape[0] !== n || out.shape[1] !== USE_LITE_DIM) {
        throw new AppError('MODEL_LOAD_FAILED', undefined, `unexpected output shape [${out.shape.join(',')}] for ${n} texts`);
      }
      const flat = (await out.data()) as Float32Array;
      const vectors: Float32Array[] = [];
      for (let row = 0; row < n; row++) {
        // slice (not subarray): every vector owns its buffer so it can be transferred alone.
        const v = flat.slice(row * USE_LITE_DIM, (row + 1) * USE_LITE_DIM);
        let sq = 0;
        for (let i = 0; i < v.length; i++) sq += v[i] * v[i];
        const norm = Math.sqrt(sq);
        if (!Number.isFinite(norm) || norm === 0) {
          throw new AppError('INVALID_EMBEDDING', undefined, `row ${row} has norm ${norm}`);
        }
        for (let i = 0; i < v.length; i++) v[i] /= norm;
        vectors.push(v);
      }
      return vectors;
    } finally {
      indicesT.dispose();
      valuesT.dispose();
      if (Array.isArray(output)) output.forEach((t) => t.dispose());
      else output?.dispose();
    }
  }

  function encodeChecked(texts: string[]): Int32Array[] {
    return texts.map((t, i) => {
      if (typeof t !== 'string') throw new AppError('INVALID_OPTION', undefined, `text ${i} is not a string`);
      const ids = tokenizer.encode(t);
      // Only the empty string has no tokens ("▁" marks the start of anything else); a row
      // without tokens would vanish from the model's padded batch.
      if (ids.length === 0) throw new AppError('EMPTY_TEXT', undefined, `text ${i} is empty`);
      // The graph ignores tokens past its window; dropping them here is exact and saves work.
      return ids.length > USE_LITE_MAX_TOKENS ? ids.subarray(0, USE_LITE_MAX_TOKENS) : ids;
    });
  }

  async function runBatch(texts: string[]): Promise<Float32Array[]> {
    return runTokens(encodeChecked(texts));
  }

  async function embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    throwIfAborted(signal);
    if (!Array.isArray(texts)) throw new AppError('INVALID_OPTION', undefined, 'embed() takes an array of texts');
    if (texts.length === 0) return [];
    const encoded = encodeChecked(texts.map((t) => (typeof t === 'string' ? prepareForEmbedding(t).text : t)));
    // Group texts of similar length: the graph pads every call to its longest text.
    const order = encoded.map((_, i) => i).sort((a, b) => encoded[a].length - encoded[b].length);
    const result: Float32Array[] = new Array(texts.length);
    for (let start = 0; start < order.length; start += batchSize) {
      throwIfAborted(signal);
      const slice = order.slice(start, start + batchSize);
      const batch = slice.map((i) => encoded[i]);
      let vectors: Float32Array[];
      try {
        vectors = await runTokens(batch);
      } catch (e) {
        if (!isRetryable(e) || !opts.onBatchError || !(await opts.onBatchError(e))) throw e;
        throwIfAborted(signal);
        vectors = await runTokens(batch); // once: a second failure is reported as is
      }
      slice.forEach((i, j) => (result[i] = vectors[j]));
    }
    return result;
  }

  function replaceModel(next: GraphModel, backend: EmbedBackend): void {
    const old = model;
    model = next;
    info.backend = backend;
    try {
      old.dispose();
    } catch {
      // A lost device cannot free its buffers; they go with it.
    }
  }

  return {
    embed,
    runBatch,
    tokenizer,
    replaceModel,
    info: () => ({ ...info }),
    dispose: () => model.dispose(),
  };
}
