// The engine's entity graph, three builds in one process, interleaved (order rotated each round):
//   held  workers/entity-graph.ts: graphology, the graph the engine holds (issue 11)
//   maps  scripts/lib/entity-graph-maps.ts: the two plain maps of issue 13
//   ref   scripts/lib/entity-graph-graphology.ts: graphology as before issue 13 (attributes per
//         node, a Set per memory), filled eagerly; --no-ref leaves it out
// all filled from the same E11 lists: those of the scale corpus (scale-node.ts's feature cache,
// real featurizers) or, with --synthetic, Zipf-drawn lists. Per round and build:
// - fill: CPU of the whole deferred fill (fillFor(Infinity), as the first read after a start), and
//   the heap the graph then holds (with --expose-gc);
// - steps: the same fill in FILL_STEP_MS steps as engine-warm.ts's lazyEntities runs it: the number
//   of steps, the longest and how many went over 50 ms: wall time with the GC pauses inside (wall,
//   perf_hooks' gc entries) and without, the most GC pause time inside one step, and the process's
//   CPU time (a loaded machine stretches the wall time; the CPU time includes the GC's helper
//   threads, even concurrent ones);
// - one-hop: expandByEntities (expandHops 1's read) for --queries seed lists of 10 memories, the
//   first pass right after the fill (member lists not cached yet), then again (cached), and every
//   memory's entities (deep search's entity neighbours, the communities' entity edges); the answers
//   of held and maps are checked to be equal, and every memory's entities and members;
// - communities (--community-n memories, clustered --dim vectors, their entities): the graph
//   memoryCommunities builds, by part: the nearest-neighbour edges (n x n dot products), the entity
//   edges read through each build's EntityLookup, Louvain over it; and Louvain run directly over the
//   held graph of those memories (what "reading the held graph instead" would cost).
// Medians over the rounds; the 1-minute load average with every round.
//
//   node --expose-gc --max-old-space-size=8192 --import tsx scripts/bench/entity-fill.ts [--n 100000] [--rounds 5] [--synthetic] [--no-ref] [--queries 50] [--community-n 3000] [--dim 384]
import louvain from 'graphology-communities-louvain';
import Graph from 'graphology';
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { expandByEntities, type EntityLookup } from '../../src/core/entities';
import { seededUniform } from '../../src/core/features/hash';
import { buildNeighbourMatrix } from '../../src/core/recall/matrix';
import { deserializeSpace } from '../../src/core/spaces';
import { addEntityEdges, addNeighbourEdges } from '../../workers/communities';
import { EntityGraph, type EntitySource } from '../../workers/entity-graph';
import { GraphologyEntityGraph } from '../lib/entity-graph-graphology';
import { MapsEntityGraph } from '../lib/entity-graph-maps';
import { median } from '../lib/metrics';
import { corpus } from './recall';
import { DIM, features } from './scale-node';

const arg = (k: string, d: number) => {
  const i = process.argv.indexOf(`--${k}`);
  return i >= 0 ? Number(process.argv[i + 1]) : d;
};
const n = arg('n', 100_000);
const rounds = arg('rounds', 5);
const queries = arg('queries', 50);
const communityN = arg('community-n', 3000);
const dim = arg('dim', 384);
/** engine-warm.ts's FILL_STEP_MS. */
const FILL_STEP_MS = 8;

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
const load = () => +loadavg()[0].toFixed(1);
const round1 = (x: number) => +x.toFixed(1);
const round3 = (x: number) => +x.toFixed(3);

type Kind = 'held' | 'maps' | 'ref';

/** Garbage collections seen (start, end: performance.now() ms), to tell a step's own work from the GC pauses inside it. */
const gcs: [number, number][] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcs.push([e.startTime, e.startTime + e.duration]);
}).observe({ entryTypes: ['gc'] });
const gcWithin = (a: number, b: number) => gcs.reduce((sum, [s, e]) => sum + Math.max(0, Math.min(b, e) - Math.max(a, s)), 0);
/** Lets the observer's entries arrive (they are delivered on a later tick). */
const tick = () => new Promise((r) => setTimeout(r, 0));
type Built = EntityLookup & { entityCount(): number };

