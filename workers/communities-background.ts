// Deep search's Louvain communities computed in the background (issue 11), never by a query.
//
// `communityJob` is the computation of workers/communities.ts's `memoryCommunities` cut into small
// steps (a generator: each `next()` is a few milliseconds of work; the driver runs steps for its
// budget, then lets queued messages run). Up to `exactMax` memories its nearest-neighbour edges are
// the direct computation's (each row's k best by a scan of all n, in steps of one row); above, they
// come from a bounded search instead of the n x n scan: random-hyperplane codes (`tables` codes of
// `bits` bits), each table's rows sorted by code and every row compared with the next `window` rows
// in that order (both ends keep the pair if it is among their k best), then one
// neighbours-of-neighbours round (NN-descent's step): about tables x (bits + window) + k x k dot
// products per row, linear in n. The entity edges are the direct computation's. Louvain: up to
// `oneCallMax` nodes (700) graphology-communities-louvain over the direct computation's very graph,
// in one call (~10-40 ms at 700 nodes under load), so the communities are exactly the direct computation's (and
// the LoCoMo evaluation's, which calls it); above, in steps (louvain-steps.ts: graphology's one call
// is ~0.8 s at 10,000 memories), the same method, whose partitions on clear structure are the direct
// computation's (tested) and elsewhere of the same kind but not identical (NMI against it in
// scripts/bench/communities.ts).
//
// `BackgroundCommunities` drives it: `reset()` (a start) and `changed()` (a write) restart the job
// `debounceMs` after the last of them, once deep search is on (the engine's first query with
// `deepSearch.mode` other than off says `want()`; 12-15 s of CPU at 100,000 memories is not spent
// for an engine whose queries never escalate); the communities ready stay readable across writes until new
// ones replace them. A memory written since has no community until then (the escalation's
// community strategy just does not reach it), and a deleted one keeps its stale entry, which is
// harmless: the escalation only looks up memories in its pool, which are in scope. A write while
// the job runs abandons it (the rows it read moved), as does any change of the live matrix's version
// between two steps (a vector written by a path that did not call `changed`); the job restarts after
// the debounce.

import Graph from 'graphology';
import louvain from 'graphology-communities-louvain';
import type { EntityLookup } from '../src/core/entities';
import { seededUniform } from '../src/core/features';
import type { NeighbourMatrix } from '../src/core/recall';
import type { MemoryId } from '../src/core/types';
import { exactBest, link, type CommunityOptions } from './communities';
import { csrOf, EdgeList, louvainSteps } from './louvain-steps';

export interface CommunityJobOptions extends CommunityOptions {
  /** Up to this many memories the neighbour edges are exact (the direct computation's): default 1000 (0.7 s of CPU there; 6.4 s at 3,000 against 0.4-0.5 s bounded, NMI 0.967, docs/benchmarks.md). */
  exactMax?: number;
  /** Up to this many nodes graphology's Louvain runs in one call (default 700, LoCoMo's largest conversations: ~20 ms at 1,000 and ~130 ms at 3,000 at load 4-13); above, louvain-steps.ts. */
  oneCallMax?: number;
  /** Approximate neighbours: hyperplane tables (default 6), bits per code (default 12), rows compared after each row in a table's order (default 8). */
  tables?: number;
  bits?: number;
  window?: number;
}

/** Counters of a job (the benchmark and the tests read them). */
export interface CommunityJobStats {
  rows: number;
  exact: boolean;
  dots: number;
  steps: number;
  edges: number;
  /** Louvain's time from its first step to its last (wall: with the pauses between steps when driven). */
  louvainMs: number;
  /** The part running: 'codes' | 'windows' | 'refine' | 'edges' | 'entities' | 'graph' | 'louvain' | 'done'. */
  phase: string;
}

/** An entity graph still being filled (engine-warm.ts's lazyEntities): filled in steps, not by the first read. */
type Fillable = EntityLookup & { fillFor?: (budgetMs: number) => boolean };

/**
 * The communities of `matrix`'s memories (and of every memory the entity graph links to them), in
 * steps: yields between pieces of a few milliseconds, returns the map. `stats` is filled as it runs.
 */
