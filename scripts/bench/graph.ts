// Recall graph benchmark: layout time (model -> positions) and per-frame draw time during
// continuous pan / zoom, at 200 and 2,000 nodes, in Debian's Chromium. Prints figures; never
// fails on a timing.
//
//   npx tsx scripts/bench/graph.ts            (builds dist/ first if dist/graph-lab.html is missing)
//   GRAPH_LAB_DIST=/some/dist npx tsx scripts/bench/graph.ts
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { serveStatic } from '../lib/static-server';

const ROOT = resolve(import.meta.dirname ?? '.', '../..');
const SIZES = [200, 2000];
const FRAMES = 60;

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

const round = (x: number): number => Math.round(x * 100) / 100;

export async function run(): Promise<Record<string, number>> {
  const dist = resolve(process.env.GRAPH_LAB_DIST ?? join(ROOT, 'dist'));
  if (!existsSync(join(dist, 'graph-lab.html'))) {
    console.log(`[bench:graph] ${dist}/graph-lab.html is missing: running npx vite build`);
    const b = spawnSync('npx', ['vite', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('vite build failed; see the output above');
  }
  const { server, url } = await serveStatic(dist, 4190);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  const out: Record<string, number> = {};
  try {
    for (const n of SIZES) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
      await page.goto(`${url}/graph-lab.html?n=${n}`);
      await page.waitForFunction(() => window.__graphBench?.layoutMs !== null, null, { timeout: 120_000 });
      const info = await page.evaluate(() => ({
        layoutMs: window.__graphBench.layoutMs!,
        ticks: window.__graphBench.layoutTicks!,
        computeMs: window.__graphBench.layoutComputeMs!,
        source: window.__graphBench.layoutSource,
        nodes: window.__graphBench.nodes,
      }));
      await page.evaluate(() => window.__graphBench.frameTimes(10)); // warm sprite caches and JIT
      const frames = (await page.evaluate((c) => window.__graphBench.frameTimes(c), FRAMES)).sort((a, b) => a - b);
      const intervals = (await page.evaluate(() => window.__graphBench.lastIntervals)).sort((a, b) => a - b);
      await page.close();
      out[`layout_ms_${n}`] = round(info.layoutMs);
      out[`layout_compute_ms_${n}`] = round(info.computeMs);
      out[`layout_ticks_${n}`] = info.ticks;
      out[`nodes_${n}`] = info.nodes;
      out[`frame_draw_median_ms_${n}`] = round(quantile(frames, 0.5));
      out[`frame_draw_p95_ms_${n}`] = round(quantile(frames, 0.95));
      out[`frame_interval_median_ms_${n}`] = round(quantile(intervals, 0.5));
      console.log(
        `[bench:graph] n=${info.nodes}: layout ${info.layoutMs.toFixed(0)} ms model->positions ` +
          `(simulation ${info.computeMs.toFixed(0)} ms, ${info.ticks} ticks, ${info.source}); ` +
          `draw per frame median ${quantile(frames, 0.5).toFixed(2)} ms, p95 ${quantile(frames, 0.95).toFixed(2)} ms; ` +
          `rAF interval median ${quantile(intervals, 0.5).toFixed(1)} ms over ${FRAMES} frames of pan/zoom`,
      );
    }
    if (out.frame_draw_median_ms_200 > 0) {
      out.frame_draw_ratio_2000_vs_200 = round(out.frame_draw_median_ms_2000 / out.frame_draw_median_ms_200);
      out.layout_ratio_2000_vs_200 = round(out.layout_ms_2000 / out.layout_ms_200);
      console.log(`[bench:graph] 2000 vs 200: draw x${out.frame_draw_ratio_2000_vs_200}, layout x${out.layout_ratio_2000_vs_200}`);
    }
  } finally {
    await browser.close();
    await new Promise<void>((ok) => server.close(() => ok()));
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  run().then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
