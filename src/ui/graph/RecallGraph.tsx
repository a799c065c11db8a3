// <RecallGraph>: what was recalled and why, drawn on a canvas. Layout runs in a worker
// (use-graph-layout); the canvas is redrawn at most once per animation frame (use-graph-canvas);
// a hidden list of buttons mirrors the nodes for keyboards and screen readers.
import { useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import { select, zoomIdentity } from 'd3';
import { nodeAriaLabel, type GraphModel } from './model';
import { radiiFor } from './geometry';
import { buildScene, type Scene, type Transform } from './scene';
import { hitTest, visibleBounds, circleInBounds } from './hitTest';
import { resolveTheme, type GraphTheme, type ThemePreference } from './theme';
import { Legend } from './Legend';
import { Tooltip, placeTip, type Tip } from './Tooltip';
import { screenOf, useFrame, type Frame } from './frame';
import { usePrefers } from './use-prefers';
import { useGraphCanvas } from './use-graph-canvas';
import { useGraphLayout, type LayoutInfo, type LayoutOptions } from './use-graph-layout';
import './recall-graph.css';

export type { LayoutInfo } from './use-graph-layout';

export interface RecallGraphHandle {
  /** Draws one frame synchronously and returns how long it took (ms). */
  redraw(): number;
  getTransform(): Transform;
  /** Sets the zoom transform without animation (for benches and tests). */
  setTransform(t: Transform): void;
  fit(): void;
  /** Where a node is drawn, in CSS pixels relative to the canvas; null before layout. */
  screenPosition(nodeId: string): { x: number; y: number } | null;
}

export interface RecallGraphProps {
  model: GraphModel;
  onOpen: (memoryId: string) => void;
  /** Escape from the graph: put focus back on the query / search box. */
  onEscape?: () => void;
  theme?: ThemePreference;
  height?: number | string;
  className?: string;
  showLegend?: boolean;
  /** Accessible name of the graph region. */
  label?: string;
  onLayout?: (info: LayoutInfo) => void;
  layout?: LayoutOptions;
  /** Thumbnails of the memories' pictures by memory id (nodes with `picture`), drawn inside their nodes. */
  thumbnails?: ReadonlyMap<string, Blob>;
  ref?: Ref<RecallGraphHandle>;
}

export function RecallGraph(props: RecallGraphProps) {
  const { model, onOpen, onEscape, showLegend = true } = props;
  const prefersDark = usePrefers('(prefers-color-scheme: dark)');
  const reducedMotion = usePrefers('(prefers-reduced-motion: reduce)');
  const theme: GraphTheme = resolveTheme(props.theme, prefersDark);

  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const scene = useMemo<Scene>(() => buildScene(model, radiiFor(model)), [model]);
  const f = useFrame(theme);
  const [tip, setTip] = useState<Tip | null>(null);
  const hideTip = useCallback(() => setTip(null), []);
  const canvas = useGraphCanvas(f, canvasRef, wrapRef, hideTip);
  const { draw, requestDraw, fit, zoomBy } = canvas;
  const [resetKey, setResetKey] = useState(0);
  const { ready, error: layoutError } = useGraphLayout(f, model, scene, canvas, { layout: props.layout, reducedMotion, onLayout: props.onLayout, resetKey });
  // The frame reads the theme from f.theme: a new theme only needs a redraw.
  useEffect(() => requestDraw(), [theme, requestDraw]);
  const drawn = usePictures(f, props.thumbnails, requestDraw);

  useImperativeHandle(
    props.ref,
    () => ({
      redraw: draw,
      getTransform: () => ({ k: f.transform.k, x: f.transform.x, y: f.transform.y }),
      setTransform: (t) => {
        const c = canvasRef.current;
        f.transform = zoomIdentity.translate(t.x, t.y).scale(t.k);
        if (c && f.zoom) select(c).property('__zoom', f.transform);
      },
      fit,
      screenPosition: (nodeId) => {
        const i = f.scene?.index.get(nodeId);
        return i === undefined ? null : screenOf(f, i);
      },
    }),
    [f, draw, fit],
  );

  const showTip = (i: number) => {
    const at = f.scene ? screenOf(f, i) : null;
    setTip(at && f.scene ? placeTip(f.scene.model.nodes[i], at.x, at.y, f.size.w, f.size.h) : null);
  };

  /** The node under the pointer, or -1. */
  const nodeAt = (ev: React.PointerEvent<HTMLCanvasElement> | React.MouseEvent<HTMLCanvasElement>): number => {
    if (!f.hit) return -1;
    const rect = ev.currentTarget.getBoundingClientRect();
    const [x, y] = f.transform.invert([ev.clientX - rect.left, ev.clientY - rect.top]);
    return hitTest(f.hit, x, y, 4 / f.transform.k);
  };
  const onPointerMove = (ev: React.PointerEvent<HTMLCanvasElement>) => {
    if (!f.hit || ev.buttons) return;
    const i = nodeAt(ev);
    if (i === f.hovered) return;
    f.hovered = i;
    ev.currentTarget.style.cursor = i >= 0 ? 'pointer' : 'grab';
    showTip(i);
    requestDraw();
  };
  const onPointerLeave = () => {
    f.hovered = -1;
    if (f.focused < 0) setTip(null);
    requestDraw();
  };
  const onClick = (ev: React.MouseEvent<HTMLCanvasElement>) => {
    if (!f.hit || !f.scene) return;
    const i = nodeAt(ev);
    const memoryId = i >= 0 ? f.scene.model.nodes[i].memoryId : undefined;
    if (memoryId) onOpen(memoryId);
  };

  // Keyboard proxies: focusing one highlights its node and brings it into view.
  const focusNode = (i: number) => {
    f.focused = i;
    const p = f.positions;
    const c = canvasRef.current;
    if (p && c && f.zoom && i >= 0 && i * 2 < p.length) {
      const { w, h } = f.size;
      const t = f.transform;
      const b = visibleBounds(t, w, h, -40 / t.k);
      if (!circleInBounds(b, p[2 * i], p[2 * i + 1], 0)) {
        const k = Math.max(t.k, 0.9);
        select(c).call(f.zoom.transform, zoomIdentity.translate(w / 2 - p[2 * i] * k, h / 2 - p[2 * i + 1] * k).scale(k));
      }
    }
    showTip(i);
    requestDraw();
  };
  const blurNode = () => {
    f.focused = -1;
    setTip(null);
    requestDraw();
  };

  const height = props.height ?? 520;
  return (
    <div
      className={`recall-graph recall-graph--${theme.name} ${props.className ?? ''}`}
      data-testid="recall-graph"
      data-ready={ready ? 'true' : 'false'}
      role="region"
      aria-label={props.label ?? `Recall graph for "${model.nodes[0]?.label ?? ''}"`}
      style={{ background: theme.background, color: theme.text }}
    >
      <div className="recall-graph__stage" style={{ height }}>
        <div ref={wrapRef} className="recall-graph__surface">
          <canvas
            ref={canvasRef}
            aria-hidden="true"
            onPointerMove={onPointerMove}
            onPointerLeave={onPointerLeave}
            onClick={onClick}
          />
        </div>
        {tip && <Tooltip tip={tip} theme={theme} />}
        {layoutError && (
          <p className="recall-graph__error" role="alert">
            The graph could not be laid out: {layoutError}
          </p>
        )}
      </div>
      <ul className="recall-graph__proxies" role="list" aria-label="Recalled memories">
        {model.nodes.map((node, i) => (
          <li key={node.id}>
            <button
              type="button"
              data-testid={`graph-node-${node.id}`}
              data-kind={node.kind}
              data-found={node.found?.by}
              data-hop={Number.isFinite(node.hop) ? node.hop : undefined}
              data-picture={node.picture ? (node.memoryId && drawn.has(node.memoryId) ? 'drawn' : 'loading') : undefined}
              aria-label={nodeAriaLabel(node)}
              aria-disabled={node.memoryId === undefined ? true : undefined}
              onFocus={() => focusNode(i)}
              onBlur={blurNode}
              onClick={() => node.memoryId && onOpen(node.memoryId)}
              onKeyDown={(ev) => {
                if (ev.key === 'Escape') {
                  ev.preventDefault();
                  onEscape?.();
                }
              }}
            >
              {node.label}
            </button>
          </li>
        ))}
      </ul>
      {/* Below the drawing, so neither the controls nor the key ever cover a node; after the node
          proxies, so Tab reaches the memories first. */}
      <div className="recall-graph__bar" style={{ borderTopColor: theme.tooltipBorder }}>
        <div className="recall-graph__controls" role="group" aria-label="Graph view">
          <button type="button" data-testid="graph-zoom-out" aria-label="Zoom out" title="Zoom out" onClick={() => zoomBy(1 / 1.3)}>
            −
          </button>
          <button type="button" data-testid="graph-zoom-in" aria-label="Zoom in" title="Zoom in" onClick={() => zoomBy(1.3)}>
            +
          </button>
          <button type="button" data-testid="graph-fit" aria-label="Fit to view" title="Fit everything in view" onClick={fit}>
            Fit
          </button>
          <button
            type="button"
            data-testid="graph-reset"
            aria-label="Reset the layout"
            title="Lay the graph out afresh (moved nodes go back) and fit it"
            onClick={() => setResetKey((k) => k + 1)}
          >
            Reset
          </button>
        </div>
        {showLegend && <Legend theme={theme} model={model} />}
      </div>
    </div>
  );
}


/**
 * Decodes the thumbnails (createImageBitmap) into the frame's pictures and redraws; a thumbnail
 * that cannot be decoded leaves its node plain. Returns the memory ids whose picture is ready.
 */
function usePictures(f: Frame, thumbnails: ReadonlyMap<string, Blob> | undefined, requestDraw: () => void): ReadonlySet<string> {
  const [ready, setReady] = useState<ReadonlySet<string>>(() => new Set());
  useEffect(() => {
    let live = true;
    const made: ImageBitmap[] = [];
    const entries = [...(thumbnails ?? new Map<string, Blob>())];
    void Promise.all(
      entries.map(async ([id, blob]) => {
        try {
          const bmp = await createImageBitmap(blob);
          if (!live) return bmp.close();
          made.push(bmp);
          f.pictures.set(id, bmp);
        } catch {
          // not drawable: the node keeps its colour and shape
        }
      }),
    ).then(() => {
      if (!live) return;
      setReady(new Set(f.pictures.keys()));
      requestDraw();
    });
    return () => {
      live = false;
      for (const id of entries.map(([k]) => k)) f.pictures.delete(id);
      for (const b of made) b.close();
    };
  }, [f, thumbnails, requestDraw]);
  return ready;
}
