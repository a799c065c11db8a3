// On-disk cache of sentence vectors for Node scripts (the LoCoMo eval embeds thousands of
// texts): one file per model under ~/.cache/mnemograph/embeddings/ (MNEMOGRAPH_EMBED_CACHE
// overrides; outside the repository, so every checkout shares it), keyed by sha256(model id + text),
// or sha256(model id + '@' + version + text) when the caller names a version (the SHA-256 of the
// model file: a rebuilt graph under the same id never reuses the old graph's vectors).
// Format: a JSONL index would be slow to rewrite, so the cache is an append-only binary log
// of records [32-byte key][dim float32], read fully on first use.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Embedder } from '../../src/embed/types';

export const DEFAULT_CACHE_DIR = process.env.MNEMOGRAPH_EMBED_CACHE || join(homedir(), '.cache', 'mnemograph', 'embeddings');

interface Store {
  file: string;
  dim: number;
  map: Map<string, Float32Array>;
}
const stores = new Map<string, Store>();

export function cacheKey(modelId: string, text: string, version?: string): Buffer {
  return createHash('sha256')
    .update(version ? `${modelId}@${version}` : modelId)
    .update('\u0000')
    .update(text)
    .digest();
}

function openStore(dir: string, modelId: string, dim: number): Store {
  const file = join(dir, `${modelId.replace(/[^A-Za-z0-9._-]+/g, '_')}.${dim}.bin`);
  let store = stores.get(file);
  if (store) return store;
  store = { file, dim, map: new Map() };
  if (existsSync(file)) {
    const buf = readFileSync(file);
    const rec = 32 + dim * 4;
    // A torn last record (interrupted run) is ignored, not trusted.
    for (let at = 0; at + rec <= buf.length; at += rec) {
      const key = buf.subarray(at, at + 32).toString('hex');
      const v = new Float32Array(dim);
      new Uint8Array(v.buffer).set(buf.subarray(at + 32, at + rec));
      store.map.set(key, v);
    }
  }
  stores.set(file, store);
  return store;
}

export interface EmbedCachedOptions {
  dir?: string;
  /** Texts sent to the encoder per call (default 256). */
  chunk?: number;
  /** What else names the model's weights (the model file's SHA-256): part of every key when given. */
  version?: string;
  onProgress?: (done: number, total: number) => void;
}

/** Vectors for `texts` (input order), embedding only those not cached yet; returns copies. */
export async function embedCached(encoder: Embedder, texts: string[], opts: EmbedCachedOptions = {}): Promise<Float32Array[]> {
  const { id, dim } = encoder.info();
  const dir = opts.dir ?? DEFAULT_CACHE_DIR;
  mkdirSync(dir, { recursive: true });
  const store = openStore(dir, id, dim);
  const keys = texts.map((t) => cacheKey(id, t, opts.version));
  const missing: number[] = [];
  const seen = new Set<string>();
  keys.forEach((k, i) => {
    const hex = k.toString('hex');
    if (!store.map.has(hex) && !seen.has(hex)) {
      seen.add(hex);
      missing.push(i);
    }
  });
  const chunk = opts.chunk ?? 256;
  for (let s = 0; s < missing.length; s += chunk) {
    const idx = missing.slice(s, s + chunk);
    const vectors = await encoder.embed(idx.map((i) => texts[i]));
    const parts: Buffer[] = [];
    idx.forEach((i, j) => {
      const v = vectors[j];
      if (v.length !== dim) throw new Error(`embedCached: encoder returned ${v.length} dims, expected ${dim}`);
      store.map.set(keys[i].toString('hex'), v);
      parts.push(keys[i], Buffer.from(v.buffer, v.byteOffset, v.byteLength));
    });
    appendFileSync(store.file, Buffer.concat(parts));
    opts.onProgress?.(Math.min(s + chunk, missing.length), missing.length);
  }
  return keys.map((k) => store.map.get(k.toString('hex'))!.slice());
}

/** Forget the in-memory copy (tests). */
export function resetEmbeddingCacheMemory(): void {
  stores.clear();
}
