// The approximate-index bench, shared by Node (vectors-ann.ts, `npm run bench:vectors -- --ann`) and
// Chromium (vectors.html + src/diagnostics/vectors-page.ts): no Node or DOM imports here.
//
// One data set per run (seeded): `random` (isotropic unit vectors; queries fresh random vectors: the
// worst case for IVF, every neighbour is nearly as far as any other row) or `clustered` (n / 50
// centres, each vector its centre plus uniform noise, cosine ~0.75 within a cluster, like the
// sentence embeddings of related notes; queries a stored vector plus noise). Methods, interleaved per
// query in rotating order: the exact search (int8 SIMD + certified f32 rescoring, the truth for
// recall), the IVF index (k 10 and k 500, the hybrid's candidateK), and optionally hnswlib-wasm.
import { AnnIndex, DenseStore } from '../../src/core/vectors';
import { median, percentile } from '../lib/metrics';
import { rng, unit, unitVector } from '../lib/synthetic';

export interface AnnBenchConfig {
  n: number;
  dim: number;
  data: 'random' | 'clustered';
  queries: number;
  /** Keep the f32 rows (exact rescoring; the truth for recall). */
  keepFloat: boolean;
  seed?: number;
  lists?: number;
  targetRecall?: number;
  groupProbe?: number;
  log?: (s: string) => void;
  /** Optional extra method (hnswlib-wasm), built by the caller over the filled store. */
  extra?: (store: DenseStore) => Promise<{ name: string; buildMs: number; run: (q: Float32Array) => string[] } | null>;
  /** Bytes in use now (process or page), for the memory figures. */
  memory?: () => number;
  /** A last measurement while the store and the index are still alive (the page's full memory). */
  afterRun?: () => Promise<unknown>;
}

export interface MethodRow {
  p50Ms: number;
  p95Ms: number;
  recallAt10: number | null;
}

const mib = (b: number) => +(b / 2 ** 20).toFixed(1);

export function makeData(cfg: AnnBenchConfig): { next: (i: number) => Float32Array; query: (i: number, store: DenseStore) => Float32Array } {
  const rand = rng(cfg.seed ?? 42);
  const d = cfg.dim;
  if (cfg.data === 'random') return { next: () => unitVector(rand, d), query: () => unitVector(rand, d) };
  const centres = Array.from({ length: Math.max(1, Math.floor(cfg.n / 50)) }, () => unitVector(rand, d));
  const noise = 1.0 / Math.sqrt(d);
  return {
    next: (i) => {
      const c = centres[i % centres.length];
      const v = new Float32Array(d);
      for (let j = 0; j < d; j++) v[j] = c[j] + (rand() - 0.5) * noise * 2;
      return unit(v);
    },
    query: (i, store) => {
      const v = store.vectorAt(Math.floor((i * 7919) % store.size)).slice();
      for (let j = 0; j < d; j++) v[j] += (rand() - 0.5) * noise;
      return unit(v);
    },
  };
}

