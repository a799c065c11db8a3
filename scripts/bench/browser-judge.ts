// Careful ranking's judge (MPNet, int8 ONNX, 768-d) in Debian's Chromium, from the production build,
// in its own worker as the app runs it (one WASM thread): load time (worker start -> ready), ms per
// memory at one text per call (the background fill's way), a short query's judge-vector latency,
// and page + workers memory before and after (measureUserAgentSpecificMemory), for onnxruntime's
// default graph optimisation and for 'disabled' (which leaves the int8 weights unfolded), ROUNDS
// rounds alternating the two, each in a fresh page. Prints the load average beside the figures;
// never fails on a timing.
//
//   npm run build && npx tsx scripts/bench/browser-judge.ts     (ROUNDS=2, N=20 memories per round)
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { serveStatic } from '../lib/static-server';

const ROOT = resolve(import.meta.dirname ?? '.', '../..');
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const N = Number(process.env.N ?? 20);
const VARIANTS = [undefined, 'disabled'] as const;

async function main(): Promise<void> {
  const dist = resolve(process.env.BROWSER_BENCH_DIST ?? join(ROOT, 'dist'));
  if (!existsSync(join(dist, 'models/all-mpnet-base-v2-int8/onnx/model_quantized.onnx'))) throw new Error(`${dist} has no judge model: build it first`);
  const { server, url } = await serveStatic(dist);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--enable-precise-memory-info', '--enable-blink-features=ForceEagerMeasureMemory'],
  });
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const opt of r % 2 === 0 ? VARIANTS : [...VARIANTS].reverse()) {
        const context = await browser.newContext({ serviceWorkers: 'block' });
        const page = await context.newPage();
        try {
          // USE-lite in the page's own embed worker (small): the judge's figures are what is measured
          await page.goto(`${url}/diagnostics.html?backend=wasm&encoder=use-lite-en%2Fv1`);
          await page.evaluate(() => window.__diag.ready);
          const load = loadavg()[0].toFixed(1);
          const res = await page.evaluate(([n, o]) => window.__diag.judgeBench(n, o ? { graphOptimization: o } : {}), [N, opt] as const);
          console.log(`[bench:judge] round ${r + 1} opt=${opt ?? 'default'} load ${load}: ${JSON.stringify(res)}`);
        } catch (e) {
          console.log(`[bench:judge] round ${r + 1} opt=${opt ?? 'default'}: failed (${(e as Error).message.split('\n')[0]})`);
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
    await new Promise<void>((ok) => server.close(() => ok()));
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
