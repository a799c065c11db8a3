// Force layout (d3-force) as one pure function: used by workers/layout.worker.ts and, when the
// worker cannot start or dies, by the main-thread fallback. No DOM.
import { forceCollide, forceLink, forceManyBody, forceRadial, forceSimulation, type SimulationNodeDatum } from 'd3';
import type { EdgeKind, GraphModel, NodeKind } from './model';

export interface LayoutRequest {
  kinds: NodeKind[];
  hops: number[];
  /** Preferred distance from the query per node (see targetRadii); the radial force pulls there. */
  targets?: Float32Array;
  radii: Float32Array;
  /** Interleaved [source, target] node indices. */
  links: Uint32Array;
  linkKinds: EdgeKind[];
  /** Previous positions, interleaved x,y; NaN where a node is new (warm start). */
  init?: Float32Array;
  /** Index of the query node, pinned at the origin. */
  pinned?: number;
  maxTicks?: number;
  timeBudgetMs?: number;
}

export interface LayoutResult {
  positions: Float32Array;
  ticks: number;
  ms: number;
  warm: boolean;
}

export const LINK_DISTANCE: Record<EdgeKind, number> = {
  standard: 70,
  lateral: 150, // lateral hits are semantically distant: draw them further out
  associative: 60,
  tag: 34,
  divergence: 90,
  found: 80, // deeper search's edge from the result that led to the memory
  entity: 50,
};

interface SimNode extends SimulationNodeDatum {
  i: number;
}

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

const SPACING = 30; // world units per node when packing a disc

/**
 * Where each node would like to sit, as a distance from the query: distance encodes relevance.
 * Standard hits fill a disc, the best-scored closest; lateral hits (far in embedding space) form
 * an outer band; associative chains step outwards one band per hop; tags sit outside everything.
 */
export function targetRadii(model: GraphModel): Float32Array {
  const out = new Float32Array(model.nodes.length);
  let lo = Infinity;
  let hi = -Infinity;
  let direct = 0;
  for (const nd of model.nodes) {
    if (nd.score !== undefined) {
      lo = Math.min(lo, nd.score);
      hi = Math.max(hi, nd.score);
    }
    if (nd.hop === 1 && nd.kind !== 'alert') direct++;
  }
  const norm = (sc: number | undefined): number => (sc === undefined || hi <= lo ? 0.5 : (sc - lo) / (hi - lo));
  const inner = 90;
  const span = Math.max(90, Math.sqrt(direct) * SPACING * 0.95);
  model.nodes.forEach((nd, i) => {
    const u = 1 - norm(nd.score);
    switch (nd.kind) {
      case 'query':
        out[i] = 0;
        break;
      case 'standard':
        out[i] = inner + u * span;
        break;
      case 'lateral':
        out[i] = inner + span + 70 + u * span * 0.35;
        break;
      case 'associative':
        out[i] = inner + span * 0.55 + Math.max(0, nd.hop - 1) * 85;
        break;
      case 'alert':
        out[i] = inner * 0.9;
        break;
      case 'recent':
        out[i] = inner + 110;
        break;
      case 'tag':
        out[i] = inner + span * 1.45 + 120;
        break;
    }
  });
  return out;
}

export function computeLayout(req: LayoutRequest): LayoutResult {
  const t0 = now();
  const n = req.kinds.length;
  const init = req.init;
  let known = 0;
  const nodes: SimNode[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const x = init ? init[2 * i] : Number.NaN;
    const y = init ? init[2 * i + 1] : Number.NaN;
    if (Number.isFinite(x) && Number.isFinite(y)) {
      nodes[i] = { i, x, y };
      known++;
    } else nodes[i] = { i };
  }
  seedPositions(req, nodes);
  if (req.pinned !== undefined && req.pinned >= 0 && req.pinned < n) {
    nodes[req.pinned].fx = 0;
    nodes[req.pinned].fy = 0;
  }
  // The radial force holds every node at the distance it was seeded at (relevance order), so the
  // simulation only has to untangle overlaps and straighten chains.
  const hold = new Float32Array(n);
  for (let i = 0; i < n; i++) hold[i] = Math.hypot(nodes[i].x ?? 0, nodes[i].y ?? 0);

  const m = req.links.length / 2;
  const links = [];
  for (let e = 0; e < m; e++) links.push({ source: req.links[2 * e], target: req.links[2 * e + 1], kind: req.linkKinds[e] });

  const warm = n > 0 && known / n >= 0.5;
  // Above ~800 nodes many-body repulsion costs more than it gives: the spiral seed is already
  // evenly spread, collision keeps shapes apart. Fewer, stronger ticks.
  const big = n > 800;
  const sim = forceSimulation<SimNode>(nodes)
    .stop()
    .alpha(warm ? 0.25 : big ? 0.5 : 1)
    .alphaDecay(big ? 0.06 : 0.04)
    .velocityDecay(0.45)
    .force(
      'link',
      forceLink<SimNode, { source: number; target: number; kind: EdgeKind }>(links)
        .id((d) => d.i)
        .distance((l) => LINK_DISTANCE[l.kind])
        .strength((l) => {
          // Spokes from the pinned query would pull every hit onto one circle; the radial force
          // places them by relevance instead, so those links only hold a little.
          const src = l.source as unknown as SimNode;
          if (src.i === req.pinned) return 0.02;
          return l.kind === 'tag' ? 0.1 : 0.5;
        }),
    )
    .force('collide', forceCollide<SimNode>((d) => req.radii[d.i] * 1.25 + 4).iterations(big ? 1 : 2))
    .force(
      'radial',
      forceRadial<SimNode>((d) => hold[d.i]).strength((d) => (req.kinds[d.i] === 'query' ? 0 : 0.2)),
    );
  if (!big) sim.force('charge', forceManyBody<SimNode>().strength(-40).theta(0.9).distanceMax(220));

  const maxTicks = req.maxTicks ?? (big ? 120 : 300);
  // The seed is already a readable layout, so stopping early degrades gracefully.
  const budget = req.timeBudgetMs ?? 1500;
  let ticks = 0;
  while (ticks < maxTicks && sim.alpha() > sim.alphaMin() && now() - t0 < budget) {
    sim.tick();
    ticks++;
  }

  const positions = new Float32Array(2 * n);
  for (let i = 0; i < n; i++) {
    positions[2 * i] = nodes[i].x ?? 0;
    positions[2 * i + 1] = nodes[i].y ?? 0;
  }
  return { positions, ticks, ms: now() - t0, warm };
}

