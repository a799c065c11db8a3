// Pure model builder for the recall graph: a recall result in, nodes and edges out.
// No DOM, no React: it runs in Node tests, on the main thread and in the layout worker alike.
//
// How associative recall is drawn here. The associative-retrieval design calls the direct hits
// hop 0 and each later step of the walk hop 1..3 (prompt -> memory_1 -> memory_2 -> memory_3);
// the graph numbers hops by their distance from the query instead:
// - Hop numbers are 1-based distances from the query: query -> m1 is hop 1, m1 -> m2 is hop 2.
//   A chain is the ordered path from the query to its result. Its entries are sorted by their
//   `hop` field, and the drawn hop number is the position in that path (so a 0-based chain such
//   as [{hop:0},{hop:1}] draws as hops 1, 2). If the result itself is not the last entry, it is
//   appended as the final hop.
// - Filters choose which *results* are shown. The chain of a shown associative result stays whole
//   (its intermediate memories are the "why"), even when their own kind is filtered out.
// - Depth counts memory hops from the query. Tag nodes hang off visible memories and divergence
//   badges off the query; neither counts against depth. Depth 1..3 is the local view; 4 is there
//   because a three-hop associative walk (the direct hit is hop 0, then hops 1..3) is a
//   path of four memories, query -> m0 -> m1 -> m2 -> m3, and its end must be reachable.

import { AppError } from '../../core/errors';

export type MemoryKind = 'standard' | 'lateral' | 'associative';
export type NodeKind = 'query' | MemoryKind | 'tag' | 'alert' | 'recent' | 'entity';
export type EdgeKind = 'standard' | 'lateral' | 'associative' | 'tag' | 'divergence' | 'entity' | 'found';

/** How deeper search (seed 003) or iterative search (seed 001) added a memory, in plain words. */
export interface FoundBy {
  by: 'deep' | 'iterative';
  /** The whole phrase ("said near a memory you found (1 turn before)", "pass 2: searched again as …"). */
  how: string;
  /** Edge text ("nearby in time", "pass 2"). */
  short: string;
  /** The result that led to it (deep search's seed), drawn as an edge from it. */
  seed?: string;
}

export interface ChainStep {
  id: string;
  hop: number;
  cosine: number;
}

export interface RecallResultInput {
  id: string;
  label: string;
  score: number;
  mode: MemoryKind;
  tags: string[];
  chain?: ChainStep[];
  /** When the memory happened (epoch ms), for the tooltip. */
  when?: number;
  /** Found by the entity expansion: the results it shares these named entities with. */
  via?: { seed: string; entities: { hash: number; name: string }[] }[];
  /** The memory's picture (schema v10): drawn as the node's thumbnail, its caption read with the node. */
  picture?: GraphPicture;
  /** Added by deeper search or iterative search, and how. */
  found?: FoundBy;
  /** An earlier version of a memory (an edit replaced it): drawn struck through, said in its name. */
  earlier?: true;
}

/** A memory's picture on its node: the stored picture's id and its caption (the alt text). */
export interface GraphPicture {
  imageId: string;
  caption: string;
}

export interface DivergenceInput {
  spaceName: string;
  similarity: number;
  threshold: number;
  recentIds: string[];
  /** The alert node's label (default "Divergence in <spaceName>") and tooltip line. */
  label?: string;
  detail?: string;
}

export type GraphDepth = 1 | 2 | 3 | 4;
export const GRAPH_DEPTHS: readonly GraphDepth[] = [1, 2, 3, 4];

export interface GraphFilters {
  kinds?: MemoryKind[];
  tag?: string;
}

export interface GraphModelInput {
  query: string;
  results: RecallResultInput[];
  divergence?: DivergenceInput[];
  showTags?: boolean;
  depth?: GraphDepth;
  filters?: GraphFilters;
  /** Labels for memories that appear only inside chains or divergence alerts. */
  labels?: Record<string, string>;
  /** When those memories happened (epoch ms), where known. */
  when?: Record<string, number>;
}

