// Louvain (Blondel et al. 2008) in steps, for the background communities (communities-background.ts):
// graphology-communities-louvain runs in one call (measured: ~130 ms at 3,000 memories, ~0.8 s at
// 10,000, scripts/bench/communities.ts), longer than a query may wait behind it. The same method,
// as a generator that yields every ~32,768 edges visited (a few ms): local moving (nodes in a seeded random order, each to
// the neighbouring community of the largest modularity gain, resolution 1, ties kept where they
// are), passes until none moves, then the communities become the nodes of the next level (their
// inner weight a self-loop), until a level moves nothing. The graph is CSR: both directions of
// every edge, no self-loops at the first level, built from a typed edge list (no map per node: at
// 100,000 memories those maps were ~250 MB and long garbage collections).

export interface CsrGraph {
  n: number;
  /** Row i's edges: offsets[i] .. offsets[i + 1] of targets / weights. */
  offsets: Int32Array;
  targets: Int32Array;
  weights: Float64Array;
  /** Each node's self-loop weight, counted twice (an aggregated community's inner edges). */
  self: Float64Array;
}

/** Undirected weighted edges, each pushed once (a, b, w); pushed again = weights added. Typed arrays, grown by doubling. */
export class EdgeList {
  a = new Int32Array(1024);
  b = new Int32Array(1024);
  w = new Float64Array(1024);
  size = 0;
  push(a: number, b: number, w: number): void {
    if (a === b) return;
    if (this.size === this.a.length) {
      const grow = <T extends Int32Array | Float64Array>(x: T): T => {
        const y = new (x.constructor as new (n: number) => T)(x.length * 2);
        y.set(x);
        return y;
      };
      [this.a, this.b, this.w] = [grow(this.a), grow(this.b), grow(this.w)];
    }
    this.a[this.size] = a;
    this.b[this.size] = b;
    this.w[this.size++] = w;
  }
}

/** The CSR graph of `n` nodes and `edges` (both directions, duplicates merged, weights summed), in steps of ~WORK edges. */
export function* csrOf(n: number, edges: EdgeList, self?: Float64Array): Generator<void, CsrGraph> {
  const offsets = new Int32Array(n + 1);
  const { a, b, w, size } = edges;
  for (let e = 0; e < size; e++) {
    offsets[a[e] + 1]++;
    offsets[b[e] + 1]++;
    if (e % WORK === WORK - 1) yield;
  }
  for (let i = 0; i < n; i++) offsets[i + 1] += offsets[i];
  yield;
  const fill = offsets.slice(0, n);
  const targets = new Int32Array(offsets[n]);
  const weights = new Float64Array(offsets[n]);
  for (let e = 0; e < size; e++) {
    targets[fill[a[e]]] = b[e];
    weights[fill[a[e]]++] = w[e];
    targets[fill[b[e]]] = a[e];
    weights[fill[b[e]]++] = w[e];
    if (e % WORK === WORK - 1) yield;
  }
  // duplicates merged in place (the write cursor never passes the read one)
  const stamp = new Int32Array(n);
  const at = new Int32Array(n);
  let write = 0;
  let work = 0;
  for (let i = 0; i < n; i++) {
    const start = offsets[i];
    work += offsets[i + 1] - start + 1;
    if (work > WORK) {
      work = 0;
      yield;
    }
    offsets[i] = write;
    for (let e = start; e < offsets[i + 1]; e++) {
      const t = targets[e];
      if (stamp[t] === i + 1) weights[at[t]] += weights[e];
      else {
        stamp[t] = i + 1;
        at[t] = write;
        targets[write] = t;
        weights[write++] = weights[e];
      }
    }
  }
  offsets[n] = write;
  return { n, offsets, targets: targets.subarray(0, write), weights: weights.subarray(0, write), self: self ?? new Float64Array(n) }; // views, not copies: a large allocation brings a full collection forward
}

