// Any encoder the app knows, in Node, by id (or alias: minilm, use-lite): USE-lite on tfjs WASM
// (node-encoder.ts), Transformers.js models on onnxruntime (node-transformers.ts).
import { AppError } from '../../src/core/errors';
import { DEFAULT_ENCODER_ID, ENCODERS, encoderMeta, type EncoderMeta } from '../../src/embed/encoders';
import type { Embedder } from '../../src/embed/types';

export interface NodeEmbedder extends Embedder {
  meta: EncoderMeta;
  /** The encoder for search queries (the model's query prefix; the same encoder when it has none). */
  queries: Embedder;
  dispose(): void | Promise<void>;
}

export function resolveEncoder(id: string = DEFAULT_ENCODER_ID): EncoderMeta {
  const meta = encoderMeta(id);
  if (!meta) throw new AppError('INVALID_OPTION', `Unknown encoder ${id} (known: ${ENCODERS.map((e) => e.id).join(', ')}; aliases minilm, use-lite)`);
  return meta;
}

export async function loadNodeEmbedder(id?: string, opts: { batchSize?: number; runtime?: 'cpu' | 'wasm' | 'auto' } = {}): Promise<NodeEmbedder> {
  const meta = resolveEncoder(id);
  if (meta.runtime === 'tfjs') {
    const { loadNodeEncoder } = await import('./node-encoder');
    const enc = await loadNodeEncoder({ batchSize: opts.batchSize });
    return { embed: enc.embed, info: enc.info, meta, queries: enc, dispose: () => enc.dispose() };
  }
  const { loadNodeTransformers } = await import('./node-transformers');
  const enc = await loadNodeTransformers(meta, opts);
  return { embed: enc.embed, info: enc.info, meta, queries: enc.forQueries(), dispose: () => enc.dispose() };
}
