// Canvas renderer: one call draws a frame. Batched by style (one path per edge style and per node
// kind), culled to the viewport, labels only when zoomed in enough and where they do not collide.
import type { EdgeKind, NodeKind } from './model';
import { tracePath } from './geometry';
import { circleInBounds, segmentMayCross, visibleBounds } from './hitTest';
import type { GraphTheme } from './theme';
import type { Scene, Transform } from './scene';
import { sprite } from './sprites';
import { chooseSpot, labelSpots } from './labels';
import { drawPictures } from './draw-pictures';

export interface FrameState {
  scene: Scene;
  positions: Float32Array;
  transform: Transform;
  width: number; // CSS pixels
  height: number;
  dpr: number;
  theme: GraphTheme;
  hovered: number; // node index or -1
  focused: number;
  /** Thumbnails by memory id, drawn clipped to their nodes' circles. */
  pictures?: ReadonlyMap<string, ImageBitmap>;
}

/** Zoom at which ordinary labels appear (small graphs always show them). */
export const LABEL_ZOOM = 0.85;
const SMALL_GRAPH = 60;
// Graphs up to this size keep their labels at any zoom (collisions still decide which fit).
const LABELED_GRAPH = 300;
const ARROW_ZOOM = 0.45;
const DENSE_NODES = 700;
const MANY_EDGES = 100;
const SQUARE_KINDS = new Set<NodeKind>(['standard', 'associative', 'recent', 'tag']);
const EDGE_STYLES: EdgeKind[] = ['tag', 'entity', 'standard', 'found', 'divergence', 'associative', 'lateral'];
const NODE_ORDER: NodeKind[] = ['tag', 'entity', 'recent', 'standard', 'associative', 'lateral', 'alert', 'query'];

function edgeColour(theme: GraphTheme, kind: EdgeKind): string {
  switch (kind) {
    case 'lateral':
      return theme.edgeLateral;
    case 'associative':
      return theme.edgeAssociative;
    case 'tag':
      return theme.edgeTag;
    case 'divergence':
      return theme.edgeDivergence;
    case 'entity':
      return theme.node.entity;
    case 'found':
      return theme.found;
    default:
      return theme.edge;
  }
}

