// Ingest A/B (issue 13): memories per second through the app's full path (captures at batch 1, a
// plain-text import) beside the encoder alone, in Chromium through the real workers, for this
// checkout and, with --against <git ref>, for that ref's code built the same way, alternated
// round by round in fresh browser profiles (an empty database each), so a loaded machine moves
// both alike and the ratio is the figure to read. Uses the scale benchmark's page (bench.html,
// `window.__scaleBench.ingest`, src/diagnostics/scale-page.ts). Never fails on a timing.
//
//   npm run bench:ingest -- [--against main] [--variants 'threads=1;threads=2'] [--rounds 3] [--lines 200] [--captures 20]
//                           [--port 4184] [--no-build] [--json] [--quick]
// --quick: the import, the encoder alone in one call and featurize only (no encoder at 1 and 32 per call).
// --variants: this build under several encoder settings (the bench page's query: threads, batch,
// budget, spin, workers, sort, models = another model folder's URL; see scale-page.ts), each a variant of its own.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { sampleTexts } from '../../src/diagnostics/bench';
import type { IngestRates } from '../../src/diagnostics/scale-page';
import { serveStatic } from '../lib/static-server';

const ROOT = resolve(import.meta.dirname ?? '.', '../..');
const argv = process.argv.slice(2);
const arg = (k: string) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : undefined);
const opts = {
  against: arg('--against'),
  variants: (arg('--variants') ?? '').split(';').filter(Boolean),
  rounds: Number(arg('--rounds') ?? 3),
  lines: Number(arg('--lines') ?? 200),
  captures: Number(arg('--captures') ?? 20),
  port: Number(arg('--port') ?? 4184),
  build: !argv.includes('--no-build'),
  json: argv.includes('--json'),
  quick: argv.includes('--quick'),
};
const log = (s: string) => console.error(`[bench:ingest] ${s}`);

function viteBuild(cwd: string, outDir: string): void {
  if (!opts.build && existsSync(join(outDir, 'bench.html'))) return;
  log(`building ${outDir}`);
  const r = spawnSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir'], { cwd, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, MNEMOGRAPH_BENCH: '1' } });
  if (r.status !== 0 || !existsSync(join(outDir, 'bench.html'))) throw new Error(`the bench build in ${cwd} failed`);
}

/** `ref`'s tree (git archive) beside this checkout's node_modules and built assets, built into its own dist-bench. */
function buildRef(ref: string): string {
  const sha = spawnSync('git', ['rev-parse', '--short', ref], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  if (!sha) throw new Error(`unknown git ref ${ref}`);
  const dir = join('/tmp', `mnemograph-ingest-${sha}`);
  const out = join(dir, 'dist-bench');
  if (!existsSync(join(out, 'bench.html')) || opts.build) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const tar = spawnSync('sh', ['-c', `git archive ${sha} | tar -x -C ${dir}`], { cwd: ROOT, stdio: 'inherit' });
    if (tar.status !== 0) throw new Error(`git archive ${ref} failed`);
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    for (const a of ['models', 'ort', 'wasm', 'generated']) if (existsSync(join(ROOT, 'public', a))) cpSync(join(ROOT, 'public', a), join(dir, 'public', a), { recursive: true });
    const was = opts.build;
    opts.build = true;
    viteBuild(dir, out);
    opts.build = was;
  }
  return out;
}

async function once(browser: Browser, url: string, query: string, texts: string[]): Promise<IngestRates> {
  const ctx = await browser.newContext();
  try {
    const page = await ctx.newPage();
    page.on('pageerror', (e) => log(`page error: ${e.message}`));
    page.on('console', (m) => void (/helper/i.test(m.text()) && log(`page: ${m.text().slice(0, 300)}`)));
    await page.goto(`${url}/bench.html${query ? `?${query}` : ''}`);
    await page.evaluate(() => window.__scaleBench.count()); // the app and its encoder ready
    return await page.evaluate(([t, n, q]) => window.__scaleBench.ingest(t, n, q), [texts, opts.captures, opts.quick] as const);
  } finally {
    await ctx.close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : NaN;
};
const r1 = (x: number) => Math.round(x * 10) / 10;

async function main(): Promise<void> {
  const here = join(ROOT, 'dist-bench');
  viteBuild(ROOT, here);
  const variants: { name: string; dist: string; query: string }[] = opts.variants.length
    ? opts.variants.map((q) => ({ name: q, dist: here, query: q }))
    : [{ name: 'this', dist: here, query: '' }];
  if (opts.against) variants.unshift({ name: opts.against, dist: buildRef(opts.against), query: '' });
  const dists = [...new Set(variants.map((v) => v.dist))];
  const servers = await Promise.all(dists.map((d) => serveStatic(d, d === here ? opts.port : 0)));
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--disable-gpu', '--no-sandbox', '--enable-blink-features=ForceEagerMeasureMemory'] });
  const texts = sampleTexts(opts.lines + opts.captures).map((t) => `Ingest ${t}`);
  const runs: Record<string, (IngestRates & { load1m: number })[]> = Object.fromEntries(variants.map((v) => [v.name, []]));
  try {
    for (let r = 0; r < opts.rounds; r++)
      for (const [i, v] of (r % 2 ? [...variants].reverse() : variants).entries()) {
        const load1m = r1(loadavg()[0]!);
        const got = await once(browser, servers[dists.indexOf(v.dist)]!.url, v.query, texts);
        runs[v.name]!.push({ ...got, load1m });
        log(`round ${r + 1}${i ? 'b' : 'a'} ${v.name} (load ${load1m}): import ${r1(got.importPerSec)}/s, captures ${r1(got.batch1PerSec)}/s, encoder ${r1(got.encoderBatch1PerSec)} / ${r1(got.encoderBatchedPerSec)} / one call ${r1(got.encoderOneCallPerSec)}/s, featurize ${r1(got.featurizePerSec)}/s, embed workers ${got.embedMiB ?? '?'} MiB`);
      }
  } finally {
    await browser.close();
    await Promise.all(servers.map((s) => new Promise<void>((ok) => s.server.close(() => ok()))));
  }
  const keys = ['importPerSec', 'batch1PerSec', 'encoderBatch1PerSec', 'encoderBatchedPerSec', 'encoderOneCallPerSec', 'featurizePerSec', 'embedMiB'] as const;
  const summary = Object.fromEntries(
    variants.map((v) => [v.name, Object.fromEntries([...keys.map((k) => [k, r1(median(runs[v.name]!.map((x) => x[k] ?? NaN)))]), ['load1m', runs[v.name]!.map((x) => x.load1m)]])]),
  );
  const out: Record<string, unknown> = { lines: opts.lines, rounds: opts.rounds, variants: variants.map((v) => v.name), medians: summary, runs };
  if (variants.length > 1) {
    const a = summary[variants[0]!.name] as Record<string, number>;
    const b = summary[variants[variants.length - 1]!.name] as Record<string, number>;
    out.ratios = Object.fromEntries(keys.map((k) => [k, r1((b[k]! / a[k]!) * 100) / 100]));
  }
  if (opts.json) console.log(JSON.stringify(out, null, 2));
  else {
    console.log(`medians of ${opts.rounds} rounds, ${opts.lines}-line import (memories/s):`);
    for (const k of keys) console.log(`  ${k.padEnd(22)} ${variants.map((v) => `${v.name} ${String((summary[v.name] as Record<string, number>)[k])}`).join('   ')}${out.ratios ? `   ratio ${String((out.ratios as Record<string, number>)[k])}` : ''}`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
