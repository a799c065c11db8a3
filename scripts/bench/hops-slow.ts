// Which assocHops queries are slow, and why (issue 13: assocHops 3 p95 ~3x its p50 at 100k): the
// engine loaded as scale-node.ts loads it, the neighbour matrix built by one hop, then every query
// once with assocHops 3 (in order, so the lists cached by earlier queries help later ones as in
// the app), each timed (wall and CPU) with the neighbour lists it computed, regrew, fell back on.
// Prints the p50 / p95 and the slowest queries with their counts.
//
//   node --expose-gc --max-old-space-size=8192 --import tsx scripts/bench/hops-slow.ts [--n 30000] [--passes 2]
import { loadavg } from 'node:os';
import { EngineCore } from '../../workers/engine-core';
import { median, percentile } from '../lib/metrics';
import { corpus, engineDocsOf } from './recall';
import { DIM, features } from './scale-node';

const arg = (k: string, d: number) => {
  const i = process.argv.indexOf(`--${k}`);
  return i >= 0 ? Number(process.argv[i + 1]) : d;
};
const NOW = Date.UTC(2026, 10, 2);

async function main(): Promise<void> {
  const n = arg('n', 30_000);
  const c = corpus(n, 200, DIM);
  const feats = await features(c, n);
  const engine = new EngineCore();
  engine.load(engineDocsOf(c, feats.docs), { dim: DIM });
  feats.docs.length = 0;
  c.docs.length = 0;
  const stats = () => ({ ...(engine as unknown as { matrix?: { neighbours?: { stats: Record<string, number> } } }).matrix?.neighbours?.stats });
  const recall = (q: number, hops: number) => engine.recall({ text: c.queries[q].text, features: feats.queries[q], now: NOW }, { profile: 'BALANCED', assocHops: hops });
  await recall(0, 1);
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  for (let pass = 0; pass < arg('passes', 2); pass++) {
    const rows: { q: number; ms: number; cpu: number; computed: number; regrown: number; fallbacks: number; hop: number }[] = [];
    for (let q = 0; q < c.queries.length; q++) {
      const s0 = stats();
      const c0 = cpu();
      const t0 = performance.now();
      const out = await recall(q, 3);
      const ms = performance.now() - t0;
      const s1 = stats();
      const d = (k: string) => (s1[k] ?? 0) - (s0[k] ?? 0);
      rows.push({ q, ms, cpu: cpu() - c0, computed: d('computed'), regrown: d('regrown'), fallbacks: d('fallbacks'), hop: out.results.filter((r) => r.mode === 'associative').length });
    }
    const cpus = rows.map((r) => r.cpu);
    console.log(`pass ${pass}: cpu p50 ${median(cpus).toFixed(1)} ms, p95 ${percentile(cpus, 95).toFixed(1)} ms; wall p50 ${median(rows.map((r) => r.ms)).toFixed(1)}, p95 ${percentile(rows.map((r) => r.ms), 95).toFixed(1)} (load ${loadavg()[0].toFixed(1)})`);
    const mean = (f: (r: (typeof rows)[number]) => number, rs: typeof rows) => (rs.reduce((a, r) => a + f(r), 0) / rs.length).toFixed(1);
    const slow = [...rows].sort((a, b) => b.cpu - a.cpu);
    const [top, rest] = [slow.slice(0, 10), slow.slice(10)];
    console.log(`  slowest 10: computed ${mean((r) => r.computed, top)}, regrown ${mean((r) => r.regrown, top)}, fallbacks ${mean((r) => r.fallbacks, top)}; the rest: computed ${mean((r) => r.computed, rest)}, regrown ${mean((r) => r.regrown, rest)}, fallbacks ${mean((r) => r.fallbacks, rest)}`);
    for (const r of top) console.log(`  q${r.q}: cpu ${r.cpu.toFixed(0)} ms, wall ${r.ms.toFixed(0)}, computed ${r.computed}, regrown ${r.regrown}, fallbacks ${r.fallbacks}, hop results ${r.hop}`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
