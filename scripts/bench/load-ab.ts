// A/B of the engine's load (EngineCore.load of every doc with all its features) at scale, in one
// process: this checkout's EngineCore and another checkout's (--base <dir>, e.g. a `git archive`
// of an older commit given this checkout's node_modules), alternating per round (base, new, new,
// base, ...), each engine dropped and the heap collected before the next load, so load and drift
// hit both alike. Same seeded corpus and cached features as scale-node.ts. Prints each load and
// the median ratio new / base with the load average.
//
//   node --expose-gc --max-old-space-size=8192 --import tsx scripts/bench/load-ab.ts \
//     --base /tmp/eng-base [--n 30000] [--rounds 3] [--only base|new]
import { resolve } from 'node:path';
import { loadavg } from 'node:os';
import { EngineCore } from '../../workers/engine-core';
import { median } from '../lib/metrics';
import { corpus, engineDocsOf } from './recall';
import { DIM, features } from './scale-node';

const arg = (name: string, dflt: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : dflt;
};
type Engine = Pick<EngineCore, 'load'>;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

async function main(): Promise<void> {
  const n = Number(arg('n', '30000'));
  const rounds = Number(arg('rounds', '3'));
  const base = resolve(arg('base', ''));
  const Old = ((await import(`${base}/workers/engine-core.ts`)) as { EngineCore: new () => Engine }).EngineCore;
  const c = corpus(n, 200, DIM);
  const feats = await features(c, n);
  const makers: Record<string, () => Engine> = { base: () => new Old(), new: () => new EngineCore() };
  const times: Record<string, number[]> = { base: [], new: [] };
  // CPU time (user + system, GC threads included) beside the wall clock: under a shared machine's
  // load the wall clock mostly measures the wait for a core
  const cpus: Record<string, number[]> = { base: [], new: [] };
  for (let r = 0; r < rounds; r++) {
    // --only base|new: one engine alone (for a --cpu-prof of its load)
    const only = arg('only', '');
    for (const name of (r % 2 === 0 ? ['base', 'new'] : ['new', 'base']).filter((x) => !only || x === only)) {
      const docs = engineDocsOf(c, feats.docs);
      gc();
      const l0 = loadavg()[0]!;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      makers[name]!().load(docs, { dim: DIM }); // the engine is garbage once loaded
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(c0);
      const cpuMs = (cpu.user + cpu.system) / 1000;
      docs.length = 0;
      gc();
      times[name]!.push(ms);
      cpus[name]!.push(cpuMs);
      console.log(`round ${r} ${name}: ${(ms / 1000).toFixed(2)} s wall, ${(cpuMs / 1000).toFixed(2)} s cpu (load ${l0.toFixed(1)}-${loadavg()[0]!.toFixed(1)})`);
    }
  }
  const b = median(times.base!);
  const nw = median(times.new!);
  const bc = median(cpus.base!);
  const nc = median(cpus.new!);
  const r2 = (x: number) => Math.round(x * 100) / 100;
  console.log(JSON.stringify({ n, rounds, baseMs: Math.round(b), newMs: Math.round(nw), ratio: r2(nw / b), baseCpuMs: Math.round(bc), newCpuMs: Math.round(nc), cpuRatio: r2(nc / bc), base: times.base!.map(Math.round), new: times.new!.map(Math.round), baseCpu: cpus.base!.map(Math.round), newCpu: cpus.new!.map(Math.round) }));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