export function* communityJob(matrix: NeighbourMatrix, entities: Fillable | undefined, opts: CommunityJobOptions = {}, stats: CommunityJobStats = newStats()): Generator<void, Map<MemoryId, number>> {
  const k = opts.k ?? 5;
  const minCos = opts.minCosine ?? 0.5;
  const n = matrix.ids.length;
  stats.rows = n;
  stats.exact = n <= (opts.exactMax ?? 1000);
  // the graph: every edge once, summed when pushed again (communities.ts's link)
  const ids: MemoryId[] = [...matrix.ids];
  const extra = new Map<MemoryId, number>(); // memories without a vector that an entity links in
  const edges = new EdgeList();
  const nodeOf = (id: MemoryId): number => {
    let i = matrix.indexOf.get(id) ?? extra.get(id);
    if (i === undefined) extra.set(id, (i = ids.push(id) - 1));
    return i;
  };
  const link = (a: number, b: number, w: number): void => edges.push(a, b, w);
  stats.phase = 'edges';
  if (stats.exact) {
    for (let r = 0; r < n; r++) {
      for (const [s, c] of exactBest(matrix, r, k, minCos)) link(r, c, s);
      stats.dots += n - 1;
      yield;
    }
  } else {
    const lists = yield* approximateBest(matrix, k, minCos, opts, stats);
    stats.phase = 'edges';
    for (let r = 0; r < n; r++) {
      for (let j = 0; j < k && lists.row[r * k + j] >= 0; j++) link(r, lists.row[r * k + j], lists.cos[r * k + j]);
      if (r % 512 === 511) yield;
    }
  }
  if (entities) {
    stats.phase = 'entities';
    while (entities.fillFor && !entities.fillFor(4)) yield;
    // communities.ts's addEntityEdges: the members of each entity of the graph's memories pairwise (not a hub)
    const maxMembers = opts.maxEntityMembers ?? 20;
    const seen = new Set<number>();
    const linked = ids.length; // the direct computation's nodes() then: not the memories an entity adds meanwhile
    for (let i = 0; i < linked; i++) {
      for (const e of entities.entitiesOf(ids[i])) {
        if (seen.has(e)) continue;
        seen.add(e);
        const members = entities.membersOf(e);
        if (members.length < 2 || members.length > maxMembers) continue;
        const w = 1 / (members.length - 1);
        const at = members.map(nodeOf);
        for (let a = 0; a < at.length; a++) for (let b = a + 1; b < at.length; b++) link(at[a], at[b], w);
      }
      if (i % 32 === 31) yield;
    }
  }
  stats.phase = 'louvain';
  const t0 = performance.now();
  if (ids.length <= (opts.oneCallMax ?? 700)) {
    // small: graphology's Louvain in one call over the direct computation's very graph
    // (its edges replayed in the order they were linked): the direct computation's communities
    const direct = replayed(matrix.ids, edges, ids);
    stats.edges = direct.size;
    const out = new Map<MemoryId, number>();
    if (direct.size === 0) direct.nodes().forEach((id, i) => out.set(id, i));
    else for (const [id, c] of Object.entries(louvain(direct, { getEdgeWeight: 'weight', rng: seededUniform(opts.seed ?? 42) }))) out.set(id, c);
    stats.louvainMs = performance.now() - t0;
    stats.phase = 'done';
    return out;
  }
  stats.phase = 'graph';
  yield;
  const graph = yield* csrOf(ids.length, edges);
  stats.edges = graph.offsets[graph.n] / 2;
  yield;
  stats.phase = 'louvain';
  const comm = yield* louvainSteps(graph, seededUniform(opts.seed ?? 42));
  stats.louvainMs = performance.now() - t0;
  stats.phase = 'done';
  const out = new Map<MemoryId, number>();
  for (let i = 0; i < ids.length; i++) {
    out.set(ids[i], comm[i]);
    if (i % 8192 === 8191) yield;
  }
  return out;
}

/** The graphology graph memoryCommunities builds: the matrix's nodes, then every edge linked in order. */
function replayed(rows: readonly MemoryId[], edges: EdgeList, ids: readonly MemoryId[]): Graph {
  const g = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
  for (const id of rows) g.addNode(id);
  for (let e = 0; e < edges.size; e++) link(g, ids[edges.a[e]], ids[edges.b[e]], edges.w[e]);
  return g;
}

export const newStats = (): CommunityJobStats => ({ rows: 0, exact: true, dots: 0, steps: 0, edges: 0, louvainMs: 0, phase: '' });

