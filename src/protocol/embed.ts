// The embed worker's protocol: what the page sends and gets back, shared by the worker
// (workers/embed.worker.ts, workers/featurize-core.ts) and its client (src/bridge/embed-bridge.ts).
// The method signatures themselves are derived from the worker's `typeof api` (EmbedWorkerApi).

import { FEATURIZER_REVISION, RESOURCES_VERSION, type MediaText } from '../core/features';
import { FEATURE_FORMAT_VERSION, type SerializedFeatures } from '../core/spaces';
import type { SpaceId } from '../core/types';
import type { TokenMatrix } from '../core/pipeline';
import type { EncoderEntry } from '../embed/catalogue';

export type { SerializedFeatures };

/** One memory to featurize. */
export interface FeaturizeItem {
  text: string;
  createdAt: number;
  /** 0-based position of the memory within its session (E4). */
  sessionPosition: number;
  media?: readonly MediaText[];
  /** E1 when it is already known from the same encoder (the sample's stored vectors): the text is
   *  then not encoded again; its causal clauses and captions still are. */
  semantic?: Float32Array;
}

export interface FeaturizedItem {
  spaces: SerializedFeatures;
  /** The text was longer than the encoder's bounded prefix (Memory.embedTruncated). */
  truncated: boolean;
  /** The entity mentions E11 found in the text (the entity index takes them: no second NER pass). */
  entities?: EntityMentionOut[];
}

export interface EmbedInitOptions {
  /** Id of the encoder to run (src/embed/encoders.ts); default DEFAULT_ENCODER_ID (MiniLM). */
  encoder?: string;
  /**
   * Run this encoder instead when `encoder` cannot be loaded (its files absent, its runtime
   * failing); default FALLBACK_ENCODER_ID (USE-lite); null = fail instead.
   */
  fallbackEncoder?: string | null;
  /**
   * The catalogue entry of `encoder` when it is not a bundled one (a downloaded hub model, a
   * picked folder): the worker finds its files in Cache Storage (src/embed/model-store.ts).
   */
  entry?: EncoderEntry;
  /** USE-lite: folder with model.json, vocab.json and shards; default `${BASE_URL}models/use-lite/`. */
  modelUrl?: string;
  /** USE-lite: folder with the tfjs .wasm files; default `${BASE_URL}wasm/`. */
  wasmPath?: string;
  /** Transformers.js models: the folder (an absolute path on this origin, not a URL) holding `<model folder>/config.json`...; default `${BASE_URL}models/`. */
  modelsUrl?: string;
  /** Transformers.js: folder with onnxruntime-web's .mjs + .wasm; default `${BASE_URL}ort/`. */
  ortPath?: string;
  /** Transformers.js on WASM: threads (default: up to 4 under cross-origin isolation, else 1). */
  wasmThreads?: number;
  /** Transformers.js: onnxruntime's build: default 'plain' (WASM only, 14 MB) where WebGPU will not be tried, else 'asyncify' (27 MB, WebGPU and WASM); set for comparisons. */
  ortBuild?: 'asyncify' | 'plain';
  /** Transformers.js: onnxruntime's graph optimisation at session creation (default: onnxruntime's, 'all'). */
  graphOptimization?: 'disabled' | 'basic' | 'extended' | 'all';
  /** 'auto' (default): WebGPU if it works here, else WASM. */
  backend?: 'auto' | 'webgpu' | 'wasm';
  /** Transformers.js: texts per model call at most (default 32) and padded tokens per call at most (default 1024); set for comparisons. */
  batchSize?: number;
  tokenBudget?: number;
  /**
   * The bridge's, not the worker's: encoder workers for large calls (an import's featurizing, a
   * long embed): 2 = a helper worker (one WASM thread) beside the main one while such a call runs,
   * when the main encoder runs on WASM (src/bridge/embed-bridge.ts, encoderWorkers). Default 1.
   */
  encoderWorkers?: number;
  /** The bridge's: a featurize call cuts its chunks after sorting the items by length (default on; false = the items' order, for comparisons). */
  sortChunks?: boolean;
  /** Transformers.js on WASM with threads: whether onnxruntime's pool threads spin between ops (default: onnxruntime's, on); set for comparisons. */
  spinning?: boolean;
  /**
   * A WebGPU warm-up slower than this falls back to WASM ('auto', default 30 s) or fails
   * ('webgpu', default 120 s: asked for explicitly, a slow adapter is still what was wanted).
   */
  webgpuWarmUpTimeoutMs?: number;
  /**
   * 'auto' declines a software fallback adapter (SwiftShader: about 30x slower than WASM here);
   * true tries it anyway. 'webgpu' always accepts one.
   */
  allowSoftwareWebGpu?: boolean;
}

/** The spaces the sentence encoder produces: their stored rows carry the encoder's id as `model`. */
export const ENCODER_SPACES: readonly SpaceId[] = ['E1', 'E5', 'E10'];

export const isEncoderSpace = (s: SpaceId): boolean => ENCODER_SPACES.includes(s);

/**
 * Id of the lexical featurizers + their resources: the `model` of the stored rows of every space
 * the encoder does not produce. A row with another id is stale and is recomputed.
 */
export const LEXICAL_ID = `spaces/f${FEATURE_FORMAT_VERSION}-r${RESOURCES_VERSION}-v${FEATURIZER_REVISION}`;

/** Computes the thirteen spaces (the embed bridge in the app; a local featurizer in tests and Node). */
export interface SpaceFeaturizer {
  /** Id stored as `model` on the non-encoder rows; rows with another id are stale. */
  lexicalId(): string;
  featurize(items: FeaturizeItem[], signal?: AbortSignal): Promise<FeaturizedItem[]>;
  featurizeQuery(text: string, signal?: AbortSignal): Promise<SerializedFeatures>;
  /**
   * The named entities of each text (the E11 recogniser: wink NER + capitalised phrases), for the
   * entity index. Absent: the services fall back to the core's capitalised-phrase heuristic.
   */
  entities?(texts: string[], signal?: AbortSignal): Promise<EntityMentionOut[][]>;
  /**
   * multiQuery, offline provider: up to `count` reworded variants of `query` (src/core/query
   * OfflineTransformer over the bundled word lists; `feedback` = the first pass's best texts),
   * each with its query vector (E1).
   */
  queryVariants?(query: string, count: number, feedback: string[], signal?: AbortSignal): Promise<QueryVariant[]>;
  /**
   * Late interaction (src/core/pipeline/late-interaction.ts): each text's token matrix, computed
   * as the eval does (src/embed/token-matrix.ts); null when the encoder has no token outputs
   * (USE-lite). `idsOnly`: the tokenizer alone, vectors empty (the idf of the query's tokens).
   * Absent: the app ranks without late interaction.
   */
  tokens?(texts: string[], signal?: AbortSignal, idsOnly?: boolean): Promise<TokenMatrix[] | null>;
}

/** One recognised entity mention (src/core/features EntityMention). */
export interface EntityMentionOut {
  text: string;
  type: string;
  start?: number;
}

export interface QueryVariant {
  text: string;
  vector: Float32Array | null;
}
