// Node shapes rendered once per kind, screen size, theme and pixel ratio, then stamped with
// drawImage: fast with thousands of nodes, where one huge vector path is not.
import type { NodeKind } from './model';
import { tracePath } from './geometry';
import type { GraphTheme } from './theme';

export interface Sprite {
  canvas: HTMLCanvasElement | ImageBitmap;
  half: number; // device pixels from the sprite's corner to the node's centre
}
const sprites = new Map<string, Sprite>();

/** A node shape rendered once at a given screen radius (rounded to 0.5 px), then reused. */
export function sprite(kind: NodeKind, screenR: number, theme: GraphTheme, outline: boolean, dpr: number): Sprite {
  const r = Math.max(1, Math.round(screenR * 2) / 2);
  const key = `${theme.name}|${kind}|${r}|${outline ? 1 : 0}|${dpr}`;
  let sp = sprites.get(key);
  if (sp) return sp;
  const half = Math.ceil((r * 1.35 + 2) * dpr);
  const canvas =
    typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(2 * half, 2 * half) : Object.assign(document.createElement('canvas'), { width: 2 * half, height: 2 * half });
  const g = canvas.getContext('2d') as CanvasRenderingContext2D | null;
  if (g) {
    g.scale(dpr, dpr);
    g.beginPath();
    tracePath(g, kind, half / dpr, half / dpr, r);
    g.fillStyle = theme.node[kind];
    g.fill();
    if (outline) {
      g.strokeStyle = theme.nodeStroke;
      g.lineWidth = 1.5;
      g.stroke();
    }
  }
  if (sprites.size > 600) sprites.clear(); // zooming through many sizes: start afresh
  // An ImageBitmap is the cheapest source for drawImage where the platform has one.
  const source = 'transferToImageBitmap' in canvas ? canvas.transferToImageBitmap() : canvas;
  sp = { canvas: source, half };
  sprites.set(key, sp);
  return sp;
}
