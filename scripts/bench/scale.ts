// The scale benchmark (issue 13): `npm run bench:scale -- --n 100000 --json`. For each N in
// 1k / 10k / 30k / 100k up to --n, in Chromium (/usr/bin/chromium, headless, --disable-gpu)
// against the production build with the bench page (MNEMOGRAPH_BENCH=1 vite build -> dist-bench/,
// served by `vite preview`): the seeded corpus (scripts/bench/scale-corpus.ts) restored through
// the app's own import service, a reload timed to the first answer and to warm, then queries
// through the services and the real workers, memory, IndexedDB bytes, and the baselines (a JS f32
// scan, hnswlib-wasm, Orama hybrid) in the same page over the same corpus. The ingest rate (full
// app path at batch 1 and batched, beside the encoder alone) is measured once, at the smallest N.
// Prints a table (or one JSON object with --json); never fails on a timing.
//
//   npm run bench:scale -- [--n 10000] [--json] [--seed 13] [--queries 30] [--no-build]
//                          [--no-baselines] [--no-ingest] [--orama-max 100000] [--port 4184] [--startup-timeout 600]
//                          [--sizes 30000,100000] [--migrate-v8 30000] [--snapshot-ab 3] [--engine-ab 3]
//                          [--profile-dir DIR [--reuse] [--reloads 1] [--first-only]] [--dist DIR] [--trace FILE]
//
// --profile-dir DIR keeps each size's Chromium profile in DIR/n<N>/ (seeded afresh unless --reuse);
// with --reuse a profile that already holds N memories (seeded at the same --port: IndexedDB is
// per origin) is not seeded again: its database is opened once as the app opens it (a newer
// build's schema upgrade runs there: `reuse.upgradeMs`), the app boots once on it
// (`reuse.firstOpen`), and then the timed reload and the queries run as after a seed.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { BaselineQuery } from '../../src/diagnostics/scale-baselines';
import type { StartupTimes, TimedRun } from '../../src/diagnostics/scale-page';
import { maxOf, percentile, ratio, round } from '../lib/scale-stats';
import { ensureCorpus, type Corpus, type CorpusQuery } from './scale-corpus';
import { snapshotAB } from './scale-snapshot-ab';
import { startTrace, stopTrace } from './scale-trace';
import { sampleTexts } from '../../src/diagnostics/bench';

const ROOT = resolve(import.meta.dirname ?? '.', '../..');
const DIST_ARG = process.argv.indexOf('--dist');
/** --dist DIR: serve another bench build (e.g. a copy of an older one, for an A/B on a reused profile); implies --no-build. */
const DIST = DIST_ARG >= 0 ? resolve(process.argv[DIST_ARG + 1]!) : join(ROOT, 'dist-bench');
const ALL_SIZES = [1000, 10_000, 30_000, 100_000];
/** The baselines' renderers' V8 heap (MiB): Orama's index of 100k texts and vectors outgrows the default. */
const BASELINE_HEAP_MIB = 6144;

