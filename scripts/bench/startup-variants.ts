// Start-up variants of MiniLM on WASM in Chromium (issue 12, point 11), each in a fresh context
// without a service worker, from diagnostics.html: onnxruntime's build (?ort=plain|asyncify),
// threads (?threads=N), graph optimisation (?opt=...). Prints load (bridge start -> ready), the
// session creation and warm-up from the worker's marks, a short query's latency and the first
// numbers of one vector (the builds must agree). Never fails on a timing.
//
//   npm run build && VARIANTS='&ort=plain,&ort=asyncify' npx tsx scripts/bench/startup-variants.ts
import { chromium } from '@playwright/test';
import { resolve } from 'node:path';
import { serveStatic } from '../lib/static-server';
const { server, url } = await serveStatic(resolve(import.meta.dirname ?? '.', '../../dist'));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const variants = (process.env.VARIANTS ?? '&ort=plain,&ort=asyncify,&ort=plain,&ort=asyncify').split(',');
for (const v of variants) {
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const page = await ctx.newPage();
  await page.goto(`${url}/diagnostics.html?backend=wasm&nofallback${v}`);
  try {
    await page.evaluate(() => window.__diag.ready);
  } catch (e) {
    console.log(v, 'FAILED', String(e).slice(0, 300));
    await ctx.close();
    continue;
  }
  const r = await page.evaluate(() => ({ ms: window.__diag.loadMs(), t: window.__diag.history().find((p) => p.phase === 'ready')?.timings }));
  const q = await page.evaluate(async () => { const t = performance.now(); for (let i = 0; i < 10; i++) await window.__diag.embed(['a short query about gardening ' + i]); return Math.round((performance.now() - t) / 10); });
  const v1 = await page.evaluate(async () => Array.from((await window.__diag.embed(['The quick brown fox jumps over the lazy dog']))[0].slice(0, 4)).map((x) => x.toFixed(5)).join(' '));
  console.log(v.padEnd(28), 'load', r.ms, 'session', (r.t?.['session-created-wasm'] ?? 0) - (r.t?.['fetched-model_quantized.onnx'] ?? 0), 'warm-up', (r.t?.['warmed-up-wasm'] ?? 0) - (r.t?.['session-created-wasm'] ?? 0), 'query ms', q, 'vec', v1);
  await ctx.close();
}
await browser.close(); server.closeAllConnections(); server.close();
