// Fetches USE-lite (model.json, its shards, vocab.json) from the app's own origin with byte
// progress. Used by the embed worker; nothing here touches the DOM or a CDN.
import type { io } from '@tensorflow/tfjs-core';
import { AppError } from '../core/errors';
import type { Vocabulary } from '../core/tokenizer';
import { parseModelJson, shardPaths, toArtifacts } from './artifacts';

export interface FetchedUseLite {
  artifacts: io.ModelArtifacts;
  vocabulary: Vocabulary;
  bytes: number;
}

export type ByteProgress = (loaded: number, total: number | undefined) => void;

async function get(fetchImpl: typeof fetch, url: string, signal?: AbortSignal): Promise<Response> {
  let res: Response;
  try {
    res = await fetchImpl(url, { signal });
  } catch (e) {
    throw new AppError('MODEL_LOAD_FAILED', undefined, `${url}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!res.ok) throw new AppError('MODEL_LOAD_FAILED', undefined, `${url}: HTTP ${res.status}`);
  return res;
}

/** Reads a body chunk by chunk, calling onChunk with each chunk's size. */
async function readBody(res: Response, onChunk: (n: number) => void): Promise<ArrayBuffer> {
  if (!res.body) {
    const b = await res.arrayBuffer();
    onChunk(b.byteLength);
    return b;
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    onChunk(value.byteLength);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out.buffer;
}

/**
 * @param baseUrl folder holding model.json, vocab.json and the shards, ending with '/'.
 * Progress totals are known once every response's headers are in (Content-Length); until
 * then, or without that header, `total` is undefined.
 */
export async function fetchUseLite(
  baseUrl: string,
  onProgress: ByteProgress = () => undefined,
  fetchImpl: typeof fetch = fetch,
  signal?: AbortSignal,
): Promise<FetchedUseLite> {
  let loaded = 0;
  let total: number | undefined;
  const tick = (n: number) => {
    loaded += n;
    onProgress(loaded, total);
  };
  const [modelRes, vocabRes] = await Promise.all([
    get(fetchImpl, baseUrl + 'model.json', signal),
    get(fetchImpl, baseUrl + 'vocab.json', signal),
  ]);
  const modelBuf = await readBody(modelRes, tick);
  let model;
  try {
    model = parseModelJson(JSON.parse(new TextDecoder().decode(modelBuf)));
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError('MODEL_LOAD_FAILED', undefined, `model.json is not valid JSON`);
  }
  const shardRes = await Promise.all(shardPaths(model).map((p) => get(fetchImpl, baseUrl + p, signal)));
  const lengths = [vocabRes, ...shardRes].map((r) => Number(r.headers.get('content-length')));
  if (lengths.every((n) => Number.isFinite(n) && n > 0)) {
    total = modelBuf.byteLength + lengths.reduce((a, b) => a + b, 0);
  }
  const [vocabBuf, ...shards] = await Promise.all([vocabRes, ...shardRes].map((r) => readBody(r, tick)));
  let vocabulary: Vocabulary;
  try {
    vocabulary = JSON.parse(new TextDecoder().decode(vocabBuf)) as Vocabulary;
  } catch {
    throw new AppError('MODEL_LOAD_FAILED', undefined, 'vocab.json is not valid JSON');
  }
  if (!Array.isArray(vocabulary) || vocabulary.length < 7) {
    throw new AppError('MODEL_LOAD_FAILED', undefined, 'vocab.json is not a list of [piece, score]');
  }
  onProgress(loaded, loaded);
  return { artifacts: toArtifacts(model, shards), vocabulary, bytes: loaded };
}