const argv = process.argv.slice(2);
const flag = (k: string) => argv.includes(k);
const num = (k: string, d: number) => {
  const i = argv.indexOf(k);
  return i >= 0 && i + 1 < argv.length ? Number(argv[i + 1]) : d;
};
const str = (k: string): string | undefined => {
  const i = argv.indexOf(k);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : undefined;
};
const opts = {
  n: num('--n', 10_000),
  seed: num('--seed', 13),
  queries: num('--queries', 30),
  port: num('--port', 4184),
  json: flag('--json'),
  build: !flag('--no-build') && DIST_ARG < 0,
  baselines: !flag('--no-baselines'),
  ingest: !flag('--no-ingest'),
  oramaMax: num('--orama-max', 100_000),
  /** A file the JSON so far is written to after every size. */
  out: str('--out'),
  /** --sizes 10000,30000: exactly these sizes (default: 1k / 10k / 30k / 100k up to --n). */
  sizes: argv.includes('--sizes') ? argv[argv.indexOf('--sizes') + 1]!.split(',').map(Number) : null,
  startupTimeoutS: num('--startup-timeout', 600),
  /** --snapshot-ab R: R alternating reloads with and without the keyword snapshot (scale-snapshot-ab.ts). */
  snapshotAB: num('--snapshot-ab', 0),
  /** --engine-ab R: R alternating reloads with and without the engine snapshot (schema v12). */
  engineAB: num('--engine-ab', 0),
  /** --migrate-v8 30000: only the v8 -> v9 upgrade of a v8 store of that many memories (no other size runs). */
  migrateV8: num('--migrate-v8', 0),
  /** --profile-dir DIR: each size's browser profile kept in DIR/n<N>/ (a persistent context). */
  profileDir: argv.includes('--profile-dir') ? resolve(argv[argv.indexOf('--profile-dir') + 1]!) : null,
  /** --reuse: a profile in --profile-dir that holds N memories is not seeded again. */
  reuse: flag('--reuse'),
  /** --reloads R: R timed reloads (each after the stored keyword snapshot is current); the row's figures are the last one's. */
  reloads: Math.max(1, num('--reloads', 1)),
  /** --first-only: each reload timed to the first keyword answer only (no warm, no queries): quick A/B rounds of the first answer. */
  firstOnly: flag('--first-only'),
  /** --trace FILE: a Chromium trace of the last reload up to the first keyword answer (--first-only) or to warm, summarised under `trace` (scale-trace.ts). */
  trace: argv.includes('--trace') ? resolve(argv[argv.indexOf('--trace') + 1]!) : null,
  /** --search-only: of the queries, only the plain search (and its breakdown: encoder alone, keyword-only, full), for quick A/B rounds. */
  searchOnly: flag('--search-only'),
  /** --port-wait S: how long to wait for another server on --port to stop before each size (default 1800 s). */
  portWaitS: num('--port-wait', 1800),
  /** --page-params 'spin=0&threads=1': added to the timed reload's address (the bench page's encoder settings, scale-page.ts). */
  pageParams: str('--page-params') ?? '',
  /** --baselines-only: the baselines alone (no app part, no port held; the ratios to ours are null). */
  baselinesOnly: flag('--baselines-only'),
};
if (opts.reuse && !opts.profileDir) throw new Error('--reuse needs --profile-dir DIR');
const log = (s: string) => (opts.json ? console.error : console.log)(`[bench:scale] ${s}`);

function build(): void {
  if (!opts.build && existsSync(join(DIST, 'bench.html'))) return;
  log('building the bench build (MNEMOGRAPH_BENCH=1 vite build --outDir dist-bench)');
  const r = spawnSync('npx', ['vite', 'build', '--outDir', DIST, '--emptyOutDir'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, MNEMOGRAPH_BENCH: '1' } });
  if (r.status !== 0 || !existsSync(join(DIST, 'bench.html'))) throw new Error('the bench build failed; see the output above');
}

