// Which node labels the graph draws, and where (issue 12, point 4). Pure, tested in Node.
//
// Importance: the query, the alert, the top hits (the three best-scored direct hits, standard or
// lateral) and the ends of associative chains are ALWAYS named; every other label is drawn only
// where it fits without covering a label or a node already placed, best score first, tags last.
// Placement: right of the node, else left, else below, else above; a label never leaves the
// canvas (moved inside the edge it would cross). An important label that finds no free spot is
// drawn anyway at its first spot inside the canvas (on its halo, so it stays readable).
import type { GraphModel } from './model';

/** How many of the best direct hits are always named. */
export const TOP_HITS_NAMED = 3;

export interface LabelPlan {
  /** Node indices in the order labels claim space. */
  order: number[];
  /** Always named (drawn even where they collide). */
  important: boolean[];
}

export function labelPlan(model: GraphModel): LabelPlan {
  const nodes = model.nodes;
  const important = nodes.map(() => false);
  const outgoingAssoc = new Set<string>();
  for (const e of model.edges) if (e.kind === 'associative') outgoingAssoc.add(e.source);
  const direct = nodes
    .map((n, i) => ({ n, i }))
    .filter(({ n }) => (n.kind === 'standard' || n.kind === 'lateral') && n.score !== undefined)
    .sort((a, b) => (b.n.score ?? 0) - (a.n.score ?? 0) || a.i - b.i);
  for (const { i } of direct.slice(0, TOP_HITS_NAMED)) important[i] = true;
  nodes.forEach((n, i) => {
    if (n.kind === 'query' || n.kind === 'alert') important[i] = true;
    // a chain end: reached by an associative edge and leading nowhere further
    if (n.kind === 'associative' && !outgoingAssoc.has(n.id) && model.edges.some((e) => e.kind === 'associative' && e.target === n.id)) important[i] = true;
  });
  const rank = (i: number): number => {
    const n = nodes[i];
    if (n.kind === 'query') return 100;
    if (n.kind === 'alert') return 50;
    if (n.kind === 'tag') return -10;
    return (important[i] ? 10 : 0) + (n.score ?? 0);
  };
  const order = nodes.map((_, i) => i).sort((a, b) => rank(b) - rank(a) || a - b);
  return { order, important };
}

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Candidate top-left corners (text baseline middle) for a label of width w beside a node of screen radius r at (x, y). */
export function labelSpots(x: number, y: number, r: number, w: number, isQuery: boolean): [number, number][] {
  if (isQuery) return [[x - w / 2, y + r + 20], [x - w / 2, y - r - 20]];
  return [
    [x + r + 5, y],
    [x - r - 5 - w, y],
    [x - w / 2, y + r + 12],
    [x - w / 2, y - r - 12],
  ];
}

/** Moves a label of width w and half-height hh so it lies inside the canvas (margin 4 px). */
export function clampInside(lx: number, ly: number, w: number, hh: number, width: number, height: number): [number, number] {
  const m = 4;
  const x = Math.min(Math.max(lx, m), Math.max(m, width - m - w));
  const y = Math.min(Math.max(ly, m + hh), Math.max(m + hh, height - m - hh));
  return [x, y];
}

const hit = (b: Box, placed: readonly number[]): boolean => {
  for (let j = 0; j < placed.length; j += 4) {
    if (b.x0 < placed[j + 2] && b.x1 > placed[j] && b.y0 < placed[j + 3] && b.y1 > placed[j + 1]) return true;
  }
  return false;
};

/**
 * The spot for a label: the first candidate (clamped inside the canvas) that overlaps nothing in
 * `placed` (x0, y0, x1, y1 per box); for an important label the first candidate when none is free;
 * null for an ordinary one that does not fit.
 */
export function chooseSpot(
  spots: readonly [number, number][],
  w: number,
  hh: number,
  width: number,
  height: number,
  placed: readonly number[],
  important: boolean,
): [number, number] | null {
  const inside = spots.map(([lx, ly]) => clampInside(lx, ly, w, hh, width, height));
  const free = inside.find(([lx, ly]) => !hit({ x0: lx - 2, y0: ly - hh, x1: lx + w + 2, y1: ly + hh }, placed));
  if (free) return free;
  return important ? inside[0] : null;
}