async function main(): Promise<void> {
  const rows = await lists();
  const source: EntitySource = { ids: () => [...rows.keys()], has: (id) => rows.has(id), entitiesOf: (id) => rows.get(id)! };
  let mentions = 0;
  const entitySet = new Set<number>();
  for (const e of rows.values()) {
    mentions += e.length;
    for (const x of e) entitySet.add(x);
  }
  const kinds: Kind[] = process.argv.includes('--no-ref') ? ['held', 'maps'] : ['held', 'maps', 'ref'];
  console.log(`N ${n}: ${mentions} mentions of ${entitySet.size} entities; builds ${kinds.join(', ')} (load ${load()})`);

  const deferred = (k: Kind): EntityGraph | MapsEntityGraph => (k === 'held' ? EntityGraph.deferred(source) : MapsEntityGraph.deferred(source));
  const build = (k: Kind): Built => {
    if (k === 'ref') {
      const o = new GraphologyEntityGraph();
      for (const [id, e] of rows) o.setMemory(id, e);
      return o;
    }
    const d = deferred(k);
    d.fillFor(Infinity);
    return d;
  };
  // seed lists for the one-hop read: 10 memories with entities each, drawn once
  const withEntities = [...rows].filter(([, e]) => e.length > 0).map(([id]) => id);
  const rand = seededUniform(11);
  const seedLists = Array.from({ length: queries }, () => Array.from({ length: 10 }, () => withEntities[Math.floor(rand() * withEntities.length)]));
  const oneHop = (g: Built) => {
    const t0 = performance.now();
    const out = seedLists.map((s) => expandByEntities(g, s));
    return { ms: (performance.now() - t0) / queries, out };
  };

  const r = {
    fillCpu: {} as Record<Kind, number[]>,
    heap: {} as Record<Kind, number[]>,
    steps: {} as Record<Kind, number[]>,
    stepMax: {} as Record<Kind, number[]>,
    over50: {} as Record<Kind, number[]>,
    hopCold: {} as Record<Kind, number[]>,
    hopWarm: {} as Record<Kind, number[]>,
    stepMaxNoGc: {} as Record<Kind, number[]>,
    over50NoGc: {} as Record<Kind, number[]>,
    entitiesOfAll: {} as Record<Kind, number[]>,
    stepCpuMax: {} as Record<Kind, number[]>,
    gcMax: {} as Record<Kind, number[]>,
    over50Cpu: {} as Record<Kind, number[]>,
  };
  for (const m of Object.values(r)) for (const k of kinds) m[k] = [];
  const loads: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = kinds.map((_, i) => kinds[(i + round) % kinds.length]);
    // the whole fill, the heap it holds, the one-hop read (a function: the graph is dropped on return)
    const whole = (k: Kind) => {
      const h0 = heap();
      const c0 = cpu();
      const g = build(k);
      r.fillCpu[k].push(cpu() - c0);
      r.heap[k].push(heap() - h0);
      // the one-hop read right after the fill, then cached
      const cold = oneHop(g);
      const warm = oneHop(g);
      r.hopCold[k].push(cold.ms);
      r.hopWarm[k].push(warm.ms);
      // every memory's entities (deep search's entity neighbours, the communities' entity edges)
      const t0 = performance.now();
      for (const id of rows.keys()) g.entitiesOf(id);
      r.entitiesOfAll[k].push(performance.now() - t0);
      if (round === 0 && k === 'held') {
        const other = build('maps');
        const want = oneHop(other).out;
        if (JSON.stringify(want) !== JSON.stringify(cold.out)) throw new Error('one-hop answers differ');
        for (const id of rows.keys()) if (g.entitiesOf(id).join() !== other.entitiesOf(id).join()) throw new Error(`entities of ${id} differ`);
        for (const e of entitySet) if (g.membersOf(e).join() !== other.membersOf(e).join()) throw new Error(`members of ${e} differ`);
        if (g.memoryCount() !== other.memoryCount() || g.entityCount() !== other.entityCount()) throw new Error('counts differ');
      }
    };
    for (const k of order) {
      whole(k);
      // the fill in steps, as lazyEntities runs it (ref has none: it was filled at once)
      if (k !== 'ref') {
        const d = deferred(k);
        const spans: [number, number][] = [];
        const cpus: number[] = [];
        for (;;) {
          const t0 = performance.now();
          const c0 = cpu();
          const done = d.fillFor(FILL_STEP_MS);
          cpus.push(cpu() - c0);
          spans.push([t0, performance.now()]);
          if (done) break;
        }
        await tick();
        const walls = spans.map(([a, b]) => b - a);
        const own = spans.map(([a, b]) => b - a - gcWithin(a, b));
        r.steps[k].push(walls.length);
        r.stepMax[k].push(Math.max(...walls));
        r.over50[k].push(walls.filter((w) => w > 50).length);
        r.stepMaxNoGc[k].push(Math.max(...own));
        r.over50NoGc[k].push(own.filter((w) => w > 50).length);
        r.stepCpuMax[k].push(Math.max(...cpus));
        r.gcMax[k].push(Math.max(0, ...spans.map(([a, b]) => gcWithin(a, b))));
        r.over50Cpu[k].push(cpus.filter((w) => w > 50).length);
      }
    }
    loads.push(load());
    console.log(`round ${round + 1}: fill CPU ms ${kinds.map((k) => `${k} ${r.fillCpu[k][round].toFixed(0)}`).join(', ')} (load ${loads[round]})`);
  }
  const med = (m: Record<Kind, number[]>, k: Kind) => (m[k].length ? median(m[k]) : NaN);
  const out: Record<string, unknown> = { n, rounds, mentions, entities: entitySet.size, stepBudgetMs: FILL_STEP_MS };
  for (const k of kinds) {
    out[k] = {
      fillCpuMs: round1(med(r.fillCpu, k)),
      fillCpuMsRounds: r.fillCpu[k].map((x) => Math.round(x)),
      heapMiB: round1(med(r.heap, k) / 2 ** 20),
      ...(k === 'ref' ? {} : {
            steps: med(r.steps, k),
            longestStepMs: round1(Math.max(...r.stepMax[k])),
            stepsOver50ms: Math.max(...r.over50[k]),
            longestStepLessGcMs: round1(Math.max(...r.stepMaxNoGc[k])),
            stepsOver50msLessGc: Math.max(...r.over50NoGc[k]),
            longestStepCpuMs: round1(Math.max(...r.stepCpuMax[k])),
            mostGcInAStepMs: round1(Math.max(...r.gcMax[k])),
            stepsOver50msCpu: Math.max(...r.over50Cpu[k]),
          }),
      oneHopColdMs: round3(med(r.hopCold, k)),
      oneHopWarmMs: round3(med(r.hopWarm, k)),
      entitiesOfAllMs: round1(med(r.entitiesOfAll, k)),
    };
  }
  out.fillRatioHeldToMaps = round3(med(r.fillCpu, 'held') / med(r.fillCpu, 'maps'));
  out.oneHopColdRatio = round3(med(r.hopCold, 'held') / med(r.hopCold, 'maps'));
  out.oneHopWarmRatio = round3(med(r.hopWarm, 'held') / med(r.hopWarm, 'maps'));
  out.entitiesOfAllRatio = round3(med(r.entitiesOfAll, 'held') / med(r.entitiesOfAll, 'maps'));
  out.load1m = loads;
  console.log(JSON.stringify(out));
  if (communityN > 0) communities(rows, kinds.filter((k) => k !== 'ref'));
}

