// Louvain communities over the memory graph (deep search's community strategy, seed 003 B): one
// node per memory, an edge to each of its k nearest neighbours (cosine >= minCosine, weight the
// cosine) and an edge between memories sharing a canonical entity that is not a hub (weight
// 1 / members - 1 split across the entity's pairs, at most `maxEntityMembers` members).
// graphology-communities-louvain, with a seeded generator so the communities are deterministic.
// Cost: n x n dot products for the neighbours. This is the direct computation, all at once (tests,
// benches); the engine computes the same communities in the background, in steps, with bounded
// neighbour edges above a size (workers/communities-background.ts).

import Graph from 'graphology';
import louvain from 'graphology-communities-louvain';
import type { EntityLookup } from '../src/core/entities';
import { seededUniform } from '../src/core/features';
import { rowDot, type NeighbourMatrix } from '../src/core/recall';
import type { MemoryId } from '../src/core/types';

export interface CommunityOptions {
  k?: number;
  minCosine?: number;
  maxEntityMembers?: number;
  seed?: number;
}

/** Community id of every memory in the matrix (and of every memory the entity graph knows). */
export function memoryCommunities(matrix: NeighbourMatrix, entities?: EntityLookup, opts: CommunityOptions = {}): Map<MemoryId, number> {
  const g = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
  for (const id of matrix.ids) g.addNode(id);
  addNeighbourEdges(g, matrix, opts);
  if (entities) addEntityEdges(g, entities, opts);
  const out = new Map<MemoryId, number>();
  if (g.size === 0) {
    g.nodes().forEach((id, i) => out.set(id, i));
    return out;
  }
  const mapping = louvain(g, { getEdgeWeight: 'weight', rng: seededUniform(opts.seed ?? 42) });
  for (const [id, c] of Object.entries(mapping)) out.set(id, c);
  return out;
}

/** Adds `w` to the weight of the edge a-b (made, with its nodes, if missing). */
export function link(g: Graph, a: MemoryId, b: MemoryId, w: number): void {
  if (a === b) return;
  if (!g.hasNode(a)) g.addNode(a);
  if (!g.hasNode(b)) g.addNode(b);
  if (g.hasEdge(a, b)) g.updateEdgeAttribute(a, b, 'weight', (x: number | undefined) => (x ?? 0) + w);
  else g.addEdge(a, b, { weight: w });
}

/** The nearest-neighbour edges: each row to its k best (cosine >= minCosine), n x n dot products. */
export function addNeighbourEdges(g: Graph, matrix: NeighbourMatrix, opts: CommunityOptions = {}): void {
  const k = opts.k ?? 5;
  const minCos = opts.minCosine ?? 0.5;
  for (let r = 0; r < matrix.ids.length; r++) for (const [s, c] of exactBest(matrix, r, k, minCos)) link(g, matrix.ids[r], matrix.ids[c], s);
}

/** Row r's k best other rows with cosine >= minCos, by a scan of all n: [cosine, row], cosine desc, row asc. */
export function exactBest(matrix: NeighbourMatrix, r: number, k: number, minCos: number): [number, number][] {
  const n = matrix.ids.length;
  const q = matrix.data.subarray(r * matrix.dim, (r + 1) * matrix.dim);
  const best: [number, number][] = [];
  for (let c = 0; c < n; c++) {
    if (c === r) continue;
    const s = rowDot(matrix, c, q);
    if (s < minCos) continue;
    if (best.length < k) best.push([s, c]);
    else if (s > best[best.length - 1][0]) best[best.length - 1] = [s, c];
    else continue;
    best.sort((x, y) => y[0] - x[0] || x[1] - y[1]);
  }
  return best;
}

/** The entity edges: the members of each entity of the graph's memories pairwise (not a hub). Read through EntityLookup (the engine's graphology graph). */
export function addEntityEdges(g: Graph, entities: EntityLookup, opts: CommunityOptions = {}): void {
  const maxMembers = opts.maxEntityMembers ?? 20;
  const seen = new Set<number>();
  for (const id of g.nodes()) {
    for (const e of entities.entitiesOf(id)) {
      if (seen.has(e)) continue;
      seen.add(e);
      const members = entities.membersOf(e);
      if (members.length < 2 || members.length > maxMembers) continue;
      const w = 1 / (members.length - 1);
      for (let i = 0; i < members.length; i++) for (let j = i + 1; j < members.length; j++) link(g, members[i], members[j], w);
    }
  }
}
