// Node sizes and shapes, shared by layout (collision radii), hit-testing and drawing.
import type { GraphModel, GraphNode, NodeKind } from './model';

/** A memory node with a picture is drawn at least this large, so its thumbnail can be made out. */
export const PICTURE_RADIUS = 15;

/** World-unit radius of a node; memory nodes grow with their score (clamped to 0..1); a picture's node is at least PICTURE_RADIUS. */
export function nodeRadius(node: Pick<GraphNode, 'kind' | 'score'> & { picture?: unknown }): number {
  if (node.picture) return Math.max(PICTURE_RADIUS, plainRadius(node));
  return plainRadius(node);
}

function plainRadius(node: Pick<GraphNode, 'kind' | 'score'>): number {
  switch (node.kind) {
    case 'query':
      return 18;
    case 'tag':
      return 5;
    case 'alert':
      return 11;
    case 'recent':
      return 6;
    case 'entity':
      return 7;
    default: {
      const s = Math.min(1, Math.max(0, node.score ?? 0.3));
      return 6 + 6 * s;
    }
  }
}

export function radiiFor(model: GraphModel): Float32Array {
  const r = new Float32Array(model.nodes.length);
  model.nodes.forEach((n, i) => (r[i] = nodeRadius(n)));
  return r;
}

type PathLike = Pick<CanvasRenderingContext2D, 'moveTo' | 'lineTo' | 'arc' | 'closePath'>;

/**
 * Adds a node's outline to the current path. Shapes encode the kind for people who cannot tell
 * the colours apart: circle = standard, diamond = lateral, hexagon = associative,
 * rounded-square-ish small square = tag, triangle = alert, double circle = query.
 */
export function tracePath(ctx: PathLike, kind: NodeKind, x: number, y: number, r: number): void {
  switch (kind) {
    case 'lateral': {
      const d = r * 1.25;
      ctx.moveTo(x, y - d);
      ctx.lineTo(x + d, y);
      ctx.lineTo(x, y + d);
      ctx.lineTo(x - d, y);
      ctx.closePath();
      return;
    }
    case 'associative': {
      const h = r * 1.12;
      for (let k = 0; k < 6; k++) {
        const a = Math.PI / 6 + (k * Math.PI) / 3;
        const px = x + h * Math.cos(a);
        const py = y + h * Math.sin(a);
        if (k === 0) ctx.moveTo(px, py);
        else ctx.lineTo(px, py);
      }
      ctx.closePath();
      return;
    }
    case 'tag': {
      ctx.moveTo(x - r, y - r);
      ctx.lineTo(x + r, y - r);
      ctx.lineTo(x + r, y + r);
      ctx.lineTo(x - r, y + r);
      ctx.closePath();
      return;
    }
    case 'entity': {
      // an upside-down triangle: a shared name, apart from the alert's upright one
      const h = r * 1.25;
      ctx.moveTo(x, y + h);
      ctx.lineTo(x + h * 0.95, y - h * 0.7);
      ctx.lineTo(x - h * 0.95, y - h * 0.7);
      ctx.closePath();
      return;
    }
    case 'alert': {
      const h = r * 1.3;
      ctx.moveTo(x, y - h);
      ctx.lineTo(x + h * 0.95, y + h * 0.7);
      ctx.lineTo(x - h * 0.95, y + h * 0.7);
      ctx.closePath();
      return;
    }
    default:
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, Math.PI * 2);
      ctx.closePath();
  }
}
