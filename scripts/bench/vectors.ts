// The dense-vector part alone, in Node, same process, interleaved (each round times every method
// once on the same query, in rotating order): our exact int8 scan (WebAssembly SIMD, then the f32
// rescoring of its certified short list), the same with the JS int8 kernel, our tight f32 scan, a
// plain JS f32 brute force (`bruteForceF32P50Ms`), hnswlib-wasm (`hnswP50Ms`, recall@10 against
// exact), and the associative walk (assocHops 3, beam 2, 10 seeds) on the store's cached neighbour
// lists against the full f32 scan per expanded memory. Never fails on timings.
//
//   npm run bench:vectors -- --n 100000 [--dim 384] [--queries 30] [--json]
//   npm run bench:vectors -- --n 1000000 --int8-only   (the 1M plan: int8 codes only in memory)
//   npm run bench:vectors -- --ann --n 1000000 --data random|clustered [--dim 512] [--hnsw]
//     the approximate index (IVF) beside the exact scan: see vectors-ann.ts for its flags
//
// Data (seeded): clustered unit vectors (n / 50 random centres, each vector its centre plus uniform
// noise, cosine to the centre ~0.7, like sentence embeddings of related notes; random unit vectors
// would give every method meaningless neighbours), queries = stored vectors plus noise.
import { performance } from 'node:perf_hooks';
import { associate, buildNeighbourMatrix, matrixFromStore, resolveRecallOptions, type RecallResult } from '../../src/core/recall';
import { topKIndices } from '../../src/core/topk';
import { DenseStore, dotF32 } from '../../src/core/vectors';
import { median, percentile } from '../lib/metrics';
import { rng } from '../lib/synthetic';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const flag = (name: string) => process.argv.includes(`--${name}`);
const N = arg('n', 100000);
const DIM = arg('dim', 384);
const QUERIES = arg('queries', 30);
const JSON_OUT = flag('json');
const INT8_ONLY = flag('int8-only');
const WITH_HNSW = !flag('no-hnsw') && !INT8_ONLY;
const EF_CONSTRUCTION = arg('ef-construction', 100);
const log = (s: string) => {
  if (!JSON_OUT) console.log(s);
};
const mib = (b: number) => +(b / 2 ** 20).toFixed(1);

function unitOf(v: Float32Array): Float32Array {
  let s = 0;
  for (let j = 0; j < v.length; j++) s += v[j] * v[j];
  const inv = 1 / Math.sqrt(s);
  for (let j = 0; j < v.length; j++) v[j] *= inv;
  return v;
}

const rand = rng(42);
const centres = Array.from({ length: Math.max(1, Math.floor(N / 50)) }, () => unitOf(Float32Array.from({ length: DIM }, () => rand() - 0.5)));
// uniform(-0.5, 0.5) · 2 · noise per component: |noise| ~ 0.58, cosine to the centre ~0.87 and
// between two members of a cluster ~0.75, so the associative walk (cosine >= 0.72) has work to do
const noise = 1.0 / Math.sqrt(DIM);
function sample(i: number): Float32Array {
  const c = centres[i % centres.length];
  const v = new Float32Array(DIM);
  for (let j = 0; j < DIM; j++) v[j] = c[j] + (rand() - 0.5) * noise * 2;
  return unitOf(v);
}

const mem0 = process.memoryUsage();
const t0 = performance.now();
const store = new DenseStore({ dim: DIM, encoder: 'bench', keepFloat: !INT8_ONLY });
store.reserve(N);
const ids: string[] = new Array(N);
const plain: Float32Array[] | null = INT8_ONLY ? null : [];
for (let i = 0; i < N; i++) {
  const v = sample(i);
  ids[i] = `m${String(i).padStart(7, '0')}`;
  store.set(ids[i], v);
  plain?.push(v);
}
const fillMs = performance.now() - t0;
const mem1 = process.memoryUsage();
log(`n = ${N}, dim = ${DIM}, kernel ${store.kernel}, ${INT8_ONLY ? 'int8 only' : 'int8 + f32'}: filled in ${(fillMs / 1000).toFixed(1)} s; store ${mib(store.bytes)} MiB`);

const jsStore = INT8_ONLY ? null : new DenseStore({ dim: DIM, encoder: 'bench', kernel: 'js', keepFloat: false });
if (jsStore) for (let i = 0; i < N; i++) jsStore.set(ids[i], store.vectorAt(i));

const queries = Array.from({ length: QUERIES }, (_, i) => {
  const base = store.vectorAt(Math.floor((i * 7919) % N)).slice();
  for (let j = 0; j < DIM; j++) base[j] += (rand() - 0.5) * noise;
  return unitOf(base);
});

