// A CPU profile of one query path at scale (issue 13): the engine loaded as scale-node.ts loads it
// (same seeded corpus, same cached features), then `--queries` recalls of one variant under the
// inspector's sampling profiler, written to a .cpuprofile (open it in Chrome's DevTools) and
// summarised by self time per function. The load is not profiled.
//
//   node --expose-gc --max-old-space-size=6144 --import tsx scripts/bench/scale-profile.ts \
//     --n 100000 --variant divergent|recall|hops3|search [--queries 40] [--out file.cpuprofile]
//   (add --trace-gc to see the collections between queries)
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { deserializeFeatures } from '../../src/core/spaces';
import type { RecallOptionsInput } from '../../src/core/recall';
import { EngineCore } from '../../workers/engine-core';
import { corpus, engineDocsOf } from './recall';
import { DIM, features } from './scale-node';

const arg = (name: string, dflt: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : dflt;
};

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

async function main(): Promise<void> {
  const n = Number(arg('n', '100000'));
  const variant = arg('variant', 'divergent');
  const queries = Number(arg('queries', '40'));
  const c = corpus(n, 200, DIM);
  const feats = await features(c, n);
  const engine = new EngineCore();
  engine.load(engineDocsOf(c, feats.docs), { dim: DIM });
  feats.docs.length = 0;
  c.docs.length = 0;
  const qVec = feats.queries.map((f) => (deserializeFeatures(f).E1 as Float32Array | undefined) ?? null);
  const recall = (o: RecallOptionsInput) => (q: number) => engine.recall({ text: c.queries[q].text, features: feats.queries[q] }, o);
  const runs: Record<string, (q: number) => Promise<unknown>> = {
    search: (q) => engine.search({ text: c.queries[q].text, vector: qVec[q] }, { topK: 10 }),
    recall: recall({ profile: 'BALANCED' }),
    divergent: recall({ profile: 'DIVERGENT' }),
    hops3: recall({ profile: 'BALANCED', assocHops: 3 }),
  };
  const run = runs[variant];
  await recall({ assocHops: 1 })(0); // builds the neighbour matrix
  for (let i = 0; i < 5; i++) await run(i);
  (globalThis as { gc?: () => void }).gc?.();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  const times: number[] = [];
  // the neighbour lists' work per query (hops): lists computed / regrown / full-scan fallbacks
  const stats = () => (engine as unknown as { matrix?: { neighbours?: { stats: Record<string, number> } } }).matrix?.neighbours?.stats;
  const work: string[] = [];
  for (let i = 0; i < queries; i++) {
    const before = { ...stats() };
    const t0 = performance.now();
    await run(5 + i);
    times.push(performance.now() - t0);
    const after = stats();
    if (after) work.push(`${after.computed - before.computed!}/${after.regrown - before.regrown!}/${after.fallbacks - before.fallbacks!}`);
  }
  const { profile } = (await session.post('Profiler.stop')) as { profile: { nodes: ProfileNode[] } };
  const out = arg('out', `/tmp/scale-${variant}-${n}.cpuprofile`);
  writeFileSync(out, JSON.stringify(profile));
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`${variant} at ${n}: ${queries} queries, p50 ${sorted[Math.floor(queries / 2)].toFixed(1)} ms, max ${sorted[queries - 1].toFixed(1)} ms; profile ${out}`);
  console.log(`  per query (ms, in order): ${times.map((t) => t.toFixed(0)).join(' ')}`);
  if (work.length > 0) console.log(`  neighbour lists computed/regrown/fallbacks per query: ${work.join(' ')}`);
  const self = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const h = node.hitCount ?? 0;
    total += h;
    const f = node.callFrame;
    const key = `${f.functionName || '(anon)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + h);
  }
  for (const [k, h] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${((100 * h) / total).toFixed(1).padStart(5)}%  ${k}`);
}

void main();
