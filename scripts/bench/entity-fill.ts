// The entity graph's fill after an engine snapshot's adoption (issue 13), old and new code in one
// process, interleaved: the graph built on graphology nodes and edges (scripts/lib/
// entity-graph-graphology.ts, what workers/entity-graph.ts was) against the plain maps it is now,
// both filled from the same E11 lists: those of the scale corpus (scale-node.ts's feature cache,
// real featurizers) or, with --synthetic, Zipf-drawn lists. CPU time per fill (medians of
// interleaved rounds), the heap each graph holds (with --expose-gc), the load average; the two
// graphs are checked to answer alike (every memory's entities, a sample of entities' members).
//
//   node --expose-gc --max-old-space-size=8192 --import tsx scripts/bench/entity-fill.ts [--n 100000] [--rounds 5] [--synthetic]
import { loadavg } from 'node:os';
import { seededUniform } from '../../src/core/features/hash';
import { deserializeSpace } from '../../src/core/spaces';
import { EntityGraph } from '../../workers/entity-graph';
import { GraphologyEntityGraph } from '../lib/entity-graph-graphology';
import { median } from '../lib/metrics';
import { corpus } from './recall';
import { DIM, features } from './scale-node';

const arg = (k: string, d: number) => {
  const i = process.argv.indexOf(`--${k}`);
  return i >= 0 ? Number(process.argv[i + 1]) : d;
};
const n = arg('n', 100_000);
const rounds = arg('rounds', 5);

async function lists(): Promise<Map<string, number[]>> {
  const rows = new Map<string, number[]>();
  if (process.argv.includes('--synthetic')) {
    const rand = seededUniform(7);
    for (let i = 0; i < n; i++) rows.set(`m${i}`, Array.from({ length: rand() < 0.3 ? 0 : 1 + Math.floor(rand() * 5) }, () => Math.floor(30_000 / (1 + rand() * 3000))));
    return rows;
  }
  const c = corpus(n, 200, DIM);
  const f = await features(c, n);
  f.docs.forEach((s, i) => {
    const e11 = s.E11 ? (deserializeSpace('E11', s.E11) as { entities: Uint32Array }).entities : new Uint32Array(0);
    rows.set(c.docs[i].id, Array.from(e11));
  });
  return rows;
}

const heap = (): number => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
};
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function main(): Promise<void> {
  const rows = await lists();
  const source = { ids: () => [...rows.keys()], has: (id: string) => rows.has(id), entitiesOf: (id: string) => rows.get(id)! };
  let mentions = 0;
  const entities = new Set<number>();
  for (const e of rows.values()) {
    mentions += e.length;
    for (const x of e) entities.add(x);
  }
  console.log(`N ${n}: ${mentions} mentions of ${entities.size} entities (load ${loadavg()[0].toFixed(1)})`);
  const t = { old: [] as number[], now: [] as number[] };
  const bytes = { old: [] as number[], now: [] as number[] };
  const build = (v: 'old' | 'now'): EntityGraph | GraphologyEntityGraph => {
    if (v === 'now') {
      const d = EntityGraph.deferred(source);
      d.fillFor(Infinity);
      return d;
    }
    const o = new GraphologyEntityGraph();
    for (const [id, e] of rows) o.setMemory(id, e);
    return o;
  };
  const held: (EntityGraph | GraphologyEntityGraph)[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const v of r % 2 ? (['now', 'old'] as const) : (['old', 'now'] as const)) {
      const c0 = cpu();
      held.push(build(v));
      t[v].push(cpu() - c0);
      if (r === 0 && v === 'now') {
        const [g, o] = [held[0], build('old')];
        for (const id of rows.keys()) if (g.entitiesOf(id).join() !== o.entitiesOf(id).join()) throw new Error(`entities of ${id} differ`);
        for (const e of [...entities].slice(0, 2000)) if (g.membersOf(e).join() !== o.membersOf(e).join()) throw new Error(`members of ${e} differ`);
      }
      // the heap the graph holds: with it, then without it
      const h1 = heap();
      held.length = 0;
      bytes[v].push(h1 - heap());
    }
  }
  const mo = median(t.old);
  const mn = median(t.now);
  console.log(
    JSON.stringify({
      n,
      rounds,
      mentions,
      entities: entities.size,
      fillOldCpuMs: +mo.toFixed(0),
      fillNewCpuMs: +mn.toFixed(0),
      ratio: +(mn / mo).toFixed(3),
      heapOldMiB: +(median(bytes.old) / 2 ** 20).toFixed(1),
      heapNewMiB: +(median(bytes.now) / 2 ** 20).toFixed(1),
      load1m: +loadavg()[0].toFixed(1),
    }),
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