/** Our tight f32 scan: dotF32 over the contiguous rows, then the bounded top k. */
function f32Scan(q: Float32Array, k: number): string[] {
  const rows = store.floatRows()!;
  const scores = new Float64Array(N);
  for (let s = 0; s < N; s++) scores[s] = dotF32(q, rows, s * DIM, DIM);
  return topKIndices(scores, N, k, (s) => store.idAt(s)).map((s) => store.idAt(s));
}

/** What a plain JS implementation does: an array of Float32Array rows, cosine each, sort. */
function bruteForce(q: Float32Array, k: number): string[] {
  const out: { id: string; s: number }[] = [];
  for (let i = 0; i < plain!.length; i++) {
    const v = plain![i];
    let dot = 0;
    let qq = 0;
    let vv = 0;
    for (let j = 0; j < DIM; j++) {
      dot += q[j] * v[j];
      qq += q[j] * q[j];
      vv += v[j] * v[j];
    }
    out.push({ id: ids[i], s: dot / Math.sqrt(qq * vv) });
  }
  out.sort((a, b) => b.s - a.s);
  return out.slice(0, k).map((x) => x.id);
}

interface Hnsw {
  searchKnn(q: Float32Array, k: number, filter: undefined): { neighbors: number[] };
  setEfSearch(ef: number): void;
}
async function buildHnsw(): Promise<{ index: Hnsw; buildMs: number } | null> {
  try {
    // hnswlib-wasm is built for the web (its wasm is inlined, so nothing is fetched): in Node it
    // needs `window` and an IndexedDB (fake-indexeddb) for its file-system layer.
    await import('fake-indexeddb/auto' as string);
    (globalThis as { window?: unknown }).window ??= globalThis;
    const mod = (await import('hnswlib-wasm/dist/hnswlib.js' as string)) as { loadHnswlib: () => Promise<{ HierarchicalNSW: new (s: string, d: number, f: string) => Hnsw & { initIndex(n: number, m: number, ef: number, seed: number): void; addPoints(v: Float32Array[], l: number[], r: boolean): void } }> };
    const lib = await mod.loadHnswlib();
    const t = performance.now();
    const index = new lib.HierarchicalNSW('cosine', DIM, '');
    index.initIndex(N, 16, EF_CONSTRUCTION, 100);
    const batch = 5000;
    for (let i = 0; i < N; i += batch) {
      const vs: Float32Array[] = [];
      const ls: number[] = [];
      for (let j = i; j < Math.min(N, i + batch); j++) {
        vs.push(store.vectorAt(j));
        ls.push(j);
      }
      index.addPoints(vs, ls, false);
    }
    index.setEfSearch(64);
    return { index, buildMs: performance.now() - t };
  } catch (e) {
    log(`hnswlib-wasm not run: ${(e as Error).message}`);
    return null;
  }
}

const recallAt10 = (got: readonly string[], want: readonly string[]) => got.slice(0, 10).filter((id) => want.includes(id)).length / Math.min(10, want.length);

