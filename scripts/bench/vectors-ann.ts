// `npm run bench:vectors -- --ann [...]`: the approximate index (IVF, src/core/vectors/ann.ts) beside
// the exact int8 scan, in Node, one process, methods interleaved per query (ann-core.ts says how).
//
//   npm run bench:vectors -- --ann --n 1000000 --dim 384 --data clustered [--queries 40] [--json]
//     --data random|clustered   random unit vectors (IVF's worst case) or the clustered set
//     --lists L                 IVF lists (default round(√n))
//     --target-recall R         the recall@10 nprobe is calibrated to (default 0.97)
//     --group-probe G           centroid groups an assignment looks into (default ⌈√lists / 4⌉)
//     --int8-only               no f32 rows (the truth is then the int8 estimate)
//     --hnsw                    also hnswlib-wasm (M 16, --ef-construction 100, efSearch 64); slow to build
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { DenseStore } from '../../src/core/vectors';
import { runAnnBench } from './ann-core';

const argv = process.argv;
const arg = (name: string, fallback: number): number => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const str = (name: string, fallback: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const JSON_OUT = argv.includes('--json');
const data = str('data', 'clustered');
if (data !== 'random' && data !== 'clustered') throw new Error(`--data must be random or clustered (got ${data})`);

interface Hnsw {
  initIndex(n: number, m: number, ef: number, seed: number): void;
  addPoints(v: Float32Array[], l: number[], r: boolean): void;
  searchKnn(q: Float32Array, k: number, filter: undefined): { neighbors: number[] };
  setEfSearch(ef: number): void;
}

async function hnsw(store: DenseStore) {
  // hnswlib-wasm is built for the web (its wasm inlined): in Node it needs `window` and an IndexedDB
  await import('fake-indexeddb/auto' as string);
  (globalThis as { window?: unknown }).window ??= globalThis;
  const mod = (await import('hnswlib-wasm/dist/hnswlib.js' as string)) as { loadHnswlib: () => Promise<{ HierarchicalNSW: new (s: string, d: number, f: string) => Hnsw }> };
  const lib = await mod.loadHnswlib();
  const t = performance.now();
  const index = new lib.HierarchicalNSW('cosine', store.dim, '');
  index.initIndex(store.size, 16, arg('ef-construction', 100), 100);
  for (let i = 0; i < store.size; i += 5000) {
    const vs: Float32Array[] = [];
    const ls: number[] = [];
    for (let j = i; j < Math.min(store.size, i + 5000); j++) {
      vs.push(store.vectorAt(j));
      ls.push(j);
    }
    index.addPoints(vs, ls, false);
  }
  index.setEfSearch(64);
  return { name: 'hnswlibWasm', buildMs: performance.now() - t, run: (q: Float32Array) => index.searchKnn(q, 10, undefined).neighbors.map((l) => store.idAt(l)) };
}

const load0 = os.loadavg();
const out = await runAnnBench({
  n: arg('n', 100000),
  dim: arg('dim', 384),
  data,
  queries: arg('queries', 40),
  keepFloat: !argv.includes('--int8-only'),
  lists: arg('lists', 0) || undefined,
  targetRecall: arg('target-recall', 0) || undefined,
  groupProbe: arg('group-probe', 0) || undefined,
  log: (s) => {
    if (!JSON_OUT) console.log(s);
  },
  extra: argv.includes('--hnsw') ? hnsw : undefined,
  memory: () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  },
});
const result = { ...out, rssMiB: +(process.memoryUsage().rss / 2 ** 20).toFixed(1), loadAverage: [load0, os.loadavg()].map((l) => l.map((x) => +x.toFixed(1))) };
console.log(JSON_OUT ? JSON.stringify(result) : result);
