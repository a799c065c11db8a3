// Deep search's communities (issue 11): the direct computation (workers/communities.ts's
// memoryCommunities, what the engine ran on the first escalation, blocking it) against the
// background job (workers/communities-background.ts) driven as the engine drives it, in steps of
// its budget, over the same memories: clustered unit vectors (n / 30 topics, noise) and synthetic
// entities (each memory 2 of n / 10 entities, drawn near its topic, so entity edges follow topics).
//
// At --base-n (default 3000), interleaved rounds (order alternating): "old" memoryCommunities in one
// task; "exact" the job with exact edges (exactMax = base-n: the same edges, its own stepped Louvain:
// the agreement of its communities with old's, NMI); "approx"
// the job on its bounded neighbour search (exactMax 0; the default above 1000): its k-NN recall against the exact
// lists and the agreement of its communities with the exact ones (NMI). Then, once each, the job at
// every --n (default 10000,100000): CPU total, steps, the longest step and how many went over 50 ms
// (wall, which includes GC pauses and the machine's load), Louvain's one step, dot products per
// memory, and the heap the job's graph held at its peak (with --expose-gc). The 1-minute load
// average beside every figure.
//
//   node --expose-gc --max-old-space-size=6144 --import tsx scripts/bench/communities.ts [--base-n 3000] [--n 10000,100000] [--rounds 3] [--dim 384]
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { seededUniform } from '../../src/core/features/hash';
import { buildNeighbourMatrix, type NeighbourMatrix } from '../../src/core/recall/matrix';
import { exactBest, memoryCommunities } from '../../workers/communities';
import { approximateNeighbours, BackgroundCommunities, type BackgroundOptions } from '../../workers/communities-background';
import { EntityGraph } from '../../workers/entity-graph';

const argv = process.argv.slice(2);
const arg = (name: string, dflt: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const baseN = Number(arg('base-n', '3000'));
const sizes = (arg('n', '10000,100000') ?? '').split(',').filter(Boolean).map(Number);
const rounds = Number(arg('rounds', '3'));
const dim = Number(arg('dim', '384'));
const gc = (globalThis as { gc?: () => void }).gc;
const load = (): string => loadavg()[0].toFixed(1);
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const heap = (): number => {
  gc?.();
  return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
};
/** Garbage-collection pauses (start, end) on the main thread, to tell a step's own work from a collection landing in it. */
const pauses: [number, number][] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) pauses.push([e.startTime, e.startTime + e.duration]);
}).observe({ entryTypes: ['gc'] });
const gcIn = (t0: number, t1: number): number => pauses.reduce((s, [a, b]) => s + Math.max(0, Math.min(b, t1) - Math.max(a, t0)), 0);
const mb = (b: number): string => `${(b / 1048576).toFixed(0)} MB`;

function corpus(n: number): { matrix: NeighbourMatrix; entities: EntityGraph } {
  const rand = seededUniform(7);
  const topics = Math.max(2, Math.round(n / 30));
  const centre = (t: number): Float32Array => {
    const r = seededUniform(1000 + t);
    return Float32Array.from({ length: dim }, () => r() - 0.5);
  };
  const ids = Array.from({ length: n }, (_, i) => `m${i}`);
  const matrix = buildNeighbourMatrix(ids, (id) => {
    const c = centre(Number(id.slice(1)) % topics);
    return c.map((x) => x + (rand() - 0.5) * 0.9);
  });
  const entities = new EntityGraph();
  const pool = Math.max(4, Math.round(n / 10));
  for (let i = 0; i < n; i++) {
    const t = i % topics;
    const near = (t * 3 + Math.floor(rand() * 6)) % pool; // a topic's entities: a handful of its own
    entities.setMemory(ids[i], [near + 1, Math.floor(rand() * pool) + 1]);
  }
  return { matrix, entities };
}