/** Each row's k best neighbours found by the bounded search (header): rows n x k, -1 = none; cos the cosines; sorted cosine desc, row asc. */
export function* approximateBest(matrix: NeighbourMatrix, k: number, minCos: number, opts: CommunityJobOptions, stats: CommunityJobStats): Generator<void, { row: Int32Array; cos: Float32Array }> {
  const n = matrix.ids.length;
  const dim = matrix.dim;
  const tables = opts.tables ?? 6;
  const bits = Math.min(opts.bits ?? 12, 20);
  const window = opts.window ?? 8;
  const row = new Int32Array(n * k).fill(-1);
  const cos = new Float32Array(n * k);
  /** Offers c as a neighbour of r (kept when among r's k best and not there yet). */
  const offer = (r: number, c: number, s: number): void => {
    if (s < minCos || r === c) return;
    const b = r * k;
    const last = b + k - 1;
    if (row[last] >= 0 && (s < cos[last] || (s === cos[last] && c > row[last]))) return;
    for (let j = b; j <= last && row[j] >= 0; j++) if (row[j] === c) return;
    let j = last;
    while (j > b && (row[j - 1] < 0 || s > cos[j - 1] || (s === cos[j - 1] && c < row[j - 1]))) {
      row[j] = row[j - 1];
      cos[j] = cos[j - 1];
      j--;
    }
    row[j] = c;
    cos[j] = s;
  };
  const data = matrix.data;
  // rowDot's sum, in its order, over offsets: no view allocated per pair (12 million at 100k: collections)
  const dot = (a: number, b: number): number => {
    stats.dots++;
    const pa = a * dim;
    const pb = b * dim;
    let s = 0;
    for (let j = 0; j < dim; j++) s += data[pb + j] * data[pa + j];
    return s;
  };
  // the hyperplanes (seeded normal directions, Box-Muller)
  const rand = seededUniform((opts.seed ?? 42) + 1);
  const planes = new Float32Array(tables * bits * dim);
  for (let i = 0; i < planes.length; i++) planes[i] = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  stats.phase = 'codes';
  const codes = new Uint32Array(tables * n);
  for (let r = 0; r < n; r++) {
    const pr = r * dim;
    for (let t = 0; t < tables; t++) {
      let code = 0;
      for (let b = 0; b < bits; b++) {
        const pp = (t * bits + b) * dim;
        let s = 0;
        for (let j = 0; j < dim; j++) s += planes[pp + j] * data[pr + j];
        code = code * 2 + (s > 0 ? 1 : 0);
      }
      codes[t * n + r] = code;
    }
    stats.dots += tables * bits;
    if (r % 8 === 7) yield; // 8 rows: ~0.3 ms optimised, but the first pieces run before the code is (~60 ms for 64 rows at 100k)
  }
  stats.phase = 'windows';
  for (let t = 0; t < tables; t++) {
    // the rows in code order (ties by row): code x n + row, sorted as numbers
    const order = new Float64Array(n);
    for (let r = 0; r < n; r++) order[r] = codes[t * n + r] * n + r;
    order.sort();
    yield;
    const rows = new Int32Array(n);
    for (let p = 0; p < n; p++) rows[p] = order[p] % n;
    for (let p = 0; p < n; p++) {
      const a = rows[p];
      for (let d = 1; d <= window && p + d < n; d++) {
        const b = rows[p + d];
        const s = dot(a, b);
        offer(a, b, s);
        offer(b, a, s);
      }
      if (p % 64 === 63) yield;
    }
  }
  stats.phase = 'refine';
  // one neighbours-of-neighbours round: r meets the neighbours of its neighbours
  for (let r = 0; r < n; r++) {
    for (let i = 0; i < k; i++) {
      const u = row[r * k + i];
      if (u < 0) break;
      for (let j = 0; j < k; j++) {
        const v = row[u * k + j];
        if (v < 0) break;
        if (v === r || listed(row, r, k, v)) continue;
        const s = dot(r, v);
        offer(r, v, s);
        offer(v, r, s);
      }
    }
    if (r % 64 === 63) yield;
  }
  return { row, cos };
}

/** approximateBest run to completion (the benchmark's and the tests' direct call). */
export function approximateNeighbours(matrix: NeighbourMatrix, opts: CommunityJobOptions = {}, stats: CommunityJobStats = newStats()): { row: Int32Array; cos: Float32Array } {
  const job = approximateBest(matrix, opts.k ?? 5, opts.minCosine ?? 0.5, opts, stats);
  for (;;) {
    const r = job.next();
    if (r.done) return r.value;
  }
}

const listed = (row: Int32Array, r: number, k: number, v: number): boolean => {
  for (let j = r * k; j < r * k + k; j++) if (row[j] === v) return true;
  return false;
};

export interface BackgroundOptions extends CommunityJobOptions {
  /** Quiet time after the last start or write before the job (re)starts (default 3000 ms). */
  debounceMs?: number;
  /** Work per step (default 8 ms): a query waits at most about this long (plus one piece) behind the job. */
  budgetMs?: number;
  /** Above this many memories no communities are computed (default 250,000: the graph's memory, see ARCHITECTURE). */
  maxMemories?: number;
  /** Computed only once `want()` was called (the engine: a query with deep search on); default false. */
  lazy?: boolean;
  /** None ready at an escalation: computed at once up to this many memories (default 700; `forEscalation`). */
  directMax?: number;
  /** Timers (the tests' fake clock): run `f` after `ms`, return a cancel. */
  timer?: (f: () => void, ms: number) => () => void;
  now?: () => number;
}