const GOLDEN = Math.PI * (3 - Math.sqrt(5));
/** Vogel spiral spacing: each node gets about pi * C^2 of area (~28 units between centres). */
const C = 16;

/**
 * Gives every unplaced node a start: beside its parent if it continues a chain (or a tag / a
 * recent memory hanging off a placed node), else on a Vogel (sunflower) spiral in order of
 * preferred distance, which packs a disc evenly with the most relevant hits innermost.
 */
function seedPositions(req: LayoutRequest, nodes: SimNode[]): void {
  const n = nodes.length;
  const parent = new Int32Array(n).fill(-1);
  const children: number[][] = Array.from({ length: n }, () => []);
  for (let e = 0; e < req.links.length / 2; e++) {
    const s = req.links[2 * e];
    const t = req.links[2 * e + 1];
    if (s === req.pinned || parent[t] >= 0) continue;
    parent[t] = s;
    children[s].push(t);
  }
  const targets = req.targets;
  const roots: number[] = [];
  for (let i = 0; i < n; i++) if (i !== req.pinned && parent[i] < 0) roots.push(i);
  roots.sort((a, b) => (targets ? targets[a] - targets[b] : req.hops[a] - req.hops[b]) || a - b);
  const k0 = (80 / C) ** 2; // leave a hole of radius ~80 around the query
  let k = 0;
  for (const i of roots) {
    const node = nodes[i];
    if (node.x !== undefined) continue;
    const r = C * Math.sqrt(k + k0);
    node.x = r * Math.cos(k * GOLDEN);
    node.y = r * Math.sin(k * GOLDEN);
    k++;
  }
  if (req.pinned !== undefined && nodes[req.pinned] && nodes[req.pinned].x === undefined) {
    nodes[req.pinned].x = 0;
    nodes[req.pinned].y = 0;
  }
  // Children step outwards from their parent, fanned out if there are several.
  const queue = roots.slice();
  if (req.pinned !== undefined) queue.push(...children[req.pinned]);
  for (let q = 0; q < queue.length; q++) {
    const p = nodes[queue[q]];
    const kids = children[queue[q]];
    const len = Math.hypot(p.x ?? 0, p.y ?? 0) || 1;
    const ux = (p.x ?? 0) / len;
    const uy = (p.y ?? 0) / len;
    kids.forEach((c, j) => {
      const node = nodes[c];
      if (node.x === undefined) {
        const spread = (j - (kids.length - 1) / 2) * 22;
        node.x = (p.x ?? 0) + ux * 46 - uy * spread;
        node.y = (p.y ?? 0) + uy * 46 + ux * spread;
      }
      queue.push(c);
    });
  }
  for (let i = 0; i < n; i++) {
    if (nodes[i].x === undefined) {
      const r = C * Math.sqrt(k + k0);
      nodes[i].x = r * Math.cos(k * GOLDEN);
      nodes[i].y = r * Math.sin(k * GOLDEN);
      k++;
    }
  }
}

/** Builds the request for a model; `previous` maps node id -> [x, y] from the last layout. */
export function layoutRequestFor(
  model: GraphModel,
  radii: Float32Array,
  previous?: Map<string, [number, number]>,
): LayoutRequest {
  const index = new Map<string, number>();
  model.nodes.forEach((nd, i) => index.set(nd.id, i));
  const links = new Uint32Array(model.edges.length * 2);
  model.edges.forEach((e, k) => {
    links[2 * k] = index.get(e.source)!;
    links[2 * k + 1] = index.get(e.target)!;
  });
  let init: Float32Array | undefined;
  if (previous && previous.size > 0) {
    init = new Float32Array(model.nodes.length * 2).fill(Number.NaN);
    model.nodes.forEach((nd, i) => {
      const p = previous.get(nd.id);
      if (p) {
        init![2 * i] = p[0];
        init![2 * i + 1] = p[1];
      }
    });
  }
  return {
    kinds: model.nodes.map((nd) => nd.kind),
    hops: model.nodes.map((nd) => (Number.isFinite(nd.hop) ? nd.hop : 1)),
    radii,
    links,
    linkKinds: model.edges.map((e) => e.kind),
    targets: targetRadii(model),
    init,
    pinned: index.get(model.queryId),
  };
}
