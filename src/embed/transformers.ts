// A Transformers.js (ONNX) sentence encoder behind the Embedder interface, shared by the embed
// worker and Node scripts. Like the USE-lite wrapper it is handed an already-made runtime object
// (a feature-extraction pipeline) and never chooses a backend or touches the network itself;
// `loadExtractor` builds that pipeline from the Transformers.js module the caller configured.
import { AppError } from '../core/errors';
import { withPrefix, type EncoderMeta } from './encoders';
import { MAX_EMBED_CHARS, prepareForEmbedding, type EmbedBackend, type Embedder, type EmbedderInfo } from './types';
import { tokenMatricesOf, type TokenExtractor } from './token-matrix';
import type { TokenMatrix } from '../core/pipeline';

/** The part of a Transformers.js Tensor the wrapper reads. */
export interface TensorLike {
  data: ArrayLike<number>;
  dims: readonly number[];
  dispose?(): void;
}

/** A Transformers.js FeatureExtractionPipeline, as far as the wrapper uses it. */
export interface FeatureExtractor {
  (texts: string[], options: { pooling: 'mean' | 'cls'; normalize: boolean }): Promise<TensorLike>;
  dispose?(): Promise<unknown> | unknown;
  /** The pipeline's tokenizer: `encode` gives a text's token ids (special tokens included), used to sort and batch by tokens. */
  tokenizer?: { encode?(text: string): ArrayLike<number> };
}

export interface TransformersEncoderOptions {
  extractor: FeatureExtractor;
  meta: EncoderMeta;
  backend: EmbedBackend;
  /** Texts per model call at most (default 32). Texts are sorted by token count first: a call pads to its longest. */
  batchSize?: number;
  /**
   * Padded tokens per model call at most (rows x the longest row; default 1024): short texts go
   * `batchSize` at a time, long ones in smaller calls (a call's cost and memory grow with it).
   */
  tokenBudget?: number;
  /** 'document' (default) or 'query': which of the model's prefixes goes before each text. */
  role?: 'query' | 'document';
  /** As in the USE-lite wrapper: resolve true after `replaceExtractor` and the failed batch is re-run once. */
  onBatchError?: (error: unknown) => Promise<boolean>;
}

export interface TransformersEncoder extends Embedder {
  /** The same model with the query prefix (the encoder for search queries). */
  forQueries(): Embedder;
  /** Swap the pipeline (e.g. rebuilt on WASM after a WebGPU failure); the old one is disposed. */
  replaceExtractor(extractor: FeatureExtractor, backend: EmbedBackend): void;
  /** Each text's token matrix (late interaction; src/embed/token-matrix.ts, as the eval computes it). */
  tokens(texts: string[], signal?: AbortSignal, idsOnly?: boolean): Promise<TokenMatrix[]>;
  dispose(): Promise<void>;
}

export const DEFAULT_BATCH_SIZE = 32;
export const DEFAULT_TOKEN_BUDGET = 1024;

/**
 * Tokens of each text as the model will see them (capped at its window), from the pipeline's own
 * tokenizer; the text's length in characters where the pipeline has none (a fake in tests).
 */
export function tokenCounts(extractor: FeatureExtractor, texts: readonly string[], max = 512): number[] {
  const encode = extractor.tokenizer?.encode?.bind(extractor.tokenizer);
  if (!encode) return texts.map((t) => t.length);
  return texts.map((t) => Math.min(max, encode(t).length));
}

/**
 * The model calls for texts of these token counts: indices sorted by count (then position), cut
 * into runs of at most `batchSize` whose padded size (rows x the last, longest count) stays within
 * `tokenBudget` (one text alone may exceed it). Sorting keeps padding small: a call's cost is its
 * rows times its longest row.
 */
export function planBatches(counts: readonly number[], batchSize: number, tokenBudget: number): number[][] {
  const order = counts.map((_, i) => i).sort((a, b) => counts[a] - counts[b] || a - b);
  const out: number[][] = [];
  let cur: number[] = [];
  for (const i of order) {
    if (cur.length > 0 && (cur.length >= batchSize || (cur.length + 1) * counts[i] > tokenBudget)) {
      out.push(cur);
      cur = [];
    }
    cur.push(i);
  }
  if (cur.length) out.push(cur);
  return out;
}

