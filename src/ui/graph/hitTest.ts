// Hit-testing and viewport culling in world coordinates. Pure (d3-quadtree only), unit-tested.
import { quadtree, type Quadtree } from 'd3';

/** Positions are interleaved [x0, y0, x1, y1, ...] in world units. */
export interface HitIndex {
  tree: Quadtree<number>;
  positions: Float32Array;
  radii: Float32Array;
  maxRadius: number;
}

export function buildHitIndex(positions: Float32Array, radii: Float32Array): HitIndex {
  const n = radii.length;
  const idx: number[] = [];
  let maxRadius = 0;
  for (let i = 0; i < n; i++) {
    if (Number.isFinite(positions[2 * i]) && Number.isFinite(positions[2 * i + 1])) idx.push(i);
    if (radii[i] > maxRadius) maxRadius = radii[i];
  }
  const tree = quadtree<number>()
    .x((i) => positions[2 * i])
    .y((i) => positions[2 * i + 1])
    .addAll(idx);
  return { tree, positions, radii, maxRadius };
}

/** Moves one point (drag) without rebuilding the whole tree. */
export function moveInIndex(index: HitIndex, i: number, x: number, y: number): void {
  index.tree.remove(i);
  index.positions[2 * i] = x;
  index.positions[2 * i + 1] = y;
  index.tree.add(i);
}

/**
 * The node under world point (x, y): the nearest node whose shape (radius + slop) contains the
 * point, or -1. `slop` is in world units so that small nodes stay easy to hit when zoomed out.
 */
export function hitTest(index: HitIndex, x: number, y: number, slop = 0): number {
  const reach = index.maxRadius + slop;
  let best = -1;
  let bestD = Number.POSITIVE_INFINITY;
  const { positions, radii } = index;
  index.tree.visit((node, x0, y0, x1, y1) => {
    if (x0 > x + reach || x1 < x - reach || y0 > y + reach || y1 < y - reach) return true;
    if (!node.length) {
      let leaf: typeof node | undefined = node;
      while (leaf && !leaf.length) {
        const i = (leaf as { data: number }).data;
        const dx = positions[2 * i] - x;
        const dy = positions[2 * i + 1] - y;
        const d = Math.sqrt(dx * dx + dy * dy);
        if (d <= radii[i] + slop && d < bestD) {
          bestD = d;
          best = i;
        }
        leaf = (leaf as { next?: typeof node }).next;
      }
    }
    return false;
  });
  return best;
}

export interface Bounds {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The world rectangle visible through a zoom transform {k, x, y} on a w x h CSS-pixel canvas. */
export function visibleBounds(t: { k: number; x: number; y: number }, width: number, height: number, margin = 0): Bounds {
  return {
    x0: (0 - t.x) / t.k - margin,
    y0: (0 - t.y) / t.k - margin,
    x1: (width - t.x) / t.k + margin,
    y1: (height - t.y) / t.k + margin,
  };
}

export function circleInBounds(b: Bounds, x: number, y: number, r: number): boolean {
  return x + r >= b.x0 && x - r <= b.x1 && y + r >= b.y0 && y - r <= b.y1;
}

/** Conservative: false only when the segment's bounding box misses the viewport. */
export function segmentMayCross(b: Bounds, ax: number, ay: number, bx: number, by: number): boolean {
  return Math.max(ax, bx) >= b.x0 && Math.min(ax, bx) <= b.x1 && Math.max(ay, by) >= b.y0 && Math.min(ay, by) <= b.y1;
}
