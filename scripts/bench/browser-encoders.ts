// The sentence encoders side by side in Debian's Chromium (issue 8), from the production build, on
// WASM: for MiniLM, USE-lite and the judge (all-mpnet-base-v2 int8), each in a fresh page, load time (bridge start -> ready), memories/s
// at batch 1 and 32, query-embedding latency, the model bytes fetched, and page + workers memory
// (measureUserAgentSpecificMemory). Prints a table; never fails on a timing.
//
//   npx tsx scripts/bench/browser-encoders.ts   (serves dist/; run `npm run build` first)
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { serveStatic } from '../lib/static-server';

const ROOT = resolve(import.meta.dirname ?? '.', '../..');
/** Each encoder, and MiniLM with one WASM thread too (the default uses up to 4 under isolation). */
const ENCODERS: [string, string][] = [
  ['all-MiniLM-L6-v2-int8', ''],
  ['all-MiniLM-L6-v2-int8', '&threads=1'],
  ['use-lite-en/v1', ''],
  ['all-mpnet-base-v2-int8', ''],
];

export async function run(): Promise<Record<string, number>> {
  const dist = resolve(process.env.BROWSER_BENCH_DIST ?? join(ROOT, 'dist'));
  if (!existsSync(join(dist, 'diagnostics.html'))) throw new Error(`${dist}/diagnostics.html is missing: run npm run build first`);
  const { server, url } = await serveStatic(dist);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--enable-precise-memory-info', '--enable-blink-features=ForceEagerMeasureMemory'],
  });
  const out: Record<string, number> = {};
  const rows: string[][] = [];
  try {
    for (const [id, extra] of ENCODERS) {
      const context = await browser.newContext({ serviceWorkers: 'block' });
      const page = await context.newPage();
      let bytes = 0;
      // the context sees the embed worker's requests too (the page alone does not)
      context.on('response', (r) => {
        if (/\/models\/|\/ort\/|\/wasm\//.test(r.url())) void r.body().then((b) => (bytes += b.byteLength), () => undefined);
      });
      try {
        await page.goto(`${url}/diagnostics.html?backend=wasm&nofallback&encoder=${encodeURIComponent(id)}${extra}`);
        const info = await page.evaluate(() => window.__diag.ready);
        const loadMs = (await page.evaluate(() => window.__diag.loadMs())) ?? Number.NaN;
        const mem = await page.evaluate(() => window.__diag.memory());
        const b = await page.evaluate(() => window.__diag.bench(200, 32));
        const key = (id + extra).replace(/[^a-z0-9]+/gi, '_');
        Object.assign(out, {
          [`${key}_load_ms`]: loadMs,
          [`${key}_batch1_per_s`]: b.batch1PerSec,
          [`${key}_batch32_per_s`]: b.batchedPerSec,
          [`${key}_query_median_ms`]: b.queryMedianMs,
          [`${key}_fetched_mb`]: bytes / 1e6,
          ...(mem && { [`${key}_page_and_workers_mib`]: mem.totalBytes / 2 ** 20 }),
        });
        rows.push([
          id + (extra ? ` (${extra.slice(1)})` : ''),
          `${info.backend}${(await page.evaluate(() => self.crossOriginIsolated)) ? ' (isolated)' : ''}`,
          String(loadMs),
          b.batch1PerSec.toFixed(1),
          b.batchedPerSec.toFixed(1),
          b.queryMedianMs.toFixed(1),
          (bytes / 1e6).toFixed(1),
          mem ? (mem.totalBytes / 2 ** 20).toFixed(0) : '-',
        ]);
      } catch (e) {
        console.log(`  ${id}: failed (${(e as Error).message.split('\n')[0]})`);
      } finally {
        await context.close();
      }
    }
    const head = ['encoder', 'backend', 'load ms', 'mem/s b1', 'mem/s b32', 'query ms', 'fetched MB', 'page+workers MiB'];
    const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    console.log(`[bench:browser-encoders] Chromium ${browser.version()}`);
    for (const r of [head, ...rows]) console.log('  ' + r.map((c, i) => (i < 2 ? c.padEnd(w[i]) : c.padStart(w[i]))).join('  '));
    console.log('  (200 synthetic memories; batch 1 = 40 texts one at a time; query ms = median of 30 short queries; fetched = model + runtime files; memory after load)');
  } finally {
    await browser.close();
    await new Promise<void>((ok) => server.close(() => ok()));
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  run().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