interface Run {
  cpuMs: number;
  steps: number;
  maxStepMs: number;
  over50: number;
  louvainMs: number;
  dotsPerRow: number;
  peakBytes: number;
  exact: boolean;
  /** The longest step's CPU time (the process's: with GC helper threads) and the steps over 50 ms of CPU. */
  maxCpuMs: number;
  over50cpu: number;
  longCpu: (() => string)[];
  communities: Map<string, number>;
  /** The parts (before -> after) of the steps over 50 ms. */
  longPhases: string[];
}

/** The job driven as the engine drives it (0 ms timers between steps), synchronously here. */
function background(c: { matrix: NeighbourMatrix; entities: EntityGraph }, opts: BackgroundOptions = {}, measureHeap = false): Run {
  const queue: (() => void)[] = [];
  const bg = new BackgroundCommunities(() => c, { ...opts, debounceMs: 0, timer: (f) => (queue.push(f), () => void queue.splice(queue.indexOf(f), 1)) });
  const h0 = measureHeap ? heap() : 0;
  let peak = 0;
  const c0 = cpu();
  bg.reset();
  let steps = 0;
  let maxStep = 0;
  let over50 = 0;
  let maxCpu = 0;
  let over50cpu = 0;
  const longCpu: (() => string)[] = [];
  const longPhases = new Set<string>();
  while (queue.length) {
    const f = queue.shift()!;
    const phase = bg.stats.phase;
    const t0 = performance.now();
    const s0 = cpu();
    f();
    const ms = performance.now() - t0;
    const stepCpu = cpu() - s0;
    maxCpu = Math.max(maxCpu, stepCpu);
    if (stepCpu > 50) {
      over50cpu++;
      const label = `${phase}->${bg.stats.phase} ${stepCpu.toFixed(0)} ms`;
      longCpu.push(() => `${label} (GC ${gcIn(t0, t0 + ms).toFixed(0)} ms)`); // read after the observer has been called
    }
    steps++;
    maxStep = Math.max(maxStep, ms);
    if (ms > 50) {
      over50++;
      longPhases.add(`${phase}->${bg.stats.phase} ${ms.toFixed(0)} ms`);
    }
    if (measureHeap && steps % 20 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers - h0);
  }
  const cpuMs = cpu() - c0;
  if (measureHeap) peak = Math.max(peak, heap() - h0);
  return { cpuMs, steps, maxStepMs: maxStep, over50, louvainMs: bg.stats.louvainMs, dotsPerRow: bg.stats.dots / c.matrix.ids.length, peakBytes: peak, exact: bg.stats.exact, maxCpuMs: maxCpu, over50cpu, longCpu, communities: bg.ready!, longPhases: [...longPhases] };
}

/** Normalised mutual information of two partitions of the same ids. */
function nmi(a: Map<string, number>, b: Map<string, number>): number {
  const n = a.size;
  const joint = new Map<string, number>();
  const ca = new Map<number, number>();
  const cb = new Map<number, number>();
  for (const [id, x] of a) {
    const y = b.get(id)!;
    joint.set(`${x}:${y}`, (joint.get(`${x}:${y}`) ?? 0) + 1);
    ca.set(x, (ca.get(x) ?? 0) + 1);
    cb.set(y, (cb.get(y) ?? 0) + 1);
  }
  const h = (m: Map<number, number>) => -[...m.values()].reduce((s, v) => s + (v / n) * Math.log(v / n), 0);
  let mi = 0;
  for (const [k, v] of joint) {
    const [x, y] = k.split(':').map(Number);
    mi += (v / n) * Math.log((v * n) / (ca.get(x)! * cb.get(y)!));
  }
  const d = (h(ca) + h(cb)) / 2;
  return d === 0 ? 1 : mi / d;
}

/** The bounded search's k-NN lists against the exact ones (recall of the exact edges), over the first `sample` rows. */
function knnRecall(matrix: NeighbourMatrix, sample: number): number {
  const approx = approximateNeighbours(matrix);
  let hit = 0;
  let all = 0;
  for (let r = 0; r < Math.min(sample, matrix.ids.length); r++) {
    const exact = exactBest(matrix, r, 5, 0.5).map(([, c]) => c);
    const got = new Set(approx.row.subarray(r * 5, r * 5 + 5));
    all += exact.length;
    for (const c of exact) if (got.has(c)) hit++;
  }
  return all ? hit / all : 1;
}

