// The workers in Debian's Chromium, from the production build: encoder load time and backend,
// memories/s embedded at batch 1 and 32 (embed worker), and query latency through the ENGINE
// worker at 1k and 10k synthetic memories (end to end through the bridge, and inside the worker),
// plus the page's JS heap. Prints a table; never fails on a timing.
//
//   npx tsx scripts/bench/browser.ts           (builds dist/ first if dist/diagnostics.html is missing)
//   BROWSER_BENCH_DIST=/some/dist npx tsx scripts/bench/browser.ts
//   BROWSER_BENCH_BACKEND=wasm|webgpu|auto (default wasm: headless Chromium has no WebGPU adapter)
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { serveStatic } from '../lib/static-server';
import type { EngineBenchResult, LatencySummary } from '../../src/diagnostics/engine-bench';

const ROOT = resolve(import.meta.dirname ?? '.', '../..');
const SIZES = [1000, 10000];
const QUERIES = 100;
const EMBED_TEXTS = 200;

/**
 * A diagnostics-only build (no PWA, no React plugin: the page is plain TS) with the same worker
 * settings as vite.config.ts, for when the full app build cannot run (another entry mid-edit).
 */
function diagnosticsOnlyConfig(outDir: string): string {
  const file = join(tmpdir(), `mnemo-bench-vite-${process.pid}.config.mjs`);
  writeFileSync(
    file,
    `export default ${JSON.stringify({
      root: ROOT,
      configFile: false,
      worker: { format: 'es', rolldownOptions: { output: { minify: { compress: false, mangle: true } } } },
      build: {
        target: 'es2022',
        outDir,
        emptyOutDir: true,
        chunkSizeWarningLimit: 4096,
        rolldownOptions: { input: { diagnostics: join(ROOT, 'diagnostics.html') } },
      },
    })};\n`,
  );
  return file;
}

/** The directory to serve: `dist` when it has (or a build gives it) diagnostics.html, else a temp build. */
function ensureBuild(dist: string): string {
  if (existsSync(join(dist, 'diagnostics.html'))) return dist;
  console.log(`[bench:browser] ${dist}/diagnostics.html is missing: copying model assets and running npx vite build`);
  const a = spawnSync('node', ['scripts/copy-assets.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (a.status !== 0) throw new Error('scripts/copy-assets.mjs failed; see the output above');
  spawnSync('node', ['scripts/fetch-models.mjs'], { cwd: ROOT, stdio: 'inherit' }); // MiniLM; without it the page runs USE-lite
  const out = resolve(dist) === resolve(ROOT, 'dist') ? [] : ['--outDir', dist, '--emptyOutDir'];
  const b = spawnSync('npx', ['vite', 'build', ...out], { cwd: ROOT, stdio: 'inherit' });
  if (b.status === 0 && existsSync(join(dist, 'diagnostics.html'))) return dist;
  // never empty a shared dist/ for a partial build: the diagnostics page goes to a temp dir
  const own = join(tmpdir(), `mnemo-bench-diagnostics-${process.pid}`);
  console.log(`[bench:browser] the full build failed; building the diagnostics page alone into ${own}`);
  const config = diagnosticsOnlyConfig(own);
  try {
    const c = spawnSync('npx', ['vite', 'build', '--config', config], { cwd: ROOT, stdio: 'inherit' });
    if (c.status !== 0 || !existsSync(join(own, 'diagnostics.html'))) throw new Error('vite build of diagnostics.html failed; see the output above');
  } finally {
    rmSync(config, { force: true });
  }
  return own;
}

const f1 = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? '-' : x.toFixed(1));
const f2 = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? '-' : x.toFixed(2));
const mib = (x: number | null) => (x === null ? '-' : `${(x / 2 ** 20).toFixed(1)} MiB`);