export type CommunityState = 'idle' | 'waiting' | 'computing';

const realTimer = (f: () => void, ms: number): (() => void) => {
  const t = setTimeout(f, ms);
  return () => clearTimeout(t);
};

/** The engine's communities: computed in the background after a start and after writes (header). */
export class BackgroundCommunities {
  /** The communities ready (kept across writes until the next ones are), or null before the first. */
  ready: Map<MemoryId, number> | null = null;
  /** The last job's counters, finished or running. */
  stats: CommunityJobStats = newStats();
  /** Jobs completed. */
  computed = 0;
  private job: Generator<void, Map<MemoryId, number>> | null = null;
  /** The running job's matrix and its version then (a live matrix counts its writes). */
  private rows: { matrix: NeighbourMatrix; version: number | undefined } | null = null;
  private cancelTimer: (() => void) | null = null;
  private readonly timer: (f: () => void, ms: number) => () => void;
  private readonly now: () => number;
  /** Not `lazy`, or deep search asked for (`want`): nothing is computed for an engine whose queries never escalate. */
  private wanted: boolean;

  constructor(
    /** The memories now: null when the engine holds none (not loaded). */
    private readonly source: () => { matrix: NeighbourMatrix; entities?: EntityLookup } | null,
    private readonly opts: BackgroundOptions = {},
  ) {
    this.timer = opts.timer ?? realTimer;
    this.now = opts.now ?? (() => performance.now());
    this.wanted = !opts.lazy;
  }

  get state(): CommunityState {
    return this.job ? 'computing' : this.cancelTimer ? 'waiting' : 'idle';
  }

  /** A new start (a load): the old communities are another collection's, dropped; the job waits for the start to settle. */
  reset(): void {
    this.ready = null;
    this.changed();
  }

  /** A write: the communities ready stay; a running job is abandoned; the job (re)starts after the debounce (when wanted). */
  changed(): void {
    this.job = null;
    this.cancelTimer?.();
    this.cancelTimer = null;
    if (this.wanted) this.cancelTimer = this.timer(() => this.begin(), this.opts.debounceMs ?? 3000);
  }

  /** Deep search is on (`lazy`): from now on computed after starts and writes; the first time, after the debounce. */
  want(): void {
    if (this.wanted) return;
    this.wanted = true;
    if (!this.job && !this.cancelTimer) this.changed();
  }

  /** What an escalation reads: the ready ones (never waited for); none ready and at most `directMax` memories: computed now and kept (exact edges, graphology's Louvain, as the eval; the pending job dropped); else null. */
  forEscalation(): Map<MemoryId, number> | null {
    const src = this.ready ? null : this.source();
    if (!src || src.matrix.ids.length > (this.opts.directMax ?? 700)) return this.ready;
    this.stop();
    const job = communityJob(src.matrix, src.entities, this.opts, (this.stats = newStats()));
    for (let r = job.next(); ; r = job.next()) if (r.done) return ((this.computed += 1), (this.ready = r.value));
  }

  /** Stops everything (the engine is replaced). */
  stop(): void {
    this.job = null;
    this.cancelTimer?.();
    this.cancelTimer = null;
  }

  private begin(): void {
    this.cancelTimer = null;
    const src = this.source();
    if (!src || src.matrix.ids.length > (this.opts.maxMemories ?? 250_000)) {
      this.ready = null; // none rather than another size's (the escalation leaves the strategy out)
      return;
    }
    this.stats = newStats();
    const job = communityJob(src.matrix, src.entities, this.opts, this.stats);
    this.job = job;
    this.rows = { matrix: src.matrix, version: src.matrix.version };
    this.step(job);
  }

  private step(job: Generator<void, Map<MemoryId, number>>): void {
    if (this.job !== job) return; // abandoned by a write or a stop
    if (this.rows && this.rows.matrix.version !== this.rows.version) return this.changed(); // a vector written by a path that did not say so: its rows moved
    const t0 = this.now();
    const budget = this.opts.budgetMs ?? 8;
    this.stats.steps++;
    for (;;) {
      const r = job.next();
      if (r.done) {
        this.job = null;
        this.ready = r.value;
        this.computed++;
        return;
      }
      if (this.now() - t0 >= budget) break;
    }
    this.cancelTimer = this.timer(() => {
      this.cancelTimer = null;
      this.step(job);
    }, 0);
  }
}
