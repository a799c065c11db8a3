// Token matrices for late interaction (src/core/pipeline/late-interaction.ts): a text's un-pooled
// last hidden states from a Transformers.js encoder, special tokens (and a leading speaker label)
// removed. One function for Node (scripts/lib/token-cache.ts, the eval) and the embed worker (the
// app), so the eval and the app cannot compute them differently. Each text runs alone (no padding
// to a batch's longest), un-normalised, without the model's query prefix: exactly what the eval's
// figures were measured with. USE-lite has no token outputs.
import { AppError } from '../core/errors';
import { speakerLabel, type TokenMatrix } from '../core/pipeline';

/** BERT-family special tokens ([PAD], [UNK] kept, [CLS], [SEP], [MASK]) never take part in MaxSim. */
const SPECIAL = new Set([0, 101, 102, 103]);
/** The vocabulary id of ':' in the BERT uncased vocabulary (MiniLM's). */
const COLON = 1024;
/** The tokenizer's window (MiniLM's 256). */
export const TOKEN_MAX_LENGTH = 256;

/**
 * The matrix MaxSim reads from a model's raw output for one text: special tokens dropped, and for
 * a text that opens with a speaker label ("Caroline: ...") the label and its colon too (every turn
 * of that speaker holds them: they say who spoke, not what about; the speaker stage weighs that).
 */
export function tokenMatrixOf(text: string, ids: readonly number[], data: Float32Array, dim: number): TokenMatrix {
  let start = 0;
  if (speakerLabel(text) !== undefined) {
    const colon = ids.slice(0, 8).indexOf(COLON);
    if (colon >= 0) start = colon + 1;
  }
  const keep: number[] = [];
  for (let i = start; i < ids.length; i++) if (!SPECIAL.has(ids[i])) keep.push(i);
  const vectors = new Float32Array(keep.length * dim);
  keep.forEach((row, k) => vectors.set(data.subarray(row * dim, (row + 1) * dim), k * dim));
  return { ids: keep.map((i) => ids[i]), vectors, dim };
}

/** A feature-extraction pipeline as far as token outputs go (Transformers.js's, in Node or a worker). */
export interface TokenExtractor {
  (texts: string[], options: { pooling: 'none'; normalize: false }): Promise<{ data: ArrayLike<number>; dims: readonly number[]; dispose?(): void }>;
  tokenizer: (text: string, options: { truncation: true; max_length: number }) => { input_ids: { data: ArrayLike<bigint | number> } };
}

/** One text's raw token output: its token ids and their last hidden states (row-major, `dim` wide). */
export async function rawTokens(fe: TokenExtractor, text: string, dim: number): Promise<{ ids: number[]; data: Float32Array }> {
  const out = await fe([text], { pooling: 'none', normalize: false });
  try {
    const n = out.dims[1];
    if (out.dims.length !== 3 || out.dims[0] !== 1 || out.dims[2] !== dim) {
      throw new AppError('MODEL_LOAD_FAILED', undefined, `unexpected token output shape [${out.dims.join(',')}]`);
    }
    const ids = Array.from(fe.tokenizer(text, { truncation: true, max_length: TOKEN_MAX_LENGTH }).input_ids.data, Number);
    if (ids.length !== n) throw new AppError('MODEL_LOAD_FAILED', undefined, `token count ${ids.length} != ${n}`);
    return { ids, data: Float32Array.from({ length: n * dim }, (_, i) => out.data[i]) };
  } finally {
    out.dispose?.();
  }
}

/**
 * The token matrices of `texts` (one model call each), as the eval computes them. `idsOnly`: the
 * tokenizer alone (no model call), vectors empty: enough for the idf of late interaction's query
 * tokens over candidates it does not re-score.
 */
export async function tokenMatricesOf(fe: TokenExtractor, texts: readonly string[], dim: number, signal?: AbortSignal, idsOnly = false): Promise<TokenMatrix[]> {
  const out: TokenMatrix[] = [];
  for (const t of texts) {
    if (signal?.aborted) throw new AppError('ABORTED');
    if (typeof t !== 'string' || t.length === 0) throw new AppError('EMPTY_TEXT', undefined, 'token matrices need non-empty texts');
    if (idsOnly) {
      const ids = Array.from(fe.tokenizer(t, { truncation: true, max_length: TOKEN_MAX_LENGTH }).input_ids.data, Number);
      out.push({ ...tokenMatrixOf(t, ids, new Float32Array(0), 0), dim });
      continue;
    }
    const raw = await rawTokens(fe, t, dim);
    out.push(tokenMatrixOf(t, raw.ids, raw.data, dim));
  }
  return out;
}
