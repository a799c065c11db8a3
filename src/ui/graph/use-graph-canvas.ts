// The canvas side of the graph: drawing (at most once per animation frame), fitting the view,
// following the container's size, and pan / zoom (d3-zoom) with node drag (d3-drag).
import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { drag as d3drag, select, zoom as d3zoom, zoomIdentity, type ZoomTransform } from 'd3';
import { drawFrame } from './draw';
import { hitTest, moveInIndex } from './hitTest';
import type { Frame } from './frame';

export interface GraphCanvas {
  /** Draws one frame now; returns how long it took (ms). */
  draw(): number;
  /** Draws on the next animation frame (several requests, one draw). */
  requestDraw(): void;
  /** Zooms so that every node is in view. */
  fit(): void;
  /** Zooms in (factor > 1) or out (< 1) around the middle of the view. */
  zoomBy(factor: number): void;
}

export function useGraphCanvas(
  f: Frame,
  canvasRef: RefObject<HTMLCanvasElement | null>,
  wrapRef: RefObject<HTMLDivElement | null>,
  /** The view moved or a node was dragged: the tooltip no longer points at its node. */
  onMove: () => void,
): GraphCanvas {
  const onMoveRef = useRef(onMove);
  onMoveRef.current = onMove;

  const draw = useCallback((): number => {
    const canvas = canvasRef.current;
    const { positions, scene } = f;
    if (!canvas || !positions || !scene) return 0;
    const ctx = canvas.getContext('2d', { alpha: false });
    if (!ctx) return 0;
    const t0 = performance.now();
    const stats = drawFrame(ctx, {
      scene,
      positions,
      transform: f.transform,
      width: f.size.w,
      height: f.size.h,
      dpr: f.size.dpr,
      theme: f.theme,
      hovered: f.hovered,
      focused: f.focused,
      pictures: f.pictures,
    });
    // What the frame shows, for tests and the curious (the canvas itself is aria-hidden)
    const d = canvas.dataset;
    d.nodes = String(scene.model.nodes.length);
    d.nodesInside = String(stats.nodesInside);
    d.labels = String(stats.labelsDrawn);
    d.importantInside = String(stats.importantInside);
    d.importantLabelled = String(stats.importantLabelled);
    d.zoom = f.transform.k.toFixed(3);
    d.pictures = String(stats.picturesDrawn);
    return performance.now() - t0;
  }, [f, canvasRef]);

  const requestDraw = useCallback(() => {
    if (f.raf) return;
    f.raf = requestAnimationFrame(() => {
      f.raf = 0;
      draw();
    });
  }, [f, draw]);

  const fit = useCallback(() => {
    const p = f.positions;
    const canvas = canvasRef.current;
    const z = f.zoom;
    if (!p || !canvas || !z || p.length === 0) return;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let i = 0; i < p.length; i += 2) {
      x0 = Math.min(x0, p[i]); x1 = Math.max(x1, p[i]);
      y0 = Math.min(y0, p[i + 1]); y1 = Math.max(y1, p[i + 1]);
    }
    const { w, h } = f.size;
    if (w <= 0 || h <= 0) return;
    // Room for the labels beside the outermost nodes (they are kept inside the canvas anyway) and
    // for the query's label under it; less on a phone, where the graph itself needs the width.
    const padX = Math.max(28, Math.min(110, w * 0.14));
    const padTop = 36;
    const padBottom = 44;
    const k = Math.max(0.05, Math.min(1.6, Math.min((w - 2 * padX) / Math.max(1, x1 - x0), (h - padTop - padBottom) / Math.max(1, y1 - y0))));
    const t = zoomIdentity.translate(w / 2 - ((x0 + x1) / 2) * k, padTop + (h - padTop - padBottom) / 2 - ((y0 + y1) / 2) * k).scale(k);
    select(canvas).call(z.transform, t);
    f.moved = false;
  }, [f, canvasRef]);

  const zoomBy = useCallback(
    (factor: number) => {
      const canvas = canvasRef.current;
      const z = f.zoom;
      if (!canvas || !z) return;
      select(canvas).call(z.scaleBy, factor, [f.size.w / 2, f.size.h / 2]);
      f.moved = true;
    },
    [f, canvasRef],
  );

  // Canvas size follows the container; devicePixelRatio keeps it sharp on HiDPI screens.
  useEffect(() => {
    const wrap = wrapRef.current;
    const canvas = canvasRef.current;
    if (!wrap || !canvas) return;
    const resize = () => {
      const rect = wrap.getBoundingClientRect();
      const dpr = Math.max(1, Math.min(3, window.devicePixelRatio || 1));
      f.size = { w: rect.width, h: rect.height, dpr };
      canvas.width = Math.round(rect.width * dpr);
      canvas.height = Math.round(rect.height * dpr);
      canvas.style.width = `${rect.width}px`;
      canvas.style.height = `${rect.height}px`;
      // a view the person has not moved since it was fitted follows the new size
      if (!f.moved && f.fitted) fit();
      requestDraw();
    };
    resize();
    const ro = new ResizeObserver(resize);
    ro.observe(wrap);
    const mq = window.matchMedia?.(`(resolution: ${window.devicePixelRatio}dppx)`);
    mq?.addEventListener('change', resize);
    return () => {
      ro.disconnect();
      mq?.removeEventListener('change', resize);
    };
  }, [f, canvasRef, wrapRef, requestDraw, fit]);

  // Zoom / pan (d3-zoom) and node drag (d3-drag); drag is registered first so it wins on a node.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const toWorld = (ev: { clientX: number; clientY: number }): [number, number] => {
      const rect = canvas.getBoundingClientRect();
      return f.transform.invert([ev.clientX - rect.left, ev.clientY - rect.top]);
    };
    const slop = () => 4 / f.transform.k;
    const z = d3zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([0.03, 8])
      .on('zoom', (ev: { transform: ZoomTransform; sourceEvent: unknown }) => {
        f.transform = ev.transform;
        // a wheel, pinch or drag (not fit, the buttons or a keyboard focus) moved the view
        if (ev.sourceEvent) f.moved = true;
        onMoveRef.current();
        requestDraw();
      });
    f.zoom = z;
    const dr = d3drag<HTMLCanvasElement, unknown, { i: number }>()
      .container(canvas)
      .subject((ev: { sourceEvent: MouseEvent }) => {
        const idx = f.hit;
        if (!idx) return undefined as unknown as { i: number };
        const [x, y] = toWorld(ev.sourceEvent);
        const i = hitTest(idx, x, y, slop());
        // No subject = no drag gesture, so the event falls through to d3-zoom (pan).
        const subject = i >= 0 ? { i, x: idx.positions[2 * i], y: idx.positions[2 * i + 1] } : undefined;
        return subject as { i: number };
      })
      .on('drag', (ev: { subject: { i: number }; sourceEvent: MouseEvent }) => {
        const idx = f.hit;
        if (!idx) return;
        const [x, y] = toWorld(ev.sourceEvent);
        moveInIndex(idx, ev.subject.i, x, y);
        const id = f.scene?.model.nodes[ev.subject.i]?.id;
        if (id) f.previous.set(id, [x, y]);
        onMoveRef.current();
        requestDraw();
      });
    select(canvas).call(dr).call(z).on('dblclick.zoom', null);
    return () => {
      select(canvas).on('.zoom', null).on('.drag', null);
    };
  }, [f, canvasRef, requestDraw]);

  return { draw, requestDraw, fit, zoomBy };
}