function isRetryable(e: unknown): boolean {
  return !(e instanceof AppError) || e.code === 'INVALID_EMBEDDING' || e.code === 'MODEL_LOAD_FAILED';
}

export function createTransformersEncoder(opts: TransformersEncoderOptions): TransformersEncoder {
  const { meta } = opts;
  const state = { extractor: opts.extractor, backend: opts.backend };
  const batchSize = Math.max(1, Math.floor(opts.batchSize ?? DEFAULT_BATCH_SIZE));
  const tokenBudget = Math.max(1, Math.floor(opts.tokenBudget ?? DEFAULT_TOKEN_BUDGET));
  const info = (): EmbedderInfo => ({ id: meta.id, name: meta.name, dim: meta.dim, backend: state.backend, maxInputChars: MAX_EMBED_CHARS });

  async function runBatch(texts: string[]): Promise<Float32Array[]> {
    const n = texts.length;
    let out: TensorLike | undefined;
    try {
      out = await state.extractor(texts, { pooling: meta.pooling, normalize: true });
      if (out.dims.length !== 2 || out.dims[0] !== n || out.dims[1] !== meta.dim) {
        throw new AppError('MODEL_LOAD_FAILED', undefined, `unexpected output shape [${out.dims.join(',')}] for ${n} texts`);
      }
      const flat = out.data;
      const vectors: Float32Array[] = [];
      for (let row = 0; row < n; row++) {
        // a fresh buffer per vector so each can be transferred alone
        const v = Float32Array.from({ length: meta.dim }, (_, i) => flat[row * meta.dim + i]);
        let sq = 0;
        for (let i = 0; i < v.length; i++) sq += v[i] * v[i];
        const norm = Math.sqrt(sq);
        if (!Number.isFinite(norm) || norm === 0) throw new AppError('INVALID_EMBEDDING', undefined, `row ${row} has norm ${norm}`);
        // normalised by the pipeline already; once more in float32 so every vector is unit length here
        for (let i = 0; i < v.length; i++) v[i] /= norm;
        vectors.push(v);
      }
      return vectors;
    } finally {
      out?.dispose?.();
    }
  }

  function embedAs(role: 'query' | 'document') {
    return async (texts: string[], signal?: AbortSignal): Promise<Float32Array[]> => {
      if (signal?.aborted) throw new AppError('ABORTED');
      if (!Array.isArray(texts)) throw new AppError('INVALID_OPTION', undefined, 'embed() takes an array of texts');
      if (texts.length === 0) return [];
      const prepared = texts.map((t, i) => {
        if (typeof t !== 'string') throw new AppError('INVALID_OPTION', undefined, `text ${i} is not a string`);
        if (t.length === 0) throw new AppError('EMPTY_TEXT', undefined, `text ${i} is empty`);
        return withPrefix(meta, prepareForEmbedding(t).text, role);
      });
      const result: Float32Array[] = new Array(texts.length);
      const counts = prepared.length > 1 ? tokenCounts(state.extractor, prepared) : [0];
      for (const slice of planBatches(counts, batchSize, tokenBudget)) {
        if (signal?.aborted) throw new AppError('ABORTED');
        const batch = slice.map((i) => prepared[i]);
        let vectors: Float32Array[];
        try {
          vectors = await runBatch(batch);
        } catch (e) {
          if (!isRetryable(e) || !opts.onBatchError || !(await opts.onBatchError(e))) throw e;
          if (signal?.aborted) throw new AppError('ABORTED');
          vectors = await runBatch(batch); // once: a second failure is reported as is
        }
        slice.forEach((i, j) => (result[i] = vectors[j]));
      }
      return result;
    };
  }

  const embedDocuments = embedAs(opts.role ?? 'document');
  const embedQueries = embedAs('query');

  return {
    embed: embedDocuments,
    embedQueries,
    info,
    forQueries: () => ({ embed: embedQueries, info }),
    tokens: (texts, signal, idsOnly) => tokenMatricesOf(state.extractor as unknown as TokenExtractor, texts, meta.dim, signal, idsOnly),
    replaceExtractor(next, backend) {
      const old = state.extractor;
      state.extractor = next;
      state.backend = backend;
      Promise.resolve(old.dispose?.()).catch(() => undefined); // a lost device cannot free its buffers
    },
    async dispose() {
      await state.extractor.dispose?.();
    },
  };
}