/** Edges (or nodes) visited between two yields: ~1-5 ms. */
const WORK = 32768;
const MAX_PASSES = 32;
const MAX_LEVELS = 32;

/** Each node's community, numbered 0.. in order of first appearance; yields between pieces of ~WORK edges visited. */
export function* louvainSteps(graph: CsrGraph, rand: () => number): Generator<void, Int32Array> {
  const n0 = graph.n;
  const assignment = new Int32Array(n0);
  for (let i = 0; i < n0; i++) assignment[i] = i;
  let g = graph;
  for (let level = 0; level < MAX_LEVELS; level++) {
    const { n, offsets, targets, weights, self } = g;
    const k = new Float64Array(n);
    let m2 = 0;
    let work = 0;
    for (let i = 0; i < n; i++) {
      let s = self[i];
      for (let e = offsets[i]; e < offsets[i + 1]; e++) s += weights[e];
      k[i] = s;
      m2 += s;
      work += offsets[i + 1] - offsets[i] + 1;
      if (work > WORK) {
        work = 0;
        yield;
      }
    }
    if (m2 === 0) break;
    yield;
    const comm = new Int32Array(n);
    const tot = k.slice();
    for (let i = 0; i < n; i++) comm[i] = i;
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      const t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    yield;
    const toComm = new Float64Array(n);
    const touched = new Int32Array(n);
    let movedAny = false;
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      let moves = 0;
      for (let idx = 0; idx < n; idx++) {
        const i = order[idx];
        const ci = comm[i];
        let nt = 0;
        for (let e = offsets[i]; e < offsets[i + 1]; e++) {
          const c = comm[targets[e]];
          if (toComm[c] === 0) touched[nt++] = c;
          toComm[c] += weights[e];
        }
        tot[ci] -= k[i];
        let best = ci;
        let bestGain = toComm[ci] - (tot[ci] * k[i]) / m2;
        for (let t = 0; t < nt; t++) {
          const c = touched[t];
          const gain = toComm[c] - (tot[c] * k[i]) / m2;
          if (gain > bestGain + 1e-12) {
            best = c;
            bestGain = gain;
          }
        }
        tot[best] += k[i];
        if (best !== ci) {
          comm[i] = best;
          moves++;
        }
        for (let t = 0; t < nt; t++) toComm[touched[t]] = 0;
        work += offsets[i + 1] - offsets[i] + nt + 1;
        if (work > WORK) {
          work = 0;
          yield;
        }
      }
      if (moves === 0) break;
      movedAny = true;
      yield;
    }
    if (!movedAny) break;
    // the communities, numbered in order of first appearance, become the next level's nodes
    const ren = new Int32Array(n).fill(-1);
    let count = 0;
    for (let i = 0; i < n; i++) if (ren[comm[i]] < 0) ren[comm[i]] = count++;
    for (let o = 0; o < n0; o++) assignment[o] = ren[comm[assignment[o]]];
    if (count === n) break;
    const edges = new EdgeList();
    const nextSelf = new Float64Array(count);
    for (let i = 0; i < n; i++) {
      const a = ren[comm[i]];
      nextSelf[a] += self[i];
      for (let e = offsets[i]; e < offsets[i + 1]; e++) {
        const b = ren[comm[targets[e]]];
        if (a === b) nextSelf[a] += weights[e];
        else if (a < b) edges.push(a, b, weights[e]); // each edge once (its other direction has a > b)
      }
      work += offsets[i + 1] - offsets[i] + 1;
      if (work > WORK) {
        work = 0;
        yield;
      }
    }
    g = yield* csrOf(count, edges, nextSelf);
  }
  // numbered in order of first appearance over the original nodes
  const ren = new Int32Array(n0).fill(-1);
  let next = 0;
  for (let o = 0; o < n0; o++) {
    if (ren[assignment[o]] < 0) ren[assignment[o]] = next++;
    assignment[o] = ren[assignment[o]];
  }
  return assignment;
}