async function preview(): Promise<{ url: string; child: ChildProcess }> {
  const url = `http://127.0.0.1:${opts.port}`;
  // another server on the port (another run's) would answer below and the pages would load its
  // build: wait (up to --port-wait seconds) for it to go
  const busy = () => fetch(`${url}/`).then(() => true, () => false); // prettier-ignore
  for (let waited = 0; await busy(); waited += 5) {
    if (waited >= opts.portWaitS) throw new Error(`port ${opts.port} is in use by another server (waited ${waited} s); pass another --port`);
    if (waited % 60 === 0) log(`port ${opts.port} is in use by another server: waiting for it to stop`);
    await new Promise((r) => setTimeout(r, 5000));
  }
  const child = spawn('npx', ['vite', 'preview', '--outDir', DIST, '--host', '127.0.0.1', '--port', String(opts.port), '--strictPort'], { cwd: ROOT, stdio: 'ignore', detached: true });
  let exited = false;
  child.once('exit', () => (exited = true));
  for (let i = 0; i < 600; i++) {
    if (exited) throw new Error(`vite preview stopped (is port ${opts.port} taken?)`);
    try {
      if ((await fetch(`${url}/bench.html`)).ok) return { url, child };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`vite preview did not answer on ${url}`);
}

/** The memories' texts, in corpus order (for Orama and the probe), extracted once and cached. */
function corpusTexts(c: Corpus): string[] {
  const file = join(c.dir, 'texts.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as string[];
  const texts = c.chunks.flatMap((name) => (JSON.parse(readFileSync(join(c.dir, name), 'utf8')) as { memories: { text: string }[] }).memories.map((m) => m.text));
  writeFileSync(file, JSON.stringify(texts));
  return texts;
}

/** Serves the corpus files at /bench-corpus/ on the app's origin (Playwright answers; nothing leaves the machine). */
async function serveCorpus(ctx: BrowserContext, url: string, dir: string): Promise<void> {
  await ctx.route(`${url}/bench-corpus/*`, (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop()!;
    const file = join(dir, name);
    if (!/^[\w.-]+$/.test(name) || !existsSync(file)) return route.fulfill({ status: 404 });
    return route.fulfill({ status: 200, body: readFileSync(file), contentType: name.endsWith('.json') ? 'application/json' : 'application/octet-stream' });
  });
}

const TYPES: Record<string, string> = { html: 'text/html', js: 'text/javascript', mjs: 'text/javascript', css: 'text/css', json: 'application/json', wasm: 'application/wasm', svg: 'image/svg+xml' };

/**
 * The bench build answered from disk by Playwright at `url` (no server, no port): the baselines'
 * pages, which never start the app or touch its database, so they hold no port while they run.
 */
async function serveDist(ctx: BrowserContext, url: string): Promise<void> {
  await ctx.route(`${url}/**`, (route) => {
    const path = decodeURIComponent(new URL(route.request().url()).pathname);
    const file = join(DIST, path === '/' ? 'index.html' : path);
    if (path.includes('..') || !existsSync(file)) return route.fulfill({ status: 404 });
    return route.fulfill({ status: 200, body: readFileSync(file), contentType: TYPES[file.split('.').pop() ?? ''] ?? 'application/octet-stream' });
  });
}

const LONGTASKS = `window.__longTasks = [];
try { new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push(e.duration); }).observe({ type: 'longtask', buffered: true }); } catch {}`;

/** What --profile-dir keeps beside each profile (DIR/n<N>.json): how and where it was seeded. */
interface ProfileMeta {
  n: number;
  seed: number;
  port: number;
  seededAt: string;
  seedMs: number;
  commit: string;
}
const profilePath = (n: number) => join(opts.profileDir!, `n${n}`);
const metaPath = (n: number) => join(opts.profileDir!, `n${n}.json`);
const headCommit = () => spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();

/** Waits (up to 3 min) until the engine has stored a keyword snapshot and an engine snapshot this build adopts (it writes them in the background after a restore or a rebuild). */
async function waitSnapshot(page: Page): Promise<boolean | null> {
  let current: boolean | null = null;
  for (let i = 0; i < 360; i++) {
    current = await page.evaluate(() => window.__scaleBench.snapshotCurrent());
    if (current) break;
    await page.waitForTimeout(500);
  }
  return current;
}

/**
 * The store to measure: seeded through the import service, or (--reuse) the profile's own when it
 * holds N memories already; then the page is left on the app after its snapshot is current.
 */
async function prepareStore(page: Page, url: string, n: number, chunks: string[]): Promise<Record<string, unknown>> {
  if (opts.reuse) {
    await page.goto(`${url}/bench.html?baselines`); // the app does not start: look at the store as found
    const info = await page.evaluate(() => window.__scaleBench.storeInfo());
    if (info.memories === n) {
      const load = round(loadavg()[0]!, 1);
      const open = await page.evaluate(() => window.__scaleBench.openStore());
      if (open.error) throw new Error(`the stored database did not open: ${open.error}`);
      log(`n=${n}: reusing ${profilePath(n)} (schema v${open.fromVersion} -> v${open.toVersion}, opened in ${Math.round(open.openMs)} ms); the app's first boot on it`);
      await page.goto(`${url}/bench.html`);
      // (--first-only: not waited for: only for the stored keyword snapshot to be one this build adopts)
      const first: StartupTimes = opts.firstOnly ? await page.evaluate(() => window.__scaleBench.progress()) : await page.evaluate(() => window.__scaleBench.startup);
      const snapshotCurrent = await waitSnapshot(page);
      return {
        reuse: {
          fromVersion: open.fromVersion,
          toVersion: open.toVersion,
          // the schema upgrade, when the stored version was older (else the open alone)
          upgradeMs: open.fromVersion < open.toVersion ? Math.round(open.openMs) : null,
          openMs: Math.round(open.openMs),
          loadAvg1m: load,
          firstOpen: { servicesReadyMs: first.servicesReadyMs, warmMs: first.warmMs, ...(first.error && { error: first.error }) },
          snapshotCurrent,
        },
      };
    }
    log(`n=${n}: the profile holds ${info.memories} memories (schema v${info.version}), not ${n}: seeding afresh`);
    await page.evaluate(() => window.__scaleBench.deleteStore());
  }
  await page.goto(`${url}/bench.html`);
  log(`n=${n}: restoring ${chunks.length} backup chunks through the import service`);
  const seedLoad = round(loadavg()[0]!, 1);
  const seed = await page.evaluate((urls) => window.__scaleBench.restore(urls), chunks.map((c) => `/bench-corpus/${c}`));
  const stored = await page.evaluate(() => window.__scaleBench.count());
  log(`n=${n}: ${seed.written} written in ${(seed.ms / 1000).toFixed(1)} s (${stored} stored; per chunk ${seed.chunkMs.join(' ')} ms); waiting for the keyword snapshot, then reloading`);
  const snapshotCurrent = await waitSnapshot(page);
  if (opts.profileDir) {
    const meta: ProfileMeta = { n, seed: opts.seed, port: opts.port, seededAt: new Date().toISOString(), seedMs: Math.round(seed.ms), commit: headCommit() };
    writeFileSync(metaPath(n), JSON.stringify(meta, null, 2));
  }
  return {
    seedMs: Math.round(seed.ms),
    seedPerSec: round(seed.written / (seed.ms / 1000), 1),
    seedChunkMs: seed.chunkMs,
    loadAvg1mAtSeed: seedLoad,
    snapshotCurrentAfterSeed: snapshotCurrent,
  };
}

const ms = (xs: readonly number[], p: number) => round(percentile(xs, p), 1);
const mib = (b: number | null | undefined) => (b === null || b === undefined ? null : round(b / 2 ** 20, 1));

async function timedKind(page: Page, kind: 'search' | 'recall', qs: string[], options: Record<string, unknown> = {}): Promise<TimedRun> {
  const warm = qs.slice(0, 3);
  if (kind === 'search') {
    await page.evaluate((q) => window.__scaleBench.search(q), warm);
    return page.evaluate((q) => window.__scaleBench.search(q), qs.slice(3));
  }
  await page.evaluate(([q, o]) => window.__scaleBench.recall(q, o), [warm, options] as const);
  return page.evaluate(([q, o]) => window.__scaleBench.recall(q, o), [qs.slice(3), options] as const);
}

async function runSize(ctx: BrowserContext, url: string, n: number, withIngest: boolean): Promise<Record<string, unknown>> {
  const corpus = await ensureCorpus(n, opts.seed, log);
  const texts = corpusTexts(corpus);
  const queries = JSON.parse(readFileSync(join(corpus.dir, 'queries.json'), 'utf8')) as CorpusQuery[];
  await serveCorpus(ctx, url, corpus.dir);
  await ctx.addInitScript(LONGTASKS);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => log(`page error: ${e.message}`));
  // the engine worker's warnings (a snapshot refused, a save that failed) and errors
  page.on('console', (m) => void (['warning', 'error', 'info'].includes(m.type()) && log(`console ${m.type()}: ${m.text().slice(0, 300)}`)));
  const prepared = await prepareStore(page, url, n, corpus.chunks);
  const stored = await page.evaluate(() => window.__scaleBench.storeInfo().then((i) => i.memories));

  // the reload: the two longest words of a stored memory are the probe, so keyword search has an answer
  const probe = texts[Math.floor(n / 2)]!.toLowerCase().replace(/[^a-z' ]+/g, ' ').split(/\s+/).sort((a, b) => b.length - a.length).slice(0, 2).join(' ');
  const reloads: Record<string, unknown>[] = [];
  let startup!: StartupTimes;
  let longWarm: number[] = [];
  let traceSummary: Record<string, unknown> | undefined;
  for (let r = 0; r < opts.reloads; r++) {
    if (r > 0) await waitSnapshot(page);
    const load = round(loadavg()[0]!, 1);
    const tracing = opts.trace && r === opts.reloads - 1 ? await startTrace(ctx, page) : null;
    await page.goto(`${url}/bench.html?probe=${encodeURIComponent(probe)}${opts.pageParams ? `&${opts.pageParams}` : ''}`);
    if (opts.firstOnly) {
      let first: number | null = null;
      for (let i = 0; i < opts.startupTimeoutS * 10 && first === null; i++) {
        first = await page.evaluate(() => window.__scaleBench.progress().firstKeywordMs);
        if (first === null) await page.waitForTimeout(100);
      }
      if (tracing) traceSummary = await stopTrace(tracing, opts.trace!, first);
    }
    if (opts.firstOnly) {
      startup = await page.evaluate(() => window.__scaleBench.progress());
      longWarm = await page.evaluate(() => window.__scaleBench.longTasks());
      reloads.push({ firstKeywordMs: startup.firstKeywordMs, longestMainThreadTaskMs: round(maxOf(longWarm), 0), loadAvg1m: load });
      log(`n=${n}: first keyword answer ${startup.firstKeywordMs} ms`);
      continue;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const giveUp = new Promise<null>((ok) => (timer = setTimeout(() => ok(null), opts.startupTimeoutS * 1000)));
    startup =
      (await Promise.race([page.evaluate(() => window.__scaleBench.startup), giveUp])) ??
      (await page.evaluate((s) => ({ ...window.__scaleBench.progress(), error: `not warm after ${s} s` }), opts.startupTimeoutS));
    clearTimeout(timer);
    // without --first-only the trace runs to warm
    if (tracing) traceSummary = await stopTrace(tracing, opts.trace!, startup.warmMs ?? null);
    longWarm = await page.evaluate(() => window.__scaleBench.longTasks());
    reloads.push({ firstKeywordMs: startup.firstKeywordMs, warmMs: startup.warmMs, longestMainThreadTaskMs: round(maxOf(longWarm), 0), loadAvg1m: load });
    log(`n=${n}: first keyword answer ${startup.firstKeywordMs} ms, warm ${startup.warmMs} ms${startup.error ? ` (error: ${startup.error})` : ''}`);
    if (startup.error) break;
  }

  const engineAb = opts.engineAB > 0 && !startup.error ? await snapshotAB(page, `${url}/bench.html?probe=${encodeURIComponent(probe)}`, opts.engineAB, log, 'engineSnapshot') : undefined;
  const snapshotAb = opts.snapshotAB > 0 && !startup.error ? await snapshotAB(page, `${url}/bench.html?probe=${encodeURIComponent(probe)}`, opts.snapshotAB, log) : undefined;
  const qs = queries.slice(0, opts.queries + 3).map((q) => q.text);
  // the machine's load while measuring (2 cores shared with other work: read the figures with it)
  const row: Record<string, unknown> = {
    n,
    stored,
    ...prepared,
    loadAvg1mAtReload: reloads.at(-1)!.loadAvg1m,
    ...(reloads.length > 1 && { reloads }),
    ...(traceSummary && { trace: traceSummary }),
    ...(snapshotAb && { snapshotAb }),
    ...(engineAb && { engineAb: { ...engineAb, snapshotBytesPerMemory: Math.round(Number(engineAb.snapshotBytes) / n) } }),
  };
  if (opts.firstOnly) {
    await page.close();
    const fk = reloads.map((x) => x.firstKeywordMs as number | null).filter((x): x is number => x !== null);
    return { ...row, firstQueryAfterReloadMs: startup.firstKeywordMs, firstQueryAfterReloadMedianMs: fk.length ? percentile(fk, 50) : null, longestMainThreadTaskMs: round(maxOf(longWarm), 0), reloads };
  }
  if (!startup.error && opts.searchOnly) {
    const search = await timedKind(page, 'search', qs);
    const parts = await page.evaluate((q) => window.__scaleBench.searchBreakdown(q), qs.slice(3));
    Object.assign(row, {
      searchP50Ms: ms(search.times, 50),
      inEngine: { searchP50Ms: ms(search.inEngine, 50) },
      // where a plain search's time goes: the encoder alone, a keyword-only search (no encoder), the full search, its engine part
      searchBreakdownP50Ms: Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, ms(v, 50)])),
    });
  } else if (!startup.error) {
    const search = await timedKind(page, 'search', qs);
    const recall = await timedKind(page, 'recall', qs, { profile: 'BALANCED' });
    const divergent = await timedKind(page, 'recall', qs, { profile: 'DIVERGENT' });
    const assoc = await timedKind(page, 'recall', qs, { profile: 'BALANCED', assocHops: 3 });
    Object.assign(row, {
      recallP50Ms: ms(recall.times, 50),
      recallP95Ms: ms(recall.times, 95),
      divergentP50Ms: ms(divergent.times, 50),
      assocHops3P50Ms: ms(assoc.times, 50),
      searchP50Ms: ms(search.times, 50),
      inEngine: {
        recallP50Ms: ms(recall.inEngine, 50),
        recallP95Ms: ms(recall.inEngine, 95),
        divergentP50Ms: ms(divergent.inEngine, 50),
        assocHops3P50Ms: ms(assoc.inEngine, 50),
        searchP50Ms: ms(search.inEngine, 50),
      },
      meanResults: { recall: round(recall.results.reduce((s, x) => s + x, 0) / recall.results.length, 1), search: round(search.results.reduce((s, x) => s + x, 0) / search.results.length, 1) },
    });
  }
  const memory = await page.evaluate(() => window.__scaleBench.memory());
  const idb = await page.evaluate(() => window.__scaleBench.idbBytes());
  Object.assign(row, {
    firstQueryAfterReloadMs: startup.firstKeywordMs,
    firstSemanticQueryAfterReloadMs: startup.firstSemanticMs,
    warmMs: startup.warmMs,
    encoderReadyMs: startup.encoderReadyMs,
    ...(startup.error && { startupError: startup.error, startupFailedAfterMs: startup.failedMs ?? null }),
    engineMiB: mib(memory?.engineBytes),
    pageAndWorkersMiB: mib(memory?.totalBytes),
    workersMiB: memory ? Object.fromEntries(Object.entries(memory.byWorker).map(([k, v]) => [k, mib(v)])) : null,
    idbBytesPerMemory: idb.indexedDB !== null ? Math.round(idb.indexedDB / stored) : null,
    idbMiB: mib(idb.indexedDB),
    longestMainThreadTaskMs: round(maxOf(longWarm), 0),
    longTasksOver100Ms: longWarm.filter((d) => d > 100).length,
  });

  if (withIngest && !startup.error) {
    log(`n=${n}: ingest (20 captures, then a 200-line plain-text import, then the encoder alone)`);
    try {
      const ing = await page.evaluate((t) => window.__scaleBench.ingest(t, 20), sampleTexts(220).map((t) => `Ingest ${t}`));
      row.ingest = {
        fullPathBatch1PerSec: round(ing.batch1PerSec, 1),
        fullPathImportPerSec: round(ing.importPerSec, 1),
        importBatch: ing.importBatch,
        encoderBatch1PerSec: round(ing.encoderBatch1PerSec, 1),
        encoderBatch32PerSec: round(ing.encoderBatchedPerSec, 1),
        encoderOneCallPerSec: round(ing.encoderOneCallPerSec, 1),
        featurizePerSec: round(ing.featurizePerSec, 1),
      };
    } catch (e) {
      row.ingestError = e instanceof Error ? e.message : String(e);
    }
  }

  await page.close();
  return row;
}

/**
 * One baseline in a page of its own, in a context of its own (`bypassCSP`: hnswlib-wasm's glue,
 * emscripten embind, compiles with `new Function`, which the app's policy refuses), the app not
 * started there. A page that dies (a renderer out of memory: Orama at 100k) rejects here with the
 * reason instead of hanging, and the other baselines' figures are kept.
 */
async function oneBaseline(browser: Browser, url: string, dir: string, what: string, args: readonly [BaselineQuery[], Record<string, unknown>]): Promise<Record<string, unknown>> {
  const ctx = await browser.newContext({ bypassCSP: true, serviceWorkers: 'block' });
  try {
    await serveDist(ctx, url);
    await serveCorpus(ctx, url, dir); // registered last: it answers /bench-corpus/ first
    const page = await ctx.newPage();
    page.on('pageerror', (e) => log(`${what} page error: ${e.message}`));
    const died = new Promise<never>((_, fail) => page.once('crash', () => fail(new Error(`the page running ${what} crashed (renderer gone: out of memory?)`))));
    await page.goto(`${url}/bench.html?baselines`);
    const run = page.evaluate(([q, o]) => window.__scaleBench.baselines('/bench-corpus/e1.f32', '/bench-corpus/texts.json', q, o as never), args);
    return await Promise.race([run, died]);
  } finally {
    await ctx.close().catch(() => undefined);
  }
}

/** `file` in parts of 16 MiB beside it (`file.part-000`, …), once: the page reads a large file part by part (scale-page.ts, fetchParts). */
function splitFile(file: string, part = 16 * 2 ** 20): void {
  if (existsSync(`${file}.part-000`)) return;
  const all = readFileSync(file);
  for (let i = 0, k = 0; i < all.length; i += part, k++) writeFileSync(`${file}.part-${String(k).padStart(3, '0')}`, all.subarray(i, i + part));
}

const firstLine = (e: unknown) => (e instanceof Error ? e.message.split('\n')[0]! : String(e));

/**
 * The baselines, after the app's profile is closed (its workers gone), each in a page and context
 * of its own (`oneBaseline`), in a browser of their own whose renderers may use a larger V8 heap
 * (`--js-flags=--max-old-space-size`): the f32 scan, hnswlib-wasm, Orama. A baseline that fails
 * leaves its figure null and says why (`bruteForceError`, `hnswError`, `oramaError`).
 */
async function runBaselines(browser: Browser, url: string, n: number, row: Record<string, unknown>): Promise<void> {
  const corpus = await ensureCorpus(n, opts.seed, log);
  splitFile(join(corpus.dir, 'e1.f32'));
  const queries = JSON.parse(readFileSync(join(corpus.dir, 'queries.json'), 'utf8')) as CorpusQuery[];
  corpusTexts(corpus);
  const bq: BaselineQuery[] = queries.slice(0, opts.queries);
  const oramaQueries = n >= 30_000 ? 5 : Math.min(20, opts.queries);
  type Baselines = { bruteForce?: number[]; hnsw?: { buildMs: number; times: number[]; recallAt10: number; params: object }; orama?: { buildMs: number; times: number[] } };
  const b: Baselines = {};
  const kinds: [string, keyof Baselines, Record<string, unknown>][] = [
    ['the f32 scan', 'bruteForce', { scan: true, hnsw: false, orama: false, oramaQueries }],
    ['hnswlib-wasm', 'hnsw', { scan: false, hnsw: true, orama: false, oramaQueries }],
    ...(n <= opts.oramaMax ? ([['Orama', 'orama', { scan: false, hnsw: false, orama: true, oramaQueries }]] as [string, keyof Baselines, Record<string, unknown>][]) : []),
  ];
  for (const [what, key, o] of kinds) {
    log(`n=${n}: baseline ${what}`);
    const t0 = Date.now();
    try {
      const got = (await oneBaseline(browser, url, corpus.dir, what, [bq, o] as const)) as Baselines;
      Object.assign(b, { [key]: got[key] });
    } catch (e) {
      row[`${key}Error`] = `${firstLine(e)} (after ${Math.round((Date.now() - t0) / 1000)} s, load ${round(loadavg()[0]!, 1)})`;
      log(`n=${n}: ${what} failed: ${String(row[`${key}Error`])}`);
    }
  }
  const brute = b.bruteForce ? ms(b.bruteForce, 50) : null;
  const engine = row.inEngine as { searchP50Ms: number | null; recallP50Ms: number | null } | undefined;
  const hnswP50 = b.hnsw ? ms(b.hnsw.times, 50) : null;
  const oramaP50 = b.orama ? ms(b.orama.times, 50) : null;
  Object.assign(row, {
    bruteForceF32P50Ms: brute,
    hnswP50Ms: hnswP50,
    hnsw: b.hnsw && { where: 'page (hnswlib-wasm 0.8.2, main thread)', buildMs: Math.round(b.hnsw.buildMs), recallAt10: round(b.hnsw.recallAt10, 3), ...b.hnsw.params },
    oramaHybridP50Ms: oramaP50,
    orama: b.orama && { where: 'page (@orama/orama 3.1.18, main thread)', buildMs: Math.round(b.orama.buildMs), queries: b.orama.times.length },
    // baseline / ours, ours timed inside the engine (the baselines do not embed a query either)
    ratios: {
      bruteForceF32ToSearch: ratio(brute, engine?.searchP50Ms),
      hnswToSearch: ratio(hnswP50, engine?.searchP50Ms),
      oramaHybridToSearch: ratio(oramaP50, engine?.searchP50Ms),
      bruteForceF32ToRecall: ratio(brute, engine?.recallP50Ms),
      hnswToRecall: ratio(hnswP50, engine?.recallP50Ms),
      oramaHybridToRecall: ratio(oramaP50, engine?.recallP50Ms),
      oramaHybridToSearchEndToEnd: ratio(oramaP50, row.searchP50Ms as number | undefined),
    },
  });
}

/** --baselines-only: a size's app part is not run. */
class SkipApp extends Error {}

async function main(): Promise<void> {
  const sizes = opts.sizes ?? ALL_SIZES.filter((s) => s <= opts.n);
  if (sizes.length === 0) throw new Error(`--n ${opts.n}: the smallest size is 1000`);
  build();
  // the server runs only while a size's app part does (the baselines are answered from disk): the
  // port is free for other runs meanwhile
  const url = `http://127.0.0.1:${opts.port}`;
  let child: ChildProcess | null = null;
  const stop = () => {
    if (child?.pid) {
      try {
        process.kill(-child.pid);
      } catch {
        /* already gone */
      }
    }
    child = null;
  };
  const serve = async () => {
    stop();
    child = (await preview()).child;
  };
  process.once('exit', stop);
  process.once('SIGTERM', () => process.exit(143));
  process.once('SIGINT', () => process.exit(130));
  // precise-memory-info / ForceEagerMeasureMemory: measureUserAgentSpecificMemory answers now
  const launch = { executablePath: '/usr/bin/chromium', headless: true, args: ['--disable-gpu', '--no-sandbox', '--enable-precise-memory-info', '--enable-blink-features=ForceEagerMeasureMemory'] };
  const browser = await chromium.launch(launch);
  const out: Record<string, unknown> = {
    chromium: browser.version(),
    cpus: cpus().length,
    seed: opts.seed,
    queries: opts.queries,
    url: `${url}/bench.html`,
    // the machine's 1 / 5 / 15-minute load averages when the run began (2 cores shared with other work)
    loadAvgAtStart: loadavg().map((x) => round(x, 1)),
    sizes: {} as Record<string, unknown>,
  };
  try {
    if (opts.migrateV8 > 0) {
      await serve();
      const corpus = await ensureCorpus(opts.migrateV8, opts.seed, log);
      const ctx = await browser.newContext();
      await serveCorpus(ctx, url, corpus.dir);
      const page = await ctx.newPage();
      await page.goto(`${url}/bench.html?baselines`); // the app does not start: the page only fills and opens the v8 store
      log(`v8 store of ${opts.migrateV8}: filling, then opening it (the upgrade)`);
      const load = round(loadavg()[0]!, 1);
      const r = await page.evaluate((urls) => window.__scaleBench.migrateV8(urls), corpus.chunks.map((c) => `/bench-corpus/${c}`));
      out.migrateV8 = { ...r, fillMs: Math.round(r.fillMs), upgradeMs: Math.round(r.upgradeMs), loadAvg1mAtStart: load, loadAvg1mAtEnd: round(loadavg()[0]!, 1) };
      await ctx.close();
      stop();
      sizes.length = 0;
    }
    for (const [i, n] of sizes.entries()) {
      // a fresh profile per size (an empty database), or --profile-dir's own, kept for a later --reuse
      let row: Record<string, unknown> = { n };
      let ctx: BrowserContext | undefined;
      try {
        if (opts.baselinesOnly) throw new SkipApp();
        await serve();
        if (opts.profileDir) {
          const meta = existsSync(metaPath(n)) ? (JSON.parse(readFileSync(metaPath(n), 'utf8')) as ProfileMeta) : null;
          if (opts.reuse && meta && meta.port !== opts.port) throw new Error(`${profilePath(n)} was seeded at port ${meta.port} (IndexedDB is per origin): pass --port ${meta.port}`);
          if (!opts.reuse) rmSync(profilePath(n), { recursive: true, force: true });
          if (!opts.reuse || !meta) rmSync(metaPath(n), { force: true });
          mkdirSync(profilePath(n), { recursive: true });
          ctx = await chromium.launchPersistentContext(profilePath(n), launch);
        } else ctx = await browser.newContext();
        row = await runSize(ctx, url, n, i === 0 && opts.ingest);
      } catch (e) {
        if (!(e instanceof SkipApp)) {
          log(`n=${n} failed: ${e instanceof Error ? e.message : String(e)}`);
          row.error = e instanceof Error ? e.message : String(e);
        }
      } finally {
        await ctx?.close().catch((e: unknown) => log(`n=${n}: closing the profile failed: ${String(e)}`));
        stop();
      }
      if (opts.baselines) {
        // a browser of their own: its renderers may grow a larger heap, and one that dies takes nothing else with it
        const bBrowser = await chromium.launch({ ...launch, args: [...launch.args, `--js-flags=--max-old-space-size=${BASELINE_HEAP_MIB}`] });
        try {
          await runBaselines(bBrowser, url, n, row);
        } catch (e) {
          log(`n=${n} baselines failed: ${e instanceof Error ? e.message : String(e)}`);
          row.baselineError = e instanceof Error ? e.message : String(e);
        } finally {
          await bBrowser.close().catch(() => undefined);
        }
      }
      (out.sizes as Record<string, unknown>)[String(n)] = row;
      // every finished size is kept at once: a later size that takes the browser down loses nothing
      if (opts.out) writeFileSync(opts.out, JSON.stringify(out, null, 2));
    }
  } finally {
    await browser.close().catch(() => undefined);
    stop();
    process.removeListener('exit', stop);
  }
  out.loadAvgAtEnd = loadavg().map((x) => round(x, 1));
  if (opts.json) console.log(JSON.stringify(out, null, 2));
  else printTable(out);
}

function printTable(out: Record<string, unknown>): void {
  const rows = Object.values(out.sizes as Record<string, Record<string, unknown>>);
  const keys = ['recallP50Ms', 'recallP95Ms', 'divergentP50Ms', 'assocHops3P50Ms', 'searchP50Ms', 'firstQueryAfterReloadMs', 'warmMs', 'engineMiB', 'idbBytesPerMemory', 'longestMainThreadTaskMs', 'bruteForceF32P50Ms', 'hnswP50Ms', 'oramaHybridP50Ms'];
  console.log(`Chromium ${String(out.chromium)}, ${String(out.cpus)} cores, seed ${String(out.seed)}, ${String(out.queries)} queries per kind`);
  console.log(['field'.padEnd(26), ...rows.map((r) => String(r.n).padStart(10))].join(' '));
  for (const k of keys) console.log([k.padEnd(26), ...rows.map((r) => String(r[k] ?? r.error ?? '-').padStart(10))].join(' '));
  for (const r of rows) if (r.ingest) console.log(`ingest at n=${String(r.n)}: ${JSON.stringify(r.ingest)}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