async function main(): Promise<void> {
  const hnsw = WITH_HNSW ? await buildHnsw() : null;
  if (hnsw) log(`hnswlib-wasm built (M 16, efConstruction ${EF_CONSTRUCTION}) in ${(hnsw.buildMs / 1000).toFixed(1)} s; efSearch 64`);

  type Method = { name: string; run: (q: Float32Array) => string[] };
  const methods: Method[] = [
    { name: 'int8Exact10', run: (q) => store.search(q, 10).map((h) => h.id) },
    { name: 'int8Exact500', run: (q) => store.search(q, 500).map((h) => h.id) },
  ];
  if (jsStore) methods.push({ name: 'int8JsApprox10', run: (q) => jsStore.search(q, 10).map((h) => h.id) });
  if (!INT8_ONLY) {
    methods.push({ name: 'f32Scan10', run: (q) => f32Scan(q, 10) });
    methods.push({ name: 'bruteForceF32', run: (q) => bruteForce(q, 10) });
  }
  if (hnsw) methods.push({ name: 'hnsw', run: (q) => hnsw.index.searchKnn(q, 10, undefined).neighbors.map((l) => ids[l]) });

  const times = new Map<string, number[]>(methods.map((m) => [m.name, []]));
  const recall = new Map<string, number[]>(methods.map((m) => [m.name, []]));
  for (const m of methods) m.run(queries[0]); // warm-up
  for (let qi = 0; qi < QUERIES; qi++) {
    const q = queries[qi];
    const exact = INT8_ONLY ? null : f32Scan(q, 10);
    for (let r = 0; r < methods.length; r++) {
      const m = methods[(qi + r) % methods.length];
      const t = performance.now();
      const got = m.run(q);
      times.get(m.name)!.push(performance.now() - t);
      if (exact) recall.get(m.name)!.push(recallAt10(got, exact));
    }
  }

  // associative walk: 10 seeds (the top 10 of a query), 3 hops, beam 2
  const o = resolveRecallOptions({ assocHops: 3, beamWidth: 2, minCosine: 0.72 });
  const walk: Record<string, number[]> = { cachedLists: [], fullScan: [] };
  let added = 0;
  let fallbacks = 0;
  const fullMatrix = INT8_ONLY || N > 200000 ? null : buildNeighbourMatrix(ids, (id) => store.vectorOf(id));
  // int8 only (the 1M plan): no f32 rows, so no neighbour lists; the walk is not measured there
  for (let qi = 0; qi < (INT8_ONLY ? 0 : Math.min(QUERIES, 10)); qi++) {
    const seeds: RecallResult[] = store.search(queries[qi], 10).map((h) => ({
      id: h.id,
      score: h.score,
      mode: 'standard',
      why: { lexical: 0, semantic: h.score, bm25: 0, cosine: h.score, matchedTerms: [] },
    }));
    const m = matrixFromStore(store, undefined, { fresh: true }); // per query: cold lists (the engine keeps its lists, updated by writes)
    let t = performance.now();
    const got = associate(seeds, { matrix: m, neighbours: m.neighbours && ((p, k, c, cl) => m.neighbours!.pick(p, k, c, cl)) }, o);
    walk.cachedLists.push(performance.now() - t);
    added += got.added;
    fallbacks += m.neighbours?.stats.fallbacks ?? 0;
    m.neighbours?.dispose();
    if (fullMatrix && qi < (N > 50000 ? 1 : 3)) {
      t = performance.now();
      associate(seeds, { matrix: fullMatrix }, o);
      walk.fullScan.push(performance.now() - t);
    }
  }
  const mem2 = process.memoryUsage();

  const row = (name: string) => {
    const ts = times.get(name);
    if (!ts || ts.length === 0) return null;
    const rc = recall.get(name)!;
    return { p50Ms: +median(ts).toFixed(2), p95Ms: +percentile(ts, 95).toFixed(2), recallAt10: rc.length ? +(rc.reduce((a, b) => a + b, 0) / rc.length).toFixed(3) : null };
  };
  const out = {
    n: N,
    dim: DIM,
    kernel: store.kernel,
    int8Only: INT8_ONLY,
    queries: QUERIES,
    fillMs: Math.round(fillMs),
    storeMiB: mib(store.bytes),
    heapDeltaMiB: mib(mem1.heapUsed - mem0.heapUsed),
    arrayBuffersDeltaMiB: mib(mem1.arrayBuffers - mem0.arrayBuffers),
    rssMiB: mib(mem2.rss),
    int8Exact10: row('int8Exact10'),
    int8Exact500: row('int8Exact500'),
    int8JsApprox10: row('int8JsApprox10'),
    f32Scan10: row('f32Scan10'),
    bruteForceF32P50Ms: row('bruteForceF32')?.p50Ms ?? null,
    hnswP50Ms: row('hnsw')?.p50Ms ?? null,
    hnswRecallAt10: row('hnsw')?.recallAt10 ?? null,
    hnswBuildMs: hnsw ? Math.round(hnsw.buildMs) : null,
    loadAverage: (await import('node:os')).loadavg().map((x) => +x.toFixed(2)),
    assocHops3P50Ms: walk.cachedLists.length ? +median(walk.cachedLists).toFixed(1) : null,
    assocHops3FullScanP50Ms: walk.fullScan.length ? +median(walk.fullScan).toFixed(1) : null,
    assocAddedPerQuery: walk.cachedLists.length ? +(added / walk.cachedLists.length).toFixed(1) : null,
    assocFallbacks: fallbacks,
    ratios: {} as Record<string, number | null>,
  };
  const ours = out.int8Exact10?.p50Ms ?? NaN;
  out.ratios = {
    bruteForceOverOurs: out.bruteForceF32P50Ms ? +(out.bruteForceF32P50Ms / ours).toFixed(2) : null,
    f32ScanOverOurs: out.f32Scan10 ? +(out.f32Scan10.p50Ms / ours).toFixed(2) : null,
    hnswOverOurs: out.hnswP50Ms ? +(out.hnswP50Ms / ours).toFixed(2) : null,
    jsInt8OverOurs: out.int8JsApprox10 ? +(out.int8JsApprox10.p50Ms / ours).toFixed(2) : null,
  };
  if (JSON_OUT) console.log(JSON.stringify(out));
  else console.log(out);
}

await main();