async function main(): Promise<void> {
  console.log(`communities bench: base ${baseN}, sizes ${sizes.join(', ')}, dim ${dim}, ${rounds} rounds, load ${load()}`);
  const base = corpus(baseN);
  const t = { old: [] as number[], exact: [] as number[], approx: [] as number[] };
  let sameAsOld = 0;
  let agreement = 0;
  let approxRun: Run | null = null;
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? ['approx', 'exact', 'old'] : ['old', 'exact', 'approx'];
    let oldMap: Map<string, number> | null = null;
    let exactMap: Map<string, number> | null = null;
    for (const which of order) {
      if (which === 'old') {
        const c0 = cpu();
        oldMap = memoryCommunities(base.matrix, base.entities);
        t.old.push(cpu() - c0);
      } else if (which === 'exact') {
        const r = background(base, { exactMax: baseN });
        t.exact.push(r.cpuMs);
        exactMap = r.communities;
        console.log(`  round ${round + 1} exact job: ${r.steps} steps, longest ${r.maxCpuMs.toFixed(1)} ms CPU / ${r.maxStepMs.toFixed(1)} ms wall (over 50 ms wall: ${r.over50}), louvain ${r.louvainMs.toFixed(0)} ms, ${r.dotsPerRow.toFixed(0)} dots/memory, load ${load()}`);
      } else {
        approxRun = background(base, { exactMax: 0 });
        t.approx.push(approxRun.cpuMs);
        console.log(`  round ${round + 1} approx job: ${approxRun.steps} steps, longest ${approxRun.maxCpuMs.toFixed(1)} ms CPU / ${approxRun.maxStepMs.toFixed(1)} ms wall (over 50 ms wall: ${approxRun.over50}), louvain ${approxRun.louvainMs.toFixed(0)} ms, ${approxRun.dotsPerRow.toFixed(0)} dots/memory, load ${load()}`);
      }
    }
    sameAsOld = nmi(oldMap!, exactMap!);
    agreement = nmi(exactMap!, approxRun!.communities);
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  console.log(`at ${baseN}: CPU median old ${med(t.old).toFixed(0)} ms (one blocking task), exact job ${med(t.exact).toFixed(0)} ms in steps, approx job ${med(t.approx).toFixed(0)} ms in steps (${(med(t.old) / med(t.approx)).toFixed(1)}x less than old); NMI(exact job, old) ${sameAsOld.toFixed(3)}; NMI(approx, exact) ${agreement.toFixed(3)}; k-NN recall of the bounded search ${knnRecall(base.matrix, 1000).toFixed(3)}; load ${load()}`);
  for (const n of sizes) {
    const c = corpus(n);
    gc?.();
    const r = background(c, {}, true);
    await new Promise((done) => setTimeout(done, 50)); // the gc entries delivered
    console.log(`at ${n}: ${r.exact ? 'exact' : 'bounded'} job CPU ${(r.cpuMs / 1000).toFixed(1)} s in ${r.steps} steps (${(r.cpuMs / r.steps).toFixed(1)} ms CPU per step), longest step ${r.maxCpuMs.toFixed(0)} ms CPU (${r.over50cpu} over 50 ms CPU: [${r.longCpu.map((f) => f()).join(', ')}]), ${r.maxStepMs.toFixed(0)} ms wall (${r.over50} over 50 ms wall: [${r.longPhases.join(', ')}]); louvain ${r.louvainMs.toFixed(0)} ms wall from its first step to its last; ${r.dotsPerRow.toFixed(0)} dots/memory; heap peak +${mb(r.peakBytes)}${gc ? '' : ' (no --expose-gc: rough)'}; ${new Set(r.communities.values()).size} communities; load ${load()}`);
  }
}

void main();