export interface GraphNode {
  /** Deterministic: `query`, `m:<memoryId>`, `t:<tag>`, `a:<spaceName>`. */
  id: string;
  kind: NodeKind;
  label: string;
  /** Set on memory nodes (standard / lateral / associative / recent). */
  memoryId?: string;
  score?: number;
  /** Memory hops from the query (query 0). Tags: parent hop + 1; alerts 1; recent memories 2. */
  hop: number;
  tags: string[];
  /** Extra line for tooltips, e.g. the divergence numbers. */
  detail?: string;
  /** When the memory happened (epoch ms), for the tooltip. */
  when?: number;
  /** The memory's picture, drawn inside the node when its thumbnail is loaded. */
  picture?: GraphPicture;
  /** Added by deeper search or iterative search (drawn with a ring of its own). */
  found?: FoundBy;
  /** An earlier version of a memory (an edit replaced it). */
  earlier?: true;
}

export interface GraphEdge {
  /** Deterministic: `<kind>:<source>><target>`. */
  id: string;
  kind: EdgeKind;
  source: string;
  target: string;
  directed: boolean;
  dashed: boolean;
  label?: string;
  hop?: number;
  cosine?: number;
}

export interface GraphModel {
  queryId: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export const QUERY_NODE_ID = 'query';
export const memoryNodeId = (memoryId: string): string => `m:${memoryId}`;
export const tagNodeId = (tag: string): string => `t:${normaliseTag(tag)}`;
export const alertNodeId = (spaceName: string): string => `a:${spaceName}`;
export const entityNodeId = (hash: number): string => `e:${hash >>> 0}`;
const edgeId = (kind: EdgeKind, s: string, t: string): string => `${kind}:${s}>${t}`;

/** A graph filter typed as "#Sam" finds the tag sam, as everywhere tags are typed. */
function normaliseTag(tag: string): string {
  return tag.trim().replace(/^#+\s*/, '').toLowerCase();
}

const MODES: readonly MemoryKind[] = ['standard', 'lateral', 'associative'];

function fail(detail: string): never {
  throw new AppError('INVALID_OPTION', `The recall graph could not be built: ${detail}`, detail);
}

function validate(input: GraphModelInput): void {
  if (typeof input.query !== 'string') fail('the query must be a string.');
  if (!Array.isArray(input.results)) fail('results must be a list.');
  if (input.depth !== undefined && !GRAPH_DEPTHS.includes(input.depth)) fail(`depth must be 1, 2, 3 or 4 (got ${String(input.depth)}).`);
  for (const r of input.results) {
    if (!r || typeof r.id !== 'string' || r.id.length === 0) fail('every result needs a non-empty id.');
    if (!MODES.includes(r.mode)) fail(`result ${r.id} has an unknown mode "${String(r.mode)}".`);
    if (typeof r.score !== 'number' || !Number.isFinite(r.score)) fail(`result ${r.id} has a score that is not a finite number.`);
    for (const step of r.chain ?? []) {
      if (typeof step.id !== 'string' || step.id.length === 0) fail(`a chain step of result ${r.id} has no id.`);
      if (!Number.isFinite(step.hop)) fail(`a chain step of result ${r.id} has a hop that is not a number.`);
    }
  }
  for (const d of input.divergence ?? []) {
    if (typeof d.spaceName !== 'string' || d.spaceName.length === 0) fail('a divergence alert needs a space name.');
  }
}

/** Builds the graph. Throws AppError('INVALID_OPTION') with a readable message on malformed input. */
export function buildGraphModel(input: GraphModelInput): GraphModel {
  validate(input);
  const depth = input.depth ?? 3;
  const labels = input.labels ?? {};
  const wantTag = input.filters?.tag ? normaliseTag(input.filters.tag) : undefined;
  const wantKinds = input.filters?.kinds;

  // First result with an id wins; later duplicates are ignored.
  const byId = new Map<string, RecallResultInput>();
  for (const r of input.results) if (!byId.has(r.id)) byId.set(r.id, r);

  const shown = [...byId.values()].filter(
    (r) =>
      (!wantKinds || wantKinds.includes(r.mode)) &&
      (!wantTag || r.tags.some((t) => normaliseTag(t) === wantTag)),
  );

  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, GraphEdge>();
  const pairs = new Set<string>(); // one edge per unordered pair of nodes
  const addEdge = (e: Omit<GraphEdge, 'id'>): void => {
    const pair = e.source < e.target ? `${e.source}|${e.target}` : `${e.target}|${e.source}`;
    if (pairs.has(pair) || e.source === e.target) return;
    pairs.add(pair);
    const id = edgeId(e.kind, e.source, e.target);
    edges.set(id, { id, ...e });
  };
  const memoryNode = (memId: string, hop: number): GraphNode => {
    const nid = memoryNodeId(memId);
    const existing = nodes.get(nid);
    if (existing) {
      existing.hop = Math.min(existing.hop, hop);
      return existing;
    }
    const r = byId.get(memId);
    const node: GraphNode = r
      ? { id: nid, kind: r.mode, label: r.label, memoryId: memId, score: r.score, hop, tags: r.tags.slice(), ...(r.when !== undefined ? { when: r.when } : {}), ...(r.picture ? { picture: r.picture } : {}), ...(r.found ? { found: r.found } : {}), ...(r.earlier ? { earlier: true as const } : {}) }
      : { id: nid, kind: 'associative', label: labels[memId] ?? memId, memoryId: memId, hop, tags: [], ...(input.when?.[memId] !== undefined ? { when: input.when[memId] } : {}) };
    nodes.set(nid, node);
    return node;
  };

  nodes.set(QUERY_NODE_ID, { id: QUERY_NODE_ID, kind: 'query', label: input.query, hop: 0, tags: [] });

  // Direct hits first so that a memory reached both directly and through a chain keeps hop 1.
  for (const r of shown) {
    if (r.mode === 'associative' && (r.chain?.length ?? 0) > 0) continue;
    const n = memoryNode(r.id, 1);
    addEdge({
      kind: r.mode === 'lateral' ? 'lateral' : r.mode === 'associative' ? 'associative' : 'standard',
      source: QUERY_NODE_ID,
      target: n.id,
      directed: r.mode === 'associative',
      dashed: r.mode === 'lateral',
      label: r.mode === 'lateral' ? 'lateral' : r.mode === 'associative' ? '1' : undefined,
      hop: 1,
    });
  }
  for (const r of shown) {
    if (!r.chain || r.chain.length === 0) continue;
    const steps = r.chain.slice().sort((a, b) => a.hop - b.hop);
    if (steps[steps.length - 1].id !== r.id) steps.push({ id: r.id, hop: Number.NaN, cosine: Number.NaN });
    let prev = QUERY_NODE_ID;
    steps.forEach((step, i) => {
      const hop = i + 1;
      const n = memoryNode(step.id, hop);
      addEdge({
        kind: 'associative',
        source: prev,
        target: n.id,
        directed: true,
        dashed: false,
        label: String(hop),
        hop,
        cosine: Number.isFinite(step.cosine) ? step.cosine : undefined,
      });
      prev = n.id;
    });
  }

  // Entity expansion (expandHops 1): seed -> entity -> the memory it brought in, both edges dashed.
  for (const r of shown) {
    for (const v of r.via ?? []) {
      const seed = nodes.get(memoryNodeId(v.seed));
      const target = nodes.get(memoryNodeId(r.id));
      if (!seed || !target) continue;
      for (const e of v.entities) {
        const eid = entityNodeId(e.hash);
        if (!nodes.has(eid)) nodes.set(eid, { id: eid, kind: 'entity', label: e.name, hop: seed.hop + 1, tags: [], detail: 'named in both memories' });
        addEdge({ kind: 'entity', source: seed.id, target: eid, directed: false, dashed: true });
        addEdge({ kind: 'entity', source: eid, target: target.id, directed: true, dashed: true, label: 'same name' });
      }
    }
  }

  // Deeper search: an edge from the result that led to the memory it added, with how ("nearby in time").
  for (const r of shown) {
    const seed = r.found?.seed !== undefined ? nodes.get(memoryNodeId(r.found.seed)) : undefined;
    const target = nodes.get(memoryNodeId(r.id));
    if (seed && target) addEdge({ kind: 'found', source: seed.id, target: target.id, directed: true, dashed: true, label: r.found!.short });
  }

  // Depth: a node's hop is its shortest distance through the graph, recomputed after merging.
  const hops = bfsHops(nodes, edges);
  for (const [id, node] of nodes) {
    const h = hops.get(id) ?? Number.POSITIVE_INFINITY;
    node.hop = h;
    if (h > depth) nodes.delete(id);
  }
  for (const [id, e] of edges) if (!nodes.has(e.source) || !nodes.has(e.target)) edges.delete(id);

  if (input.showTags) {
    const memNodes = [...nodes.values()].filter((n) => n.memoryId !== undefined);
    for (const m of memNodes) {
      for (const raw of m.tags) {
        const tag = normaliseTag(raw);
        if (!tag) continue;
        const tid = tagNodeId(tag);
        const t = nodes.get(tid);
        if (t) t.hop = Math.min(t.hop, m.hop + 1);
        else nodes.set(tid, { id: tid, kind: 'tag', label: `#${tag}`, hop: m.hop + 1, tags: [] });
        addEdge({ kind: 'tag', source: m.id, target: tid, directed: false, dashed: false });
      }
    }
  }

  for (const d of input.divergence ?? []) {
    const aid = alertNodeId(d.spaceName);
    if (nodes.has(aid)) continue;
    nodes.set(aid, {
      id: aid,
      kind: 'alert',
      label: d.label ?? `Divergence in ${d.spaceName}`,
      hop: 1,
      tags: [],
      detail: d.detail ?? `similarity ${fmt(d.similarity)} below threshold ${fmt(d.threshold)}`,
    });
    addEdge({ kind: 'divergence', source: QUERY_NODE_ID, target: aid, directed: false, dashed: true });
    for (const rid of d.recentIds) {
      const nid = memoryNodeId(rid);
      if (!nodes.has(nid)) {
        nodes.set(nid, { id: nid, kind: 'recent', label: labels[rid] ?? byId.get(rid)?.label ?? rid, memoryId: rid, hop: 2, tags: [], ...(input.when?.[rid] !== undefined ? { when: input.when[rid] } : {}) });
      }
      addEdge({ kind: 'divergence', source: aid, target: nid, directed: true, dashed: true });
    }
  }

  return { queryId: QUERY_NODE_ID, nodes: [...nodes.values()], edges: [...edges.values()] };
}

function bfsHops(nodes: Map<string, GraphNode>, edges: Map<string, GraphEdge>): Map<string, number> {
  const adj = new Map<string, string[]>();
  for (const e of edges.values()) {
    if (!adj.has(e.source)) adj.set(e.source, []);
    adj.get(e.source)!.push(e.target);
  }
  const hops = new Map<string, number>([[QUERY_NODE_ID, 0]]);
  const queue = [QUERY_NODE_ID];
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i];
    for (const next of adj.get(id) ?? []) {
      if (!hops.has(next) && nodes.has(next)) {
        hops.set(next, hops.get(id)! + 1);
        queue.push(next);
      }
    }
  }
  return hops;
}

export function fmt(x: number): string {
  return Number.isFinite(x) ? x.toFixed(2) : '–';
}

const KIND_NAMES: Record<NodeKind, string> = {
  query: 'Query',
  standard: 'Standard memory',
  lateral: 'Lateral memory',
  associative: 'Associative memory',
  tag: 'Tag',
  alert: 'Divergence alert',
  recent: 'Recent memory',
  entity: 'Shared name',
};

/** Screen-reader text for a node, e.g. "Lateral memory: B-tree layouts, score 0.61". */
export function nodeAriaLabel(n: GraphNode): string {
  let s = `${KIND_NAMES[n.kind]}: ${n.label}`;
  if (n.score !== undefined) s += `, score ${fmt(n.score)}`;
  if (n.kind === 'associative') s += `, hop ${n.hop}`;
  if (n.detail) s += `, ${n.detail}`;
  if (n.found) s += n.found.by === 'deep' ? `, found by deeper search: ${n.found.how}` : `, found by looking again: ${n.found.how}`;
  if (n.earlier) s += ', earlier version: an edit replaced it';
  if (n.picture) s += `, with a picture: ${n.picture.caption}`;
  return s;
}

export function kindName(kind: NodeKind): string {
  return KIND_NAMES[kind];
}