export function truncate(label: string, max = 30): string {
  const clean = label.replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

export interface FrameStats {
  nodesDrawn: number;
  edgesDrawn: number;
  labelsDrawn: number;
  /** Nodes whose centre lies inside the canvas. */
  nodesInside: number;
  /** Always-named nodes inside the canvas, and how many of them got their label. */
  importantInside: number;
  importantLabelled: number;
  /** Nodes drawn with their picture's thumbnail. */
  picturesDrawn: number;
}

export function drawFrame(ctx: CanvasRenderingContext2D, f: FrameState): FrameStats {
  const { scene, positions: p, transform: t, theme, dpr } = f;
  const { model, ends, radii, kindOf } = scene;
  const n = model.nodes.length;
  const stats: FrameStats = { nodesDrawn: 0, edgesDrawn: 0, labelsDrawn: 0, nodesInside: 0, importantInside: 0, importantLabelled: 0, picturesDrawn: 0 };

  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.globalAlpha = 1;
  ctx.fillStyle = theme.background;
  ctx.fillRect(0, 0, f.width, f.height);
  if (n === 0 || p.length < 2 * n) return stats;

  const focus = f.focused >= 0 ? f.focused : f.hovered;
  const lit = focus >= 0 ? new Set<number>([focus, ...scene.neighbours[focus]]) : null;
  const litEdge = (k: number): boolean => lit !== null && (ends[2 * k] === focus || ends[2 * k + 1] === focus);

  const b = visibleBounds(t, f.width, f.height, 24 / t.k);
  const q0 = scene.index.get(model.queryId) ?? -1;
  const px = 1 / t.k; // one CSS pixel in world units

  let visible = 0;
  for (let i = 0; i < n; i++) if (circleInBounds(b, p[2 * i], p[2 * i + 1], radii[i])) visible++;
  // Dense views (hundreds of nodes, each a few pixels): plain squares for the common kinds cost a
  // tenth of a sprite, while lateral, alert and query keep their shapes so they still stand out;
  // edges fade and the query's plain spokes are left out (the radial layout already says
  // "linked to the query").
  const dense = visible > DENSE_NODES;
  // Edges, one batch per style; highlighted ones again on top at full strength.
  // Edges are stroked in screen space (points transformed here): Skia strokes thin lines under a
  // scaling transform an order of magnitude slower than under the identity.
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const X = (i: number): number => p[2 * i] * t.k + t.x;
  const Y = (i: number): number => p[2 * i + 1] * t.k + t.y;
  const manyEdges = model.edges.length > MANY_EDGES;
  const edgePass = (highlight: boolean): void => {
    for (const kind of EDGE_STYLES) {
      ctx.beginPath();
      let any = false;
      model.edges.forEach((e, k) => {
        if (e.kind !== kind || litEdge(k) !== highlight) return;
        const s = ends[2 * k];
        const d = ends[2 * k + 1];
        if (dense && !highlight && kind === 'standard' && s === q0) return;
        if (!segmentMayCross(b, p[2 * s], p[2 * s + 1], p[2 * d], p[2 * d + 1])) return;
        ctx.moveTo(X(s), Y(s));
        ctx.lineTo(X(d), Y(d));
        any = true;
        stats.edgesDrawn++;
      });
      if (!any) continue;
      ctx.strokeStyle = edgeColour(theme, kind);
      // Wider than 1px, Skia strokes a polygon per segment (10x slower where hundreds of lines
      // meet at the query), so busy views use hairlines and keep colour and dash as the cue.
      const w = kind === 'tag' || manyEdges ? 1 : kind === 'standard' ? 1.2 : 1.8;
      ctx.lineWidth = highlight ? w + 1.2 : w;
      ctx.setLineDash(kind === 'lateral' ? [7, 5] : kind === 'divergence' ? [2, 4] : kind === 'entity' ? [4, 3] : kind === 'found' ? [2, 3] : []);
      ctx.stroke();
    }
    ctx.setLineDash([]);
    // Arrowheads on directed edges, at the target's rim (skipped when zoomed far out: too small
    // to read, and costly with thousands of edges).
    if ((t.k < ARROW_ZOOM || dense) && !highlight && n > SMALL_GRAPH) return;
    for (const kind of ['associative', 'divergence'] as const) {
      ctx.beginPath();
      let any = false;
      model.edges.forEach((e, k) => {
        if (e.kind !== kind || !e.directed || litEdge(k) !== highlight) return;
        const s = ends[2 * k];
        const d = ends[2 * k + 1];
        if (!circleInBounds(b, p[2 * d], p[2 * d + 1], radii[d] + 12 * px)) return;
        const bx = X(d), by = Y(d);
        const dx = bx - X(s), dy = by - Y(s);
        const len = Math.hypot(dx, dy) || 1;
        const ux = dx / len, uy = dy / len;
        const back = radii[d] * t.k * 1.15 + 1.5;
        const tipX = bx - ux * back;
        const tipY = by - uy * back;
        const size = 7;
        ctx.moveTo(tipX, tipY);
        ctx.lineTo(tipX - ux * size - uy * size * 0.55, tipY - uy * size + ux * size * 0.55);
        ctx.lineTo(tipX - ux * size + uy * size * 0.55, tipY - uy * size - ux * size * 0.55);
        ctx.closePath();
        any = true;
      });
      if (any) {
        ctx.fillStyle = edgeColour(theme, kind);
        ctx.fill();
      }
    }
  };
  ctx.globalAlpha = lit ? theme.dimAlpha : dense ? 0.45 : 1;
  edgePass(false);
  if (lit) {
    ctx.globalAlpha = 1;
    edgePass(true);
  }

  // Nodes: each is a pre-rendered sprite (per kind, screen size and theme) stamped with
  // drawImage, which stays fast with thousands of nodes where one huge vector path does not.
  const outline = 9 * t.k >= 4.5 || n <= SMALL_GRAPH;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  const nodePass = (highlight: boolean): void => {
    for (const kind of NODE_ORDER) {
      const square = dense && !highlight && SQUARE_KINDS.has(kind);
      // Dense and not a square: one vector path for the kind, filled once (cheaper than sprites).
      const vector = dense && !highlight && !square && kind !== 'query';
      if (square || vector) ctx.fillStyle = theme.node[kind];
      if (vector) ctx.beginPath();
      for (let i = 0; i < n; i++) {
        if (kindOf[i] !== kind || (lit !== null && lit.has(i)) !== highlight) continue;
        const r = radii[i];
        if (!circleInBounds(b, p[2 * i], p[2 * i + 1], r * 1.3)) continue;
        const cx = (p[2 * i] * t.k + t.x) * dpr;
        const cy = (p[2 * i + 1] * t.k + t.y) * dpr;
        if (square) {
          const side = Math.max(2, Math.round(r * t.k * dpr * 1.7));
          ctx.fillRect(Math.round(cx - side / 2), Math.round(cy - side / 2), side, side);
        } else if (vector) {
          tracePath(ctx, kind, cx, cy, Math.max(1.5, r * t.k * dpr));
        } else {
          const img = sprite(kind, r * t.k, theme, outline, dpr);
          ctx.drawImage(img.canvas, Math.round(cx - img.half), Math.round(cy - img.half));
        }
        stats.nodesDrawn++;
      }
      if (vector) ctx.fill();
    }
  };
  ctx.globalAlpha = lit ? Math.max(theme.dimAlpha, 0.3) : 1;
  nodePass(false);
  ctx.globalAlpha = 1;
  if (lit) nodePass(true);
  if (!dense && f.pictures?.size) stats.picturesDrawn += drawPictures(ctx, f.scene, f.positions, f.transform, f.dpr, f.pictures, b);
  ctx.setTransform(dpr * t.k, 0, 0, dpr * t.k, dpr * t.x, dpr * t.y);

  // The query: a halo ring so it reads as the centre of everything.
  const q = scene.index.get(model.queryId);
  if (q !== undefined) {
    ctx.beginPath();
    ctx.arc(p[2 * q], p[2 * q + 1], radii[q] + 5 * px + 2, 0, Math.PI * 2);
    ctx.strokeStyle = theme.node.query;
    ctx.lineWidth = 2 * px;
    ctx.stroke();
  }
  // Deeper search and iterative additions: a ring of their own (dashed for deeper search).
  ctx.strokeStyle = theme.found;
  ctx.lineWidth = 2 * px;
  model.nodes.forEach((node, i) => {
    if (!node.found) return;
    ctx.setLineDash(node.found.by === 'deep' ? [3 * px, 2 * px] : []);
    ctx.beginPath();
    ctx.arc(p[2 * i], p[2 * i + 1], radii[i] * 1.35 + 3 * px, 0, Math.PI * 2);
    ctx.stroke();
  });
  ctx.setLineDash([]);
  // Earlier versions (an edit replaced them): struck through, as a corrected line on paper.
  ctx.strokeStyle = theme.text;
  ctx.lineWidth = 2.5 * px;
  model.nodes.forEach((node, i) => {
    if (!node.earlier) return;
    const d = radii[i] * 1.1;
    ctx.beginPath();
    ctx.moveTo(p[2 * i] - d, p[2 * i + 1] + d);
    ctx.lineTo(p[2 * i] + d, p[2 * i + 1] - d);
    ctx.stroke();
  });
  // Hover and focus rings.
  const ring = (i: number, colour: string, width: number): void => {
    if (i < 0) return;
    ctx.beginPath();
    ctx.arc(p[2 * i], p[2 * i + 1], radii[i] * 1.35 + 4 * px, 0, Math.PI * 2);
    ctx.strokeStyle = colour;
    ctx.lineWidth = width * px;
    ctx.stroke();
  };
  if (f.hovered !== f.focused) ring(f.hovered, theme.hoverRing, 2);
  ring(f.focused, theme.focusRing, 3.5);

  // Text is drawn in screen space so it stays crisp and the same size at any zoom.
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const showLabels = t.k >= LABEL_ZOOM || n <= LABELED_GRAPH;
  const showEdgeText = t.k >= (dense ? 1 : 0.6) || n <= SMALL_GRAPH;

  // Alert glyphs ("!") inside the triangle badges.
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = `700 ${Math.max(8, Math.min(14, 12 * t.k))}px system-ui, sans-serif`;
  ctx.fillStyle = theme.background;
  for (let i = 0; i < n; i++) {
    if (kindOf[i] === 'alert' && radii[i] * t.k >= 6 && circleInBounds(b, p[2 * i], p[2 * i + 1], radii[i])) {
      ctx.fillText('!', X(i), Y(i) + 2);
    }
  }

  // Edge text: "lateral" on lateral edges, hop numbers in badges on associative edges.
  if (showEdgeText) {
    ctx.font = '600 11px system-ui, sans-serif';
    let budget = 400;
    model.edges.forEach((e, k) => {
      if (budget <= 0 || (e.kind !== 'lateral' && e.kind !== 'found' && !(e.kind === 'associative' && e.hop))) return;
      const s = ends[2 * k];
      const d = ends[2 * k + 1];
      // Spokes from the query crowd together near it: put their text further out.
      const along = s === q0 ? 0.62 : 0.5;
      const mx = X(s) + (X(d) - X(s)) * along;
      const my = Y(s) + (Y(d) - Y(s)) * along;
      if (mx < -20 || my < -20 || mx > f.width + 20 || my > f.height + 20) return;
      ctx.globalAlpha = lit && !litEdge(k) ? theme.dimAlpha : 1;
      budget--;
      if (e.kind === 'lateral' || e.kind === 'found') {
        const text = e.kind === 'lateral' ? 'lateral' : (e.label ?? '');
        ctx.lineWidth = 4;
        ctx.strokeStyle = theme.halo;
        ctx.strokeText(text, mx, my);
        ctx.fillStyle = e.kind === 'lateral' ? theme.edgeLateral : theme.found;
        ctx.fillText(text, mx, my);
      } else {
        ctx.beginPath();
        ctx.arc(mx, my, 8, 0, Math.PI * 2);
        ctx.fillStyle = theme.badgeFill;
        ctx.fill();
        ctx.fillStyle = theme.badgeText;
        ctx.fillText(String(e.hop), mx, my + 0.5);
      }
    });
    ctx.globalAlpha = 1;
  }

  // Node labels (labels.ts): the always-named ones first, then by score, each where it overlaps
  // nothing placed and inside the canvas; an ordinary label that does not fit is left out.
  ctx.font = '500 12px system-ui, sans-serif';
  ctx.textAlign = 'left';
  const placed: number[] = []; // x0, y0, x1, y1 per label or node
  const maxLabels = 220;
  // Visible nodes are obstacles too, so a label never covers another node (skipped for huge views).
  if (showLabels && stats.nodesDrawn <= 900) {
    for (let i = 0; i < n; i++) {
      const x = X(i);
      const y = Y(i);
      if (x < -20 || y < -20 || x > f.width + 20 || y > f.height + 20) continue;
      const r = radii[i] * t.k * 1.2;
      placed.push(x - r, y - r, x + r, y + r);
    }
  }
  const drawn = new Set<number>();
  const drawLabel = (i: number, strong: boolean): void => {
    if (drawn.has(i)) return;
    const node = model.nodes[i];
    const x = X(i);
    const y = Y(i);
    // a node outside the canvas keeps its label out of view too
    if (x < 0 || x > f.width || y < 0 || y > f.height) return;
    const isQuery = node.kind === 'query';
    const r = radii[i] * t.k * (node.kind === 'lateral' ? 1.25 : 1.1);
    ctx.font = isQuery ? '700 14px system-ui, sans-serif' : strong ? '600 12px system-ui, sans-serif' : '500 12px system-ui, sans-serif';
    const hh = isQuery ? 11 : 8;
    // Full length where it fits; an always-named label that does not fit tries a short form
    // before it is drawn over its neighbours.
    let text = '';
    let w = 0;
    let spot: [number, number] | null = null;
    for (const max of strong && !isQuery ? [34, 16] : [isQuery ? 48 : 30]) {
      text = truncate(node.label, max);
      w = ctx.measureText(text).width;
      spot = chooseSpot(labelSpots(x, y, r, w, isQuery), isQuery ? w + 12 : w, hh, f.width, f.height, placed, false);
      if (spot) break;
    }
    if (!text) return;
    if (!spot && strong) spot = chooseSpot(labelSpots(x, y, r, w, isQuery), isQuery ? w + 12 : w, hh, f.width, f.height, placed, true);
    if (!spot) return;
    const [lx, ly] = spot;
    drawn.add(i);
    if (isQuery) placed.push(lx - 8, ly - 11, lx + w + 8, ly + 11);
    else placed.push(lx - 2, ly - 8, lx + w + 2, ly + 8);
    ctx.globalAlpha = lit && !lit.has(i) ? 0.35 : 1;
    if (isQuery) {
      // The query's label sits on a pill so it stays readable over the busiest part of the graph.
      ctx.fillStyle = theme.halo;
      ctx.beginPath();
      ctx.roundRect(lx - 2, ly - 11, w + 16, 22, 11);
      ctx.fill();
    }
    const tx = isQuery ? lx + 6 : lx;
    ctx.lineWidth = 4;
    ctx.lineJoin = 'round';
    ctx.strokeStyle = theme.halo;
    ctx.strokeText(text, tx, ly);
    ctx.fillStyle = node.kind === 'tag' ? theme.textMuted : theme.text;
    ctx.fillText(text, tx, ly);
    stats.labelsDrawn++;
  };
  // The query, the focused node, then the always-named ones, so they win the space.
  if (q !== undefined) drawLabel(q, true);
  if (focus >= 0) drawLabel(focus, true);
  for (let j = 0; j < scene.labelOrder.length; j++) {
    const i = scene.labelOrder[j];
    if (scene.important[i]) drawLabel(i, true);
  }
  if (lit) for (const i of lit) drawLabel(i, lit.size <= 12);
  // Zoomed far out on a huge graph, only a few more landmarks keep their labels.
  const limit = showLabels ? maxLabels : stats.labelsDrawn + 14;
  for (let j = 0; j < scene.labelOrder.length && stats.labelsDrawn < limit; j++) drawLabel(scene.labelOrder[j], false);
  for (let i = 0; i < n; i++) {
    const x = X(i);
    const y = Y(i);
    if (x < 0 || y < 0 || x > f.width || y > f.height) continue;
    stats.nodesInside++;
    if (scene.important[i]) {
      stats.importantInside++;
      if (drawn.has(i)) stats.importantLabelled++;
    }
  }
  ctx.globalAlpha = 1;
  return stats;
}
