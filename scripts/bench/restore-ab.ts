// Restore speed A/B in Chromium (issue 13): two bench builds (A = a baseline, B = this tree),
// each restoring the same seeded scale corpus (scripts/bench/scale-corpus.ts) through the app's
// import service (previewImport / runImport of JSON backups, what a person's restore does) in a
// fresh profile, alternating A, B, A, B ... so both see the same machine load. Prints memories/s
// per round and the median ratio B / A; never fails on a timing.
//
//   npx tsx scripts/bench/restore-ab.ts --a /tmp/dist-base --b dist-bench [--n 10000] [--rounds 2]
//                                       [--port 4183] [--seed 13] [--json]
// Build a baseline with: git stash / checkout <rev>; MNEMOGRAPH_BENCH=1 npx vite build --outDir /tmp/dist-base
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { ensureCorpus } from './scale-corpus';

const argv = process.argv.slice(2);
const arg = (k: string, d: string) => {
  const i = argv.indexOf(k);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1]! : d;
};
const ROOT = resolve(import.meta.dirname ?? '.', '../..');
const opts = {
  a: resolve(arg('--a', '/tmp/dist-base')),
  b: resolve(ROOT, arg('--b', 'dist-bench')),
  n: Number(arg('--n', '10000')),
  rounds: Number(arg('--rounds', '2')),
  port: Number(arg('--port', '4183')),
  seed: Number(arg('--seed', '13')),
  json: argv.includes('--json'),
};
const log = (s: string) => console.error(`[restore-ab] ${s}`);

async function serve(dir: string, port: number): Promise<ChildProcess> {
  if (!existsSync(join(dir, 'bench.html'))) throw new Error(`${dir} has no bench.html (MNEMOGRAPH_BENCH=1 vite build)`);
  const child = spawn('npx', ['vite', 'preview', '--outDir', dir, '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { cwd: ROOT, stdio: 'ignore', detached: true });
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/bench.html`)).ok) return child;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`vite preview did not answer on ${port}`);
}

interface Round {
  build: 'A' | 'B';
  perSec: number;
  ms: number;
  written: number;
  load: number;
  chunkMs: number[];
}

async function restoreOnce(browser: Browser, url: string, dir: string, chunks: string[]): Promise<Omit<Round, 'build' | 'load'>> {
  const ctx = await browser.newContext();
  try {
    await ctx.route(`${url}/bench-corpus/*`, (route) => {
      const name = new URL(route.request().url()).pathname.split('/').pop()!;
      const file = join(dir, name);
      if (!/^[\w.-]+$/.test(name) || !existsSync(file)) return route.fulfill({ status: 404 });
      return route.fulfill({ status: 200, body: readFileSync(file), contentType: 'application/json' });
    });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => log(`page error: ${e.message}`));
    await page.goto(`${url}/bench.html`);
    const r = await page.evaluate((urls) => window.__scaleBench.restore(urls), chunks.map((c) => `/bench-corpus/${c}`));
    return { perSec: r.written / (r.ms / 1000), ms: Math.round(r.ms), written: r.written, chunkMs: (r.chunkMs as number[] | undefined) ?? [] }; // a build from before the per-chunk times has none
  } finally {
    await ctx.close();
  }
}

async function main(): Promise<void> {
  const corpus = await ensureCorpus(opts.n, opts.seed, log);
  const servers = [await serve(opts.a, opts.port), await serve(opts.b, opts.port + 1)];
  const stop = () => servers.forEach((c) => c.pid && process.kill(-c.pid));
  process.once('exit', stop);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--disable-gpu', '--no-sandbox'] });
  const rounds: Round[] = [];
  try {
    for (let i = 0; i < opts.rounds; i++)
      for (const build of ['A', 'B'] as const) {
        const load = Math.round(loadavg()[0]! * 10) / 10;
        const url = `http://127.0.0.1:${build === 'A' ? opts.port : opts.port + 1}`;
        const r = await restoreOnce(browser, url, corpus.dir, corpus.chunks);
        rounds.push({ build, load, ...r });
        log(`round ${i + 1} ${build}: ${r.written} in ${(r.ms / 1000).toFixed(1)} s = ${r.perSec.toFixed(0)} memories/s (load ${load}; chunks ${r.chunkMs.join(' ')} ms)`);
      }
  } finally {
    await browser.close();
    stop();
  }
  const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)]!;
  const ratios = Array.from({ length: opts.rounds }, (_, i) => rounds[2 * i + 1]!.perSec / rounds[2 * i]!.perSec);
  const out = { n: opts.n, a: opts.a, b: opts.b, rounds, medianRatioBtoA: Math.round(med(ratios) * 100) / 100 };
  if (opts.json) console.log(JSON.stringify(out, null, 2));
  else {
    for (const r of rounds) console.log(`${r.build} ${r.perSec.toFixed(0)} memories/s (${(r.ms / 1000).toFixed(1)} s, load ${r.load})`);
    console.log(`median B/A ${out.medianRatioBtoA}`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
