// The mutable state of the drawn frame. It lives outside React (in one ref) because redraws,
// pan, zoom and drag must not go through a render.
import { useRef } from 'react';
import { zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3';
import type { Scene } from './scene';
import type { HitIndex } from './hitTest';
import type { GraphTheme } from './theme';

export interface Frame {
  /** Node positions, interleaved x,y; null before the first layout. */
  positions: Float32Array | null;
  /** The scene `positions` belong to (the model on screen, not a newer one still being laid out). */
  scene: Scene | null;
  hit: HitIndex | null;
  transform: ZoomTransform;
  /** CSS pixels and device pixel ratio of the canvas. */
  size: { w: number; h: number; dpr: number };
  /** Node index, or -1. */
  hovered: number;
  focused: number;
  theme: GraphTheme;
  zoom: ZoomBehavior<HTMLCanvasElement, unknown> | null;
  /** Pending requestAnimationFrame handle (0 = none). */
  raf: number;
  /** A layout has been fitted (every layout fits the view to its content when it ends). */
  fitted: boolean;
  /** The person moved the view (wheel, pinch, drag) since the last fit: a resize keeps it. */
  moved: boolean;
  /** Last position of every node id, to warm-start the next layout and animate towards it. */
  previous: Map<string, [number, number]>;
  /** Decoded thumbnails of the memories' pictures, by memory id (drawn inside their nodes). */
  pictures: Map<string, ImageBitmap>;
}

export function useFrame(theme: GraphTheme): Frame {
  const ref = useRef<Frame | null>(null);
  ref.current ??= {
    positions: null,
    scene: null,
    hit: null,
    transform: zoomIdentity,
    size: { w: 0, h: 0, dpr: 1 },
    hovered: -1,
    focused: -1,
    theme,
    zoom: null,
    raf: 0,
    fitted: false,
    moved: false,
    previous: new Map(),
    pictures: new Map(),
  };
  ref.current.theme = theme;
  return ref.current;
}

/** Where node i is drawn, in CSS pixels relative to the canvas. */
export function screenOf(f: Frame, i: number): { x: number; y: number } | null {
  const p = f.positions;
  if (!p || i < 0 || 2 * i + 1 >= p.length) return null;
  const t = f.transform;
  return { x: p[2 * i] * t.k + t.x, y: p[2 * i + 1] * t.k + t.y };
}
