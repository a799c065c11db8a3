// The baselines of the scale benchmark (issue 13), run in the bench page over the same corpus as
// the app: a plain JS f32 scan, a maintained HNSW (hnswlib-wasm: hnswlib compiled to WASM, its
// binary inlined in the package's JS, so it is served from the app's origin), and Orama's hybrid
// search (@orama/orama, BM25 + vector). Bench-only: imported by src/diagnostics/scale-page.ts,
// which only the bench build (MNEMOGRAPH_BENCH=1) bundles. Every function returns raw times; the
// Node driver summarises them.
import { loadHnswlib } from 'hnswlib-wasm/dist/hnswlib.js';
import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';

/**
 * A large corpus file read in parts (`<url>.part-000`, … written beside it by the driver: one 150 MB
 * answer through the driver's route took the whole browser down at 100k), else whole.
 */
export async function fetchParts(url: string): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (;;) {
    const r = await fetch(`${url}.part-${String(parts.length).padStart(3, '0')}`);
    if (r.status === 404) break;
    if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
    parts.push(new Uint8Array(await r.arrayBuffer()));
  }
  if (parts.length === 0) {
    const r = await fetch(url);
    if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
    return new Uint8Array(await r.arrayBuffer());
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts.splice(0)) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export interface BaselineQuery {
  text: string;
  vector: number[];
}

export interface ScanResult {
  times: number[];
  /** The exact top 10 (row indexes) per query, for the HNSW's recall. */
  top: number[][];
}

/** Top-k of one query over n rows of `dim` by a plain dot-product loop (unit vectors: cosine). */
export function scanTopK(data: Float32Array, dim: number, q: Float32Array, k: number): number[] {
  const n = data.length / dim;
  const best = new Float64Array(k).fill(-Infinity);
  const ids = new Int32Array(k).fill(-1);
  for (let r = 0; r < n; r++) {
    let s = 0;
    const o = r * dim;
    for (let j = 0; j < dim; j++) s += data[o + j] * q[j];
    if (s <= best[k - 1]) continue;
    let p = k - 1;
    while (p > 0 && best[p - 1] < s) {
      best[p] = best[p - 1];
      ids[p] = ids[p - 1];
      p--;
    }
    best[p] = s;
    ids[p] = r;
  }
  return Array.from(ids);
}

export function bruteForce(data: Float32Array, dim: number, queries: BaselineQuery[]): ScanResult {
  const times: number[] = [];
  const top: number[][] = [];
  for (const q of queries) {
    const v = Float32Array.from(q.vector);
    const t0 = performance.now();
    top.push(scanTopK(data, dim, v, 10));
    times.push(performance.now() - t0);
  }
  return { times, top };
}

export interface HnswResult {
  buildMs: number;
  times: number[];
  /** Mean |HNSW top 10 ∩ exact top 10| / 10. */
  recallAt10: number;
  params: { m: number; efConstruction: number; efSearch: number };
}

export async function hnsw(data: Float32Array, dim: number, queries: BaselineQuery[], exact: number[][]): Promise<HnswResult> {
  const params = { m: 16, efConstruction: 100, efSearch: 64 };
  const lib = await loadHnswlib();
  const n = data.length / dim;
  const index = new lib.HierarchicalNSW('cosine', dim, '');
  const t0 = performance.now();
  index.initIndex(n, params.m, params.efConstruction, 13);
  for (let r = 0; r < n; r++) index.addPoint(data.subarray(r * dim, (r + 1) * dim), r, false);
  const buildMs = performance.now() - t0;
  index.setEfSearch(params.efSearch);
  const times: number[] = [];
  let hits = 0;
  queries.forEach((q, i) => {
    const v = Float32Array.from(q.vector);
    const s = performance.now();
    const res = index.searchKnn(v, 10, undefined);
    times.push(performance.now() - s);
    const want = new Set(exact[i]);
    hits += res.neighbors.filter((id) => want.has(id)).length;
  });
  return { buildMs, times, recallAt10: hits / (10 * queries.length), params };
}

export interface OramaResult {
  buildMs: number;
  times: number[];
}

export async function orama(texts: string[], data: Float32Array, dim: number, queries: BaselineQuery[]): Promise<OramaResult> {
  const db: AnyOrama = create({ schema: { text: 'string', embedding: `vector[${dim}]` } as const });
  const t0 = performance.now();
  for (let b = 0; b < texts.length; b += 1000) {
    const docs = texts.slice(b, b + 1000).map((text, k) => ({ text, embedding: Array.from(data.subarray((b + k) * dim, (b + k + 1) * dim)) }));
    await insertMultiple(db, docs, 1000);
    // Orama's vector index holds its own Float32Array copy; its document store keeps our object, whose
    // number[] (8 bytes a value: 300 MB at 100k x 384) is then dropped: the lower-memory insert path
    for (const d of docs) d.embedding = [];
  }
  const buildMs = performance.now() - t0;
  const times: number[] = [];
  for (const q of queries) {
    const s = performance.now();
    await search(db, { mode: 'hybrid', term: q.text, vector: { value: q.vector, property: 'embedding' }, similarity: 0, limit: 10 });
    times.push(performance.now() - s);
  }
  return { buildMs, times };
}
