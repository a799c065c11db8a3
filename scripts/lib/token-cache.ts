// Token-level encoder outputs for the eval's late-interaction stage (src/core/pipeline/
// late-interaction.ts): the un-pooled last hidden state of the same ONNX model the app runs,
// through Transformers.js (pooling 'none'), in Node. Cached on disk beside the sentence vectors
// (~/.cache/mnemograph/tokens/, MNEMOGRAPH_TOKEN_CACHE overrides), an append-only log of records
// [32-byte sha256(model id + text)][u32 n][n x i32 token ids][n x dim f32], read fully on first use.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { TokenMatrix } from '../../src/core/pipeline';
import { rawTokens, tokenMatrixOf, type TokenExtractor } from '../../src/embed/token-matrix';
import type { EncoderMeta } from '../../src/embed/encoders';
import { nodeTransformersModule } from './node-transformers';

export { tokenMatrixOf };

export const TOKEN_CACHE_DIR = process.env.MNEMOGRAPH_TOKEN_CACHE || join(homedir(), '.cache', 'mnemograph', 'tokens');

interface Raw {
  ids: number[];
  data: Float32Array;
}

const stores = new Map<string, Map<string, Raw>>();

function key(modelId: string, text: string): string {
  return createHash('sha256').update(modelId).update('\u0000').update(text).digest('hex');
}

function open(file: string, dim: number): Map<string, Raw> {
  let map = stores.get(file);
  if (map) return map;
  map = new Map();
  if (existsSync(file)) {
    const buf = readFileSync(file);
    let at = 0;
    while (at + 36 <= buf.length) {
      const n = buf.readUInt32LE(at + 32);
      const end = at + 36 + n * 4 + n * dim * 4;
      if (end > buf.length) break; // a torn last record is ignored
      const ids = Array.from({ length: n }, (_, i) => buf.readInt32LE(at + 36 + i * 4));
      const data = new Float32Array(n * dim);
      new Uint8Array(data.buffer).set(buf.subarray(at + 36 + n * 4, end));
      map.set(buf.subarray(at, at + 32).toString('hex'), { ids, data });
      at = end;
    }
  }
  stores.set(file, map);
  return map;
}

/** Token matrices for `texts` under the Transformers.js model `meta` (native CPU), cached. */
export async function tokenMatrices(meta: EncoderMeta, texts: readonly string[], onProgress?: (done: number, total: number) => void): Promise<TokenMatrix[]> {
  const dim = meta.dim;
  mkdirSync(TOKEN_CACHE_DIR, { recursive: true });
  const file = join(TOKEN_CACHE_DIR, `${meta.id.replace(/[^A-Za-z0-9._-]+/g, '_')}.${dim}.tok`);
  const map = open(file, dim);
  const missing = [...new Set(texts.filter((t) => !map.has(key(meta.id, t))))];
  if (missing.length > 0) {
    // the process's runtime (native CPU, or WASM under MNEMOGRAPH_NODE_RUNTIME=wasm: the browser's kernels)
    const { tjs, runtime } = await nodeTransformersModule();
    const device = runtime === 'wasm' ? { device: 'auto', session_options: { executionProviders: ['wasm'] } } : { device: 'cpu' };
    const fe = (await tjs.pipeline('feature-extraction', meta.folder ?? meta.id, { ...device, dtype: meta.dtype ?? 'fp32' })) as TokenExtractor;
    let done = 0;
    for (const t of missing) {
      // the same function as the app's embed worker (src/embed/token-matrix.ts)
      const { ids, data } = await rawTokens(fe, t, dim);
      const n = ids.length;
      const head = Buffer.alloc(36 + n * 4);
      Buffer.from(key(meta.id, t), 'hex').copy(head, 0);
      head.writeUInt32LE(n, 32);
      ids.forEach((id, i) => head.writeInt32LE(id, 36 + i * 4));
      appendFileSync(file, Buffer.concat([head, Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
      map.set(key(meta.id, t), { ids, data });
      if (++done % 250 === 0) onProgress?.(done, missing.length);
    }
  }
  return texts.map((t) => {
    const raw = map.get(key(meta.id, t))!;
    return tokenMatrixOf(t, raw.ids, raw.data, dim);
  });
}
