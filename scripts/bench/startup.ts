// Start-up of the app in Debian's Chromium (issue 12, point 11): a FIRST visit (a fresh profile:
// nothing cached, the service worker installs) and a RETURN visit (the same profile reopened: the
// files come from the service worker's precache, compiled WebAssembly from Chromium's code cache),
// RUNS times each. For each visit: when the keyword search was usable (the services up, the page's
// mark `mnemograph:services-ready`) and when "Model ready" showed (`mnemograph:model-ready`), both
// from navigation start; and the embed worker's own marks (workers/startup-marks.ts, ms since the
// worker started) with the resource timings of its model and runtime files. Never fails on a timing.
//
//   npm run build && npx tsx scripts/bench/startup.ts        (RUNS=3 by default; STARTUP_ENCODER=<id>)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext } from '@playwright/test';
import { serveStatic } from '../lib/static-server';

const ROOT = resolve(import.meta.dirname ?? '.', '../..');
const RUNS = Number(process.env.RUNS ?? 3);

interface Visit {
  servicesReadyMs: number;
  modelReadyMs: number;
  worker: Record<string, number>;
  files: { name: string; ms: number; cached: boolean }[];
}

async function visit(context: BrowserContext, url: string): Promise<Visit> {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(url);
  // polled by evaluate: waitForFunction does not run under the app's Content-Security-Policy
  const until = Date.now() + 240_000;
  while (!(await page.evaluate(() => performance.getEntriesByName('mnemograph:model-ready').length > 0))) {
    if (Date.now() > until) throw new Error('"Model ready" did not come within 240 s');
    await new Promise((ok) => setTimeout(ok, 100));
  }
  // no helper functions inside evaluate: tsx names them with a helper the page does not have
  const marks = await page.evaluate(() => {
    const services = performance.getEntriesByName('mnemograph:services-ready')[0] as PerformanceMark | undefined;
    const ready = performance.getEntriesByName('mnemograph:model-ready')[0] as PerformanceMark | undefined;
    return { services: Math.round(services?.startTime ?? Number.NaN), model: Math.round(ready?.startTime ?? Number.NaN), worker: (ready?.detail ?? {}) as Record<string, number> };
  });
  const embed = page.workers().find((w) => /embed/.test(w.url()));
  const files = embed
    ? await embed.evaluate(() =>
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((e) => /\/(models|ort|generated)\//.test(e.name))
          .map((e) => ({ name: e.name.slice(e.name.lastIndexOf('/') + 1), ms: Math.round(e.responseEnd - e.startTime), cached: e.transferSize === 0 })),
      )
    : [];
  // the precache must be complete before the profile is closed, or the return visit is not one
  await page.evaluate(() => navigator.serviceWorker?.ready.then(() => undefined));
  return { servicesReadyMs: marks.services, modelReadyMs: marks.model, worker: marks.worker, files };
}

function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const median = s[Math.floor(s.length / 2)];
  return `median ${median} ms (${xs.join(', ')})`;
}

export async function run(): Promise<Record<string, number>> {
  const dist = resolve(process.env.BROWSER_BENCH_DIST ?? join(ROOT, 'dist'));
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`${dist}/index.html is missing: run npm run build first`);
  const { server, url } = await serveStatic(dist);
  const launch = (dir: string) =>
    chromium.launchPersistentContext(dir, {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      serviceWorkers: 'allow',
    });
  const first: Visit[] = [];
  const back: Visit[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'mnemograph-startup-'));
      try {
        let ctx = await launch(dir);
        first.push(await visit(ctx, `${url}/`));
        await ctx.close();
        ctx = await launch(dir);
        back.push(await visit(ctx, `${url}/`));
        await ctx.close();
        console.log(`  run ${i + 1}: first ${first[i].modelReadyMs} ms, return ${back[i].modelReadyMs} ms`);
      } finally {
        try {
          rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
        } catch {
          console.log(`  (left ${dir} behind: Chromium was still writing to it)`);
        }
      }
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
  }
  for (const [name, vs] of [['first visit', first], ['return visit', back]] as const) {
    console.log(`[bench:startup] ${name}`);
    console.log(`  keyword search usable: ${stats(vs.map((v) => v.servicesReadyMs))}`);
    console.log(`  "Model ready":         ${stats(vs.map((v) => v.modelReadyMs))}`);
    const keys = [...new Set(vs.flatMap((v) => Object.keys(v.worker)))].sort((a, b) => (vs[0].worker[a] ?? 0) - (vs[0].worker[b] ?? 0));
    for (const k of keys) console.log(`    worker ${k.padEnd(34)} ${vs.map((v) => String(v.worker[k] ?? '-').padStart(6)).join(' ')}`);
    const fileNames = [...new Set(vs.flatMap((v) => v.files.map((f) => f.name)))];
    for (const f of fileNames)
      console.log(`    fetch  ${f.padEnd(34)} ${vs.map((v) => { const r = v.files.find((x) => x.name === f); return r ? `${r.ms}${r.cached ? 'c' : ''}`.padStart(6) : '     -'; }).join(' ')}`);
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return {
    first_model_ready_ms: med(first.map((v) => v.modelReadyMs)),
    return_model_ready_ms: med(back.map((v) => v.modelReadyMs)),
    first_keywords_ms: med(first.map((v) => v.servicesReadyMs)),
    return_keywords_ms: med(back.map((v) => v.servicesReadyMs)),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  run().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