export async function runAnnBench(cfg: AnnBenchConfig) {
  const log = cfg.log ?? (() => {});
  const mem = cfg.memory ?? (() => 0);
  const data = makeData(cfg);
  const mem0 = mem();
  let t = performance.now();
  const store = new DenseStore({ dim: cfg.dim, encoder: 'bench', keepFloat: cfg.keepFloat });
  store.reserve(cfg.n);
  for (let i = 0; i < cfg.n; i++) store.set(`m${String(i).padStart(7, '0')}`, data.next(i));
  const fillMs = performance.now() - t;
  const memStore = mem();
  log(`${cfg.data} n = ${cfg.n} × ${cfg.dim}, kernel ${store.kernel}: filled in ${(fillMs / 1000).toFixed(1)} s, store ${mib(store.bytes)} MiB`);

  // the background build, driven step by step as the engine's timer would (each step timed)
  const steps: (() => void)[] = [];
  const ann = new AnnIndex(store, { threshold: 0, schedule: (s) => steps.push(s), lists: cfg.lists, targetRecall: cfg.targetRecall, groupProbe: cfg.groupProbe });
  t = performance.now();
  ann.start();
  const stepMs: number[] = [];
  while (steps.length > 0) {
    const s0 = performance.now();
    steps.shift()!();
    stepMs.push(performance.now() - s0);
  }
  const stepCount = stepMs.length;
  const longestStepMs = Math.max(...stepMs);
  const buildMs = performance.now() - t;
  const st = ann.status();
  log(`IVF built in ${(buildMs / 1000).toFixed(1)} s (${stepCount} steps, longest ${longestStepMs.toFixed(0)} ms): ${st.lists} lists, nprobe ${st.nprobe} (calibrated recall@10 ${st.calibratedRecall?.toFixed(3)}), +${mib(st.bytes)} MiB`);
  const memAnn = mem();

  const extra = cfg.extra ? await cfg.extra(store) : null;
  if (extra) log(`${extra.name} built in ${(extra.buildMs / 1000).toFixed(1)} s`);

  const ids = (hs: { id: string }[]) => hs.map((h) => h.id);
  let fallbacks = 0; // where the index does not pay, the exact search answers (as in the engine)
  const ivf = (q: Float32Array, k: number) => ann.search(q, k) ?? (fallbacks++, store.search(q, k));
  type Method = { name: string; k: number; run: (q: Float32Array) => string[] };
  const methods: Method[] = [
    { name: 'exact10', k: 10, run: (q) => ids(store.search(q, 10)) },
    { name: 'ivf10', k: 10, run: (q) => ids(ivf(q, 10)) },
    { name: 'exact500', k: 500, run: (q) => ids(store.search(q, 500)) },
    { name: 'ivf500', k: 500, run: (q) => ids(ivf(q, 500)) },
  ];
  if (extra) methods.push({ name: extra.name, k: 10, run: extra.run });
  const times = new Map<string, number[]>(methods.map((m) => [m.name, []]));
  const recall = new Map<string, number[]>(methods.map((m) => [m.name, []]));
  const queries = Array.from({ length: cfg.queries }, (_, i) => data.query(i, store));
  for (const m of methods) m.run(queries[0]);
  for (let qi = 0; qi < queries.length; qi++) {
    const q = queries[qi];
    const truth10 = ids(store.search(q, 10));
    const truth500 = new Set(ids(store.search(q, 500)));
    for (let r = 0; r < methods.length; r++) {
      const m = methods[(qi + r) % methods.length];
      const t1 = performance.now();
      const got = m.run(q);
      times.get(m.name)!.push(performance.now() - t1);
      const truth = m.k === 10 ? new Set(truth10) : truth500;
      recall.get(m.name)!.push(got.slice(0, m.k).filter((id) => truth.has(id)).length / truth.size);
    }
  }
  const row = (name: string): MethodRow => {
    const ts = times.get(name)!;
    const rc = recall.get(name)!;
    return { p50Ms: +median(ts).toFixed(2), p95Ms: +percentile(ts, 95).toFixed(2), recallAt10: +(rc.reduce((a, b) => a + b, 0) / rc.length).toFixed(3) };
  };
  const exact10 = row('exact10');
  const ivf10 = row('ivf10');
  const after = cfg.afterRun ? await cfg.afterRun() : null;
  if (store.size !== cfg.n || ann.state !== 'ready') throw new Error('the store or the index changed during the run');
  return {
    n: cfg.n,
    dim: cfg.dim,
    data: cfg.data,
    queries: cfg.queries,
    kernel: store.kernel,
    keepFloat: cfg.keepFloat,
    fillMs: Math.round(fillMs),
    storeMiB: mib(store.bytes),
    ivf: { buildMs: Math.round(buildMs), steps: stepCount, longestStepMs: +longestStepMs.toFixed(1), stepP99Ms: +percentile(stepMs, 99).toFixed(1), lists: st.lists, nprobe: st.nprobe, nprobeWide: st.nprobeWide, probedShare: +st.probedShare.toFixed(3), calibratedRecall: st.calibratedRecall, pays: st.probedShare <= 0.5, indexMiB: mib(st.bytes) },
    exact10,
    ivf10,
    exact500: row('exact500'),
    ivf500: { ...row('ivf500'), recallAt500: row('ivf500').recallAt10, recallAt10: undefined },
    extra: extra ? { name: extra.name, buildMs: Math.round(extra.buildMs), ...row(extra.name) } : null,
    fallbacksToExact: fallbacks,
    speedupIvf10: +(exact10.p50Ms / ivf10.p50Ms).toFixed(2),
    memoryMiB: { store: mib(memStore - mem0), ivf: mib(memAnn - memStore), total: mib(mem() - mem0) },
    after,
  };
}