/** The parts of the Transformers.js module `loadExtractor` uses (the worker and Node hand in the real one). */
export interface TransformersModule {
  pipeline(task: 'feature-extraction', model: string, options: Record<string, unknown>): Promise<unknown>;
}

/**
 * Builds the model's feature-extraction pipeline from the folder `meta.folder` under the
 * module's configured `env.localModelPath`. `device`: 'webgpu', 'wasm' or 'cpu' (Node's native
 * runtime); `executionProviders` overrides the session's providers (Node's WASM path).
 */
export async function loadExtractor(
  tjs: TransformersModule,
  meta: EncoderMeta,
  device: string,
  executionProviders?: string[],
  graphOptimizationLevel?: string,
  /** onnxruntime session config entries (e.g. { 'intra_op.allow_spinning': '0' }), under `session.`. */
  sessionConfig?: Record<string, string>,
): Promise<FeatureExtractor> {
  if (meta.runtime !== 'transformers' || !meta.folder) throw new AppError('MODEL_LOAD_FAILED', undefined, `${meta.id} is not a Transformers.js model`);
  try {
    const fe = await tjs.pipeline('feature-extraction', meta.folder, {
      device,
      dtype: meta.dtype ?? 'fp32',
      session_options: {
        ...(executionProviders && { executionProviders }),
        ...(graphOptimizationLevel && { graphOptimizationLevel }),
        ...(sessionConfig && { extra: { session: { ...sessionConfig } } }),
      },
    });
    keepSepWhenTruncating(fe as PipelineLike);
    return fe as FeatureExtractor;
  } catch (e) {
    throw new AppError('MODEL_LOAD_FAILED', undefined, `${meta.id} on ${device}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

interface TokenTensor {
  data: ArrayLike<bigint | number> & { [i: number]: bigint | number };
  dims: readonly number[];
}
interface TokenizerLike {
  (texts: string[], options: Record<string, unknown>): { input_ids: TokenTensor; attention_mask: TokenTensor };
  sep_token_id?: number;
  model_max_length?: number;
}
interface PipelineLike {
  tokenizer?: TokenizerLike;
}

/**
 * Transformers.js cuts a text longer than the model's window after adding the special tokens,
 * so the closing [SEP] is lost ([CLS] t1..t255); sentence-transformers and the Python tokenizers
 * keep it ([CLS] t1..t254 [SEP]), and the vector differs (cosine 0.997 on a 400-word text). The
 * pipeline's tokenizer is wrapped to put [SEP] back in the last place of every cut row.
 */
export function keepSepWhenTruncating(pipe: PipelineLike): void {
  const tok = pipe.tokenizer;
  const sep = tok?.sep_token_id;
  const max = tok?.model_max_length;
  if (!tok || typeof sep !== 'number' || typeof max !== 'number' || !Number.isFinite(max)) return;
  const wrapped = ((texts: string[], options: Record<string, unknown>) => {
    const out = tok(texts, options);
    const { input_ids: ids, attention_mask: mask } = out;
    const width = ids.dims[1];
    if (options.truncation && width === max) {
      const big = typeof ids.data[0] === 'bigint';
      for (let row = 0; row < ids.dims[0]; row++) {
        const last = row * width + width - 1;
        if (Number(mask.data[last]) === 1 && Number(ids.data[last]) !== sep) ids.data[last] = big ? BigInt(sep) : sep;
      }
    }
    return out;
  }) as TokenizerLike;
  Object.setPrototypeOf(wrapped, tok);
  pipe.tokenizer = wrapped;
}
