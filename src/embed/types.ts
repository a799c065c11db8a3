// The encoder seen from the rest of the app: texts in, L2-normalised vectors out.
// Shared by the worker, the bridge (which implements Embedder over Comlink) and Node scripts.

export type EmbedBackend = 'webgpu' | 'wasm' | 'cpu';

export interface EmbedderInfo {
  /** Stable id of model + preprocessing; vectors from different ids must never be mixed. */
  id: string;
  name: string;
  dim: number;
  backend: EmbedBackend;
  /** Texts longer than this are cut to a prefix before encoding (see prepareForEmbedding). */
  maxInputChars: number;
}

export interface Embedder {
  /** One L2-normalised Float32Array(dim) per text, in input order. Rejects with AppError. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  /**
   * As `embed`, for search queries: models with a query prefix (e5, bge, nomic) put it before
   * each text. Absent = `embed` (MiniLM and USE-lite have none).
   */
  embedQueries?(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  info(): EmbedderInfo;
}

/** The embedder's query embedding (`embedQueries` when it has one, else `embed`). */
export function embedQueries(e: Embedder, texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
  return e.embedQueries ? e.embedQueries(texts, signal) : e.embed(texts, signal);
}

export type EmbedLoadPhase = 'fetching-model' | 'warming-up' | 'ready' | 'error';

export interface EmbedLoadProgress {
  phase: EmbedLoadPhase;
  /** Bytes fetched so far / in total (phase 'fetching-model'). */
  loaded?: number;
  total?: number;
  backend?: EmbedBackend;
  /** Id of the encoder being loaded / running (src/embed/encoders.ts); absent before the worker chose. */
  encoder?: string;
  message?: string;
  /** On 'ready': the worker's start-up marks, name -> ms since it started (workers/startup-marks.ts). */
  timings?: Record<string, number>;
}

export const USE_LITE_ID = 'use-lite-en/v1';
export const USE_LITE_NAME = 'Universal Sentence Encoder Lite (en)';
export const USE_LITE_DIM = 512;

/**
 * The USE-lite graph reads at most this many tokens of a text and ignores the rest (measured:
 * appending words after token 128 leaves the vector bit-identical). The wrapper drops them
 * before the model call so long texts cost no more than 128-token ones.
 */
export const USE_LITE_MAX_TOKENS = 128;

/**
 * Texts are cut to this many UTF-16 code units before tokenising. The model's own window is
 * 128 tokens; English runs at 3-5 characters per token (3.1 measured on mixed prose), so the
 * window ends around 400-650 characters, and reaching 2,000 characters within 128 tokens
 * would take an average of 15.6 characters per token (the longest piece is 16). So this cut
 * practically never removes anything the model would have read; what it bounds is the work
 * done before the model (NFKC, tokenising, copying to the worker) on a pasted essay or log.
 * `truncated` is therefore conservative: true means "longer than the bounded prefix"; the
 * model may already have stopped reading earlier (see USE_LITE_MAX_TOKENS).
 */
export const MAX_EMBED_CHARS = 2000;

/** Cut text to the bounded prefix, at a word boundary when one is near, never inside a surrogate pair. */
export function prepareForEmbedding(text: string): { text: string; truncated: boolean } {
  if (text.length <= MAX_EMBED_CHARS) return { text, truncated: false };
  let end = MAX_EMBED_CHARS;
  const before = text.charCodeAt(end - 1);
  if (before >= 0xd800 && before <= 0xdbff) end--; // would split a surrogate pair
  // Prefer the last whitespace in the final 10% so the prefix ends on a whole word.
  const floor = Math.floor(MAX_EMBED_CHARS * 0.9);
  for (let i = end; i > floor; i--) {
    if (/\s/.test(text[i] ?? '')) {
      end = i;
      break;
    }
  }
  return { text: text.slice(0, end).trimEnd(), truncated: true };
}
