// The associative-hops query right after a capture (issue 13): the engine's neighbour matrix and
// its lists are kept in step with each write (src/core/recall/live-matrix.ts,
// src/core/vectors/neighbours.ts) instead of dropped. The engine loaded as scale-node.ts loads it,
// the lists warmed by every query once (assocHops 3), then rounds of "capture one memory (a new id
// near a stored one, as the app's upsert sends it), then the next query with assocHops 3",
// interleaved in one engine: A = the matrix and its lists dropped at the write (what every write
// did before; B's lists are put back after A's query), B = both kept in step, C = the query with no
// write before it (the floor: what is left of B above it is the rest of a write's cost to the next
// query: the session neighbours, the divergence's window...). Per variant: the write's time, the
// query's time (wall and CPU), the lists the query computed; medians, with the load average.
//
//   node --expose-gc --max-old-space-size=8192 --import tsx scripts/bench/hops-after-write.ts [--n 100000] [--rounds 12] [--queries 30]
import { loadavg } from 'node:os';
import { matrixFromStore } from '../../src/core/recall';
import { serializeSpace } from '../../src/core/spaces';
import type { EngineDoc } from '../../src/protocol/engine';
import { EngineCore } from '../../workers/engine-core';
import { median } from '../lib/metrics';
import { corpus, engineDocsOf } from './recall';
import { DIM, features } from './scale-node';

const arg = (k: string, d: number) => {
  const i = process.argv.indexOf(`--${k}`);
  return i >= 0 ? Number(process.argv[i + 1]) : d;
};
const NOW = Date.UTC(2026, 10, 2);

interface Lists {
  stats: Record<string, number>;
  entries(): ReadonlyMap<string, unknown>;
}

async function main(): Promise<void> {
  const n = arg('n', 100_000);
  const queries = arg('queries', 30);
  const c = corpus(n, 200, DIM);
  const feats = await features(c, n);
  const engine = new EngineCore();
  const docs = engineDocsOf(c, feats.docs);
  engine.load(docs, { dim: DIM });
  // a few stored memories to copy captures from (their vector moved a little, a new id)
  const models: EngineDoc[] = Array.from({ length: 64 }, (_, i) => docs[(i * 7919) % n]);
  const vectors = Array.from({ length: 64 }, (_, i) => c.docs[(i * 7919) % n].vector);
  docs.length = 0;
  feats.docs.length = 0;
  const lists = (): Lists | undefined => (engine as unknown as { matrix?: { neighbours?: Lists } }).matrix?.neighbours;
  const recall = (q: number) => engine.recall({ text: c.queries[q].text, features: feats.queries[q], now: NOW }, { profile: 'BALANCED', assocHops: 3 });
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const t0 = performance.now();
  for (let q = 0; q < queries; q++) await recall(q);
  console.log(`N ${n}: ${queries} queries warmed ${lists()?.entries().size ?? 0} lists in ${((performance.now() - t0) / 1000).toFixed(1)} s (load ${loadavg()[0].toFixed(1)})`);
  // the neighbour matrix a write drops (rebuilt by the next lateral or hops query), alone
  const mt: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    matrixFromStore(engine.hybrid.vectors, (id) => engine.sessionOf(id) || undefined);
    mt.push(performance.now() - t);
  }
  console.log(`matrixFromStore alone: ${median(mt).toFixed(1)} ms (median of 5)`);
  let k = 0;
  const rows: Record<'A' | 'B' | 'C', { write: number; query: number; cpu: number; computed: number }[]> = { A: [], B: [], C: [] };
  for (let round = 0; round < arg('rounds', 12); round++) {
    for (const v of round % 2 ? (['B', 'A', 'C'] as const) : (['C', 'A', 'B'] as const)) {
      const i = k % models.length;
      const noisy = Float32Array.from(vectors[i], (x, j) => x + 0.02 * Math.sin(k * 31 + j));
      const doc: EngineDoc = { ...models[i], id: `capture-${k}`, features: { ...models[i].features, E1: serializeSpace('E1', noisy) } };
      const q = k % queries;
      k++;
      const l = lists(); // the store's lists (the engine drops its matrix at the write, not them)
      let t = performance.now();
      if (v !== 'C') engine.upsert(doc);
      const write = performance.now() - t;
      // A: as before, every list dropped by the write; B's lists are put back after A's query, so
      // each variant sees only its own history
      const cache = (l as unknown as { cache: Map<string, unknown> } | undefined)?.cache;
      const saved = v === 'A' && cache ? new Map(cache) : null;
      if (saved) {
        cache!.clear();
        (engine as unknown as { matrix: unknown }).matrix = null; // and the matrix rebuilt, as before (a new live one)
      }
      const before = l?.stats.computed ?? 0;
      const c0 = cpu();
      t = performance.now();
      await recall(q);
      rows[v].push({ write, query: performance.now() - t, cpu: cpu() - c0, computed: (lists()?.stats.computed ?? 0) - before });
      if (saved) {
        cache!.clear();
        for (const [id, e] of saved) cache!.set(id, e);
      }
    }
  }
  const med = (v: 'A' | 'B' | 'C', f: (r: (typeof rows)['A'][number]) => number) => median(rows[v].map(f));
  const label = { A: 'A (matrix + lists dropped)   ', B: 'B (kept in step)            ', C: 'C (no write: the floor)     ' };
  for (const v of ['A', 'B', 'C'] as const)
    console.log(
      `${label[v]}: write ${med(v, (r) => r.write).toFixed(2)} ms, next assocHops 3 query wall ${med(v, (r) => r.query).toFixed(0)} ms / cpu ${med(v, (r) => r.cpu).toFixed(0)} ms, lists computed ${med(v, (r) => r.computed)}`,
    );
  console.log(`query ratio B/A ${(med('B', (r) => r.cpu) / med('A', (r) => r.cpu)).toFixed(2)} (cpu), ${(med('B', (r) => r.query) / med('A', (r) => r.query)).toFixed(2)} (wall); load ${loadavg()[0].toFixed(1)}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