/** The communities' graph at --community-n memories, by part, over each build; Louvain over the held graph itself. */
function communities(all: Map<string, number[]>, kinds: Kind[]): void {
  const ids = [...all.keys()].slice(0, communityN);
  const rows = new Map(ids.map((id) => [id, all.get(id)!]));
  const source: EntitySource = { ids: () => ids, has: (id) => rows.has(id), entitiesOf: (id) => rows.get(id)! };
  // clustered unit vectors: 50 centres, noise
  const rand = seededUniform(5);
  const centres = Array.from({ length: 50 }, () => Float32Array.from({ length: dim }, () => rand() - 0.5));
  const vecs = new Map(ids.map((id, i) => [id, centres[i % 50].map((x) => x + (rand() - 0.5) * 0.6)]));
  const matrix = buildNeighbourMatrix(ids, (id) => vecs.get(id));
  const t = { knn: [] as number[], louvain: [] as number[], louvainHeld: [] as number[], entity: {} as Record<Kind, number[]> };
  for (const k of kinds) t.entity[k] = [];
  const loads: number[] = [];
  const cr = Math.max(2, Math.min(rounds, 3));
  let sizes = { nodes: 0, edges: 0, heldNodes: 0, heldEdges: 0 };
  for (let round = 0; round < cr; round++) {
    const base = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
    for (const id of matrix.ids) base.addNode(id);
    let c0 = cpu();
    addNeighbourEdges(base, matrix);
    t.knn.push(cpu() - c0);
    let built: Graph | null = null;
    for (const k of round % 2 ? [...kinds].reverse() : kinds) {
      const g = k === 'held' ? EntityGraph.deferred(source) : MapsEntityGraph.deferred(source);
      g.fillFor(Infinity);
      const copy = base.copy();
      c0 = cpu();
      addEntityEdges(copy, g);
      t.entity[k].push(cpu() - c0);
      built = copy;
    }
    c0 = cpu();
    louvain(built!, { getEdgeWeight: 'weight', rng: seededUniform(42) });
    t.louvain.push(cpu() - c0);
    // Louvain over the held graph (memory and entity nodes, an edge per mention, unweighted): no
    // nearest-neighbour edges, hubs kept, entity nodes given communities too
    const held = EntityGraph.deferred(source);
    const heldPart = held.graph;
    c0 = cpu();
    louvain(heldPart, { getEdgeWeight: null, rng: seededUniform(42) });
    t.louvainHeld.push(cpu() - c0);
    sizes = { nodes: built!.order, edges: built!.size, heldNodes: heldPart.order, heldEdges: heldPart.size };
    loads.push(load());
  }
  const out: Record<string, unknown> = { communityN, dim, rounds: cr, ...sizes, knnCpuMs: Math.round(median(t.knn)), louvainCpuMs: Math.round(median(t.louvain)), louvainOverHeldGraphCpuMs: Math.round(median(t.louvainHeld)) };
  for (const k of kinds) out[`entityEdgesCpuMs_${k}`] = round1(median(t.entity[k]));
  out.load1m = loads;
  console.log(JSON.stringify({ communities: out }));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
