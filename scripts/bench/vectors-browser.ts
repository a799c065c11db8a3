// `npm run bench:vectors -- --browser [--n 1000000] [--dim 384] [--data clustered|random]
//   [--queries 40] [--int8-only] [--port 4185] [--json]`: the approximate-index bench (ann-core.ts)
// in Chromium (/usr/bin/chromium, headless), in one page's main thread. A light standalone page:
// ann-page.ts bundled by esbuild into a temp folder and served by a small local server with the
// cross-origin isolation headers (so the page can measure its own memory). Nothing is fetched from
// elsewhere. Never fails on timings.
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { chromium } from '@playwright/test';

const argv = process.argv;
const num = (k: string, d: number) => (argv.includes(`--${k}`) ? Number(argv[argv.indexOf(`--${k}`) + 1]) : d);
const str = (k: string, d: string) => (argv.includes(`--${k}`) ? argv[argv.indexOf(`--${k}`) + 1] : d);
const JSON_OUT = argv.includes('--json');
const cfg = { n: num('n', 100000), dim: num('dim', 384), data: str('data', 'clustered') as 'clustered' | 'random', queries: num('queries', 40), keepFloat: !argv.includes('--int8-only') };
const port = num('port', 4185);
const log = (s: string) => (JSON_OUT ? console.error : console.log)(`[bench:vectors --browser] ${s}`);

const dir = mkdtempSync(join(tmpdir(), 'ann-page-'));
await build({ entryPoints: [resolve(import.meta.dirname ?? '.', 'ann-page.ts')], bundle: true, format: 'esm', target: 'es2022', platform: 'browser', outfile: join(dir, 'page.js'), logLevel: 'warning' });
writeFileSync(join(dir, 'index.html'), '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Vectors bench</title><link rel="icon" href="data:,"></head><body><h1>Dense vectors bench</h1><script type="module" src="/page.js"></script></body></html>');
const server = createServer((req, res) => {
  const file = req.url === '/page.js' ? 'page.js' : 'index.html';
  res.writeHead(200, { 'content-type': file.endsWith('.js') ? 'text/javascript' : 'text/html', 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' });
  res.end(readFileSync(join(dir, file)));
});
await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--disable-gpu', '--no-sandbox', '--enable-precise-memory-info', '--enable-blink-features=ForceEagerMeasureMemory'],
});
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(0);
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForSelector('body[data-ready="1"]');
  const load0 = loadavg();
  log(`${cfg.data} n = ${cfg.n} × ${cfg.dim} in ${await page.evaluate(() => navigator.userAgent)}`);
  const poll = setInterval(() => {
    page.evaluate(() => window.__annLog.splice(0)).then((lines) => lines.forEach(log), () => {});
  }, 5000);
  const out = await page.evaluate((c) => window.__annBench(c), cfg);
  clearInterval(poll);
  const result = { browser: 'chromium', ...(out as object), loadAverage: [load0, loadavg()].map((l) => l.map((x) => +x.toFixed(1))) };
  console.log(JSON_OUT ? JSON.stringify(result) : result);
} finally {
  await browser.close();
  server.close();
}