export async function run(): Promise<Record<string, number>> {
  const dist = resolve(process.env.BROWSER_BENCH_DIST ?? join(ROOT, 'dist'));
  const backend = process.env.BROWSER_BENCH_BACKEND ?? 'wasm';
  const served = ensureBuild(dist);
  const { server, url } = await serveStatic(served);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    // precise-memory-info: performance.memory without the 100 KB bucketing and the 20 min cache
    // ForceEagerMeasureMemory: measureUserAgentSpecificMemory answers now instead of at a later GC
    args: ['--no-sandbox', '--enable-precise-memory-info', '--enable-blink-features=ForceEagerMeasureMemory'],
  });
  const out: Record<string, number> = {};
  const rows: [string, string][] = [];
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.log(`[bench:browser] page error: ${e.message}`));
    const t0 = Date.now();
    await page.goto(`${url}/diagnostics.html${backend === 'auto' ? '' : `?backend=${backend}`}`);
    const crossOriginIsolated = await page.evaluate(() => self.crossOriginIsolated);
    const info = await page.evaluate(() => window.__diag.ready);
    const navToReady = Date.now() - t0;
    const loadMs = await page.evaluate(() => window.__diag.loadMs());
    out.encoder_load_ms = loadMs ?? Number.NaN;
    rows.push(['cross-origin isolated', String(crossOriginIsolated)]);
    rows.push(['encoder backend', info.backend]);
    rows.push(['encoder load (bridge start -> ready)', `${f1(loadMs)} ms (navigation -> ready ${navToReady} ms)`]);

    const emb = await page.evaluate((n) => window.__diag.bench(n, 32), EMBED_TEXTS);
    out.embed_batch1_per_s = emb.batch1PerSec;
    out.embed_batch32_per_s = emb.batchedPerSec;
    out.embed_batch32_vs_batch1 = emb.batchedPerSec / emb.batch1PerSec;
    rows.push(['embed, batch 1', `${f1(emb.batch1PerSec)} memories/s (40 texts)`]);
    rows.push(['embed, batch 32', `${f1(emb.batchedPerSec)} memories/s (${emb.texts} texts; x${f2(out.embed_batch32_vs_batch1)} vs batch 1)`]);
    const heapEnc = await page.evaluate(() => window.__diag.heap());
    rows.push(['page JS heap after encoder', mib(heapEnc)]);
    if (heapEnc !== null) out.page_heap_after_encoder_mib = heapEnc / 2 ** 20;

    const results: EngineBenchResult[] = [];
    for (const n of SIZES) {
      const r = await page.evaluate(([n, q]) => window.__diag.engineBench(n, q), [n, QUERIES] as const);
      results.push(r);
      const p = `engine_n${n}_`;
      const put = (k: string, s: LatencySummary | null) => {
        out[`${p}${k}_median_ms`] = s?.medianMs ?? Number.NaN;
        out[`${p}${k}_p95_ms`] = s?.p95Ms ?? Number.NaN;
      };
      out[`${p}load_ms`] = r.loadMs;
      out[`${p}worker_load_ms`] = r.workerLoadMs;
      put('search', r.search);
      put('search_in_worker', r.searchInWorker);
      put('recall_balanced', r.recallBalanced);
      put('recall_divergent', r.recallDivergent);
      if (r.agentMemory) {
        out[`${p}agent_memory_mib`] = r.agentMemory.totalBytes / 2 ** 20;
        out[`${p}worker_memory_mib`] = r.agentMemory.workerBytes / 2 ** 20;
      }
      if (r.lateralPerQuery !== null) out[`${p}lateral_per_query`] = r.lateralPerQuery;
      if (r.recallError) console.log(`[bench:browser] n=${n}: recall rows skipped: ${r.recallError}`);
    }
    const heapEnd = await page.evaluate(() => window.__diag.heap());
    if (heapEnd !== null) out.page_heap_end_mib = heapEnd / 2 ** 20;
    await page.close();

    console.log(`[bench:browser] Chromium ${browser.version()}, ${url}/diagnostics.html, backend=${backend}`);
    for (const [k, v] of rows) console.log(`  ${k.padEnd(40)} ${v}`);
    console.log(`\n  engine worker (bridge end to end; ${QUERIES} searches top 10, default hybrid K=500; recall: E1-only features)`);
    console.log(`  ${'n'.padStart(6)} ${'load ms'.padStart(9)} ${'in wkr'.padStart(8)}   ${'search med / p95'.padEnd(18)} ${'in worker med / p95'.padEnd(20)} ${'recall BAL med / p95'.padEnd(21)} ${'recall DIV med / p95'.padEnd(21)} ${'page heap'.padEnd(20)} page+workers (workers)`);
    for (const r of results) {
      const s = (x: LatencySummary | null) => (x ? `${f2(x.medianMs)} / ${f2(x.p95Ms)}` : '-');
      console.log(
        `  ${String(r.n).padStart(6)} ${f1(r.loadMs).padStart(9)} ${f1(r.workerLoadMs).padStart(8)}   ${s(r.search).padEnd(18)} ${s(r.searchInWorker).padEnd(20)} ` +
          `${s(r.recallBalanced).padEnd(21)} ${s(r.recallDivergent).padEnd(21)} ${`${mib(r.pageHeapBefore)} -> ${mib(r.pageHeapAfter)}`.padEnd(20)} ` +
          (r.agentMemory ? `${mib(r.agentMemory.totalBytes)} (${mib(r.agentMemory.workerBytes)})` : '-'),
      );
    }
    if (results.length === 2) {
      const [a, b] = results;
      out.engine_search_ratio_10k_vs_1k = b.search.medianMs / a.search.medianMs;
      const overhead = (r: EngineBenchResult) => r.search.medianMs - r.searchInWorker.medianMs;
      console.log(
        `  10k vs 1k search median x${f2(out.engine_search_ratio_10k_vs_1k)}; messaging overhead (e2e - in worker, medians): ` +
          `${f2(overhead(a))} ms at 1k, ${f2(overhead(b))} ms at 10k`,
      );
    }
    console.log(
      `  page JS heap at the end ${mib(heapEnd)}; lateral results per DIVERGENT recall: ${results.map((r) => `${f2(r.lateralPerQuery)} at ${r.n}`).join(', ')}`,
    );
    console.log('  (page heap = performance.memory of the page only; page+workers = measureUserAgentSpecificMemory while the engine is loaded)');
  } finally {
    await browser.close();
    await new Promise<void>((ok) => server.close(() => ok()));
    if (served !== dist) rmSync(served, { recursive: true, force: true });
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  run().then(
    (r) => {
      if (process.argv.includes('--json')) console.log(JSON.stringify(r, null, 2));
    },
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
