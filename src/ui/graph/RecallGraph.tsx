// <RecallGraph>: what was recalled and why, drawn on a canvas. Layout runs in a worker; the
// canvas is redrawn at most once per animation frame; a hidden list of buttons mirrors the nodes
// for keyboards and screen readers.
import { useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import { drag as d3drag, easeCubicOut, select, zoom as d3zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3';
import { fmt, kindName, nodeAriaLabel, type GraphModel, type GraphNode } from './model';
import { radiiFor } from './geometry';
import { buildScene, drawFrame, type Scene, type Transform } from './draw';
import { buildHitIndex, hitTest, moveInIndex, visibleBounds, circleInBounds, type HitIndex } from './hitTest';
import { computeLayout, layoutRequestFor } from './layout';
import { createLayoutRunner, type LayoutRunner, type LayoutSource } from '../../bridge/layout-bridge';
import { resolveTheme, type GraphTheme, type ThemePreference } from './theme';
import { Legend } from './Legend';
import './recall-graph.css';

export interface LayoutInfo {
  /** Model handed over -> positions ready, in ms (includes the worker round trip). */
  ms: number;
  /** The force simulation alone (inside the worker, or on the main thread), ms. */
  computeMs: number;
  ticks: number;
  source: LayoutSource;
  nodes: number;
  warm: boolean;
}

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
  layout?: { maxTicks?: number; timeBudgetMs?: number; forceMainThread?: boolean };
  ref?: Ref<RecallGraphHandle>;
}

const usePrefers = (query: string): boolean => {
  const get = () => typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
  const [v, setV] = useState(get);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const mq = window.matchMedia(query);
    const on = () => setV(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, [query]);
  return v;
};

interface Tip {
  node: GraphNode;
  x: number;
  y: number;
}

export function RecallGraph(props: RecallGraphProps) {
  const { model, onOpen, onEscape, showLegend = true } = props;
  const prefersDark = usePrefers('(prefers-color-scheme: dark)');
  const reducedMotion = usePrefers('(prefers-reduced-motion: reduce)');
  const theme: GraphTheme = resolveTheme(props.theme, prefersDark);

  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const scene = useMemo<Scene>(() => buildScene(model, radiiFor(model)), [model]);

  // Mutable frame state lives in refs: redraws must not go through React.
  const pos = useRef<Float32Array | null>(null);
  const posScene = useRef<Scene | null>(null);
  const hit = useRef<HitIndex | null>(null);
  const transform = useRef<ZoomTransform>(zoomIdentity);
  const size = useRef({ w: 0, h: 0, dpr: 1 });
  const hovered = useRef(-1);
  const focused = useRef(-1);
  const themeRef = useRef(theme);
  themeRef.current = theme;
  const zoomRef = useRef<ZoomBehavior<HTMLCanvasElement, unknown> | null>(null);
  const frame = useRef(0);
  const fitted = useRef(false);
  const previous = useRef(new Map<string, [number, number]>());
  const runner = useRef<LayoutRunner | null>(null);
  const [tip, setTip] = useState<Tip | null>(null);
  const [ready, setReady] = useState(false);
  const [layoutError, setLayoutError] = useState<string | null>(null);
  const onLayoutRef = useRef(props.onLayout);
  onLayoutRef.current = props.onLayout;

  const draw = useCallback((): number => {
    const canvas = canvasRef.current;
    const p = pos.current;
    const sc = posScene.current;
    if (!canvas || !p || !sc) return 0;
    const ctx = canvas.getContext('2d', { alpha: false });
    if (!ctx) return 0;
    const t0 = performance.now();
    drawFrame(ctx, {
      scene: sc,
      positions: p,
      transform: transform.current,
      width: size.current.w,
      height: size.current.h,
      dpr: size.current.dpr,
      theme: themeRef.current,
      hovered: hovered.current,
      focused: focused.current,
    });
    return performance.now() - t0;
  }, []);

  const requestDraw = useCallback(() => {
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      draw();
    });
  }, [draw]);

  const fit = useCallback(() => {
    const p = pos.current;
    const canvas = canvasRef.current;
    const z = zoomRef.current;
    if (!p || !canvas || !z || p.length === 0) return;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let i = 0; i < p.length; i += 2) {
      x0 = Math.min(x0, p[i]); x1 = Math.max(x1, p[i]);
      y0 = Math.min(y0, p[i + 1]); y1 = Math.max(y1, p[i + 1]);
    }
    const { w, h } = size.current;
    const pad = 60;
    const k = Math.max(0.05, Math.min(1.6, Math.min((w - 2 * pad) / Math.max(1, x1 - x0), (h - 2 * pad) / Math.max(1, y1 - y0))));
    const t = zoomIdentity.translate(w / 2 - ((x0 + x1) / 2) * k, h / 2 - ((y0 + y1) / 2) * k).scale(k);
    select(canvas).call(z.transform, t);
  }, []);

  useImperativeHandle(
    props.ref,
    () => ({
      redraw: draw,
      getTransform: () => ({ k: transform.current.k, x: transform.current.x, y: transform.current.y }),
      setTransform: (t) => {
        const canvas = canvasRef.current;
        const z = zoomRef.current;
        transform.current = zoomIdentity.translate(t.x, t.y).scale(t.k);
        if (canvas && z) select(canvas).property('__zoom', transform.current);
      },
      fit,
      screenPosition: (nodeId) => {
        const sc = posScene.current;
        const p = pos.current;
        const i = sc?.index.get(nodeId);
        if (!p || i === undefined) return null;
        const t = transform.current;
        return { x: p[2 * i] * t.k + t.x, y: p[2 * i + 1] * t.k + t.y };
      },
    }),
    [draw, fit],
  );

  // Canvas size follows the container; devicePixelRatio keeps it sharp on HiDPI screens.
  useEffect(() => {
    const wrap = wrapRef.current;
    const canvas = canvasRef.current;
    if (!wrap || !canvas) return;
    const resize = () => {
      const rect = wrap.getBoundingClientRect();
      const dpr = Math.max(1, Math.min(3, window.devicePixelRatio || 1));
      size.current = { w: rect.width, h: rect.height, dpr };
      canvas.width = Math.round(rect.width * dpr);
      canvas.height = Math.round(rect.height * dpr);
      canvas.style.width = `${rect.width}px`;
      canvas.style.height = `${rect.height}px`;
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
  }, [requestDraw]);

  // Zoom / pan (d3-zoom) and node drag (d3-drag); drag is registered first so it wins on a node.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const toWorld = (ev: { clientX: number; clientY: number }): [number, number] => {
      const rect = canvas.getBoundingClientRect();
      return transform.current.invert([ev.clientX - rect.left, ev.clientY - rect.top]);
    };
    const slop = () => 4 / transform.current.k;
    const z = d3zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([0.03, 8])
      .on('zoom', (ev: { transform: ZoomTransform }) => {
        transform.current = ev.transform;
        setTip(null);
        requestDraw();
      });
    zoomRef.current = z;
    const dr = d3drag<HTMLCanvasElement, unknown, { i: number }>()
      .container(canvas)
      .subject((ev: { sourceEvent: MouseEvent }) => {
        const idx = hit.current;
        if (!idx) return undefined as unknown as { i: number };
        const [x, y] = toWorld(ev.sourceEvent);
        const i = hitTest(idx, x, y, slop());
        // No subject = no drag gesture, so the event falls through to d3-zoom (pan).
        const subject = i >= 0 ? { i, x: idx.positions[2 * i], y: idx.positions[2 * i + 1] } : undefined;
        return subject as { i: number };
      })
      .on('drag', (ev: { subject: { i: number }; sourceEvent: MouseEvent }) => {
        const idx = hit.current;
        if (!idx) return;
        const [x, y] = toWorld(ev.sourceEvent);
        moveInIndex(idx, ev.subject.i, x, y);
        const id = posScene.current?.model.nodes[ev.subject.i]?.id;
        if (id) previous.current.set(id, [x, y]);
        setTip(null);
        requestDraw();
      });
    select(canvas).call(dr).call(z).on('dblclick.zoom', null);
    return () => {
      select(canvas).on('.zoom', null).on('.drag', null);
    };
  }, [requestDraw]);

  // Layout whenever the model changes, warm-started from the previous positions.
  useEffect(() => {
    if (!runner.current) runner.current = createLayoutRunner({ fallback: computeLayout, forceMainThread: props.layout?.forceMainThread });
    let cancelled = false;
    let anim = 0;
    const t0 = performance.now();
    const req = layoutRequestFor(model, scene.radii, previous.current);
    req.maxTicks = props.layout?.maxTicks;
    req.timeBudgetMs = props.layout?.timeBudgetMs;
    runner.current
      .run(req)
      .then((res) => {
        if (cancelled) return; // a newer model is being laid out
        const ms = performance.now() - t0;
        const target = res.positions;
        const from = previous.current;
        const next = new Map<string, [number, number]>();
        model.nodes.forEach((nd, i) => next.set(nd.id, [target[2 * i], target[2 * i + 1]]));
        previous.current = next;
        posScene.current = scene;
        hovered.current = -1;
        focused.current = Math.min(focused.current, model.nodes.length - 1);
        const finish = () => {
          pos.current = target;
          hit.current = buildHitIndex(target, scene.radii);
          if (!fitted.current) {
            fitted.current = true;
            fit();
          }
          requestDraw();
        };
        onLayoutRef.current?.({ ms, computeMs: res.ms, ticks: res.ticks, source: res.source, nodes: model.nodes.length, warm: res.warm });
        setReady(true);
        setLayoutError(null);
        if (reducedMotion || from.size === 0) {
          finish(); // no animated settle: compute, then draw once
          return;
        }
        // Glide from the old positions to the new ones (new nodes grow out of the query).
        const start = new Float32Array(target.length);
        model.nodes.forEach((nd, i) => {
          const old = from.get(nd.id);
          start[2 * i] = old ? old[0] : 0;
          start[2 * i + 1] = old ? old[1] : 0;
        });
        const cur = new Float32Array(target.length);
        pos.current = cur;
        const began = performance.now();
        const step = () => {
          const e = easeCubicOut(Math.min(1, (performance.now() - began) / 450));
          for (let j = 0; j < cur.length; j++) cur[j] = start[j] + (target[j] - start[j]) * e;
          draw();
          if (e < 1 && !cancelled) anim = requestAnimationFrame(step);
          else if (!cancelled) finish();
        };
        anim = requestAnimationFrame(step);
      })
      .catch((err: unknown) => {
        if (!cancelled) setLayoutError(err instanceof Error ? err.message : String(err));
      });
    return () => {
      cancelled = true;
      cancelAnimationFrame(anim);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [model, scene]);

  useEffect(
    () => () => {
      // Null it too: under StrictMode the effects run again and must get a fresh worker.
      runner.current?.dispose();
      runner.current = null;
    },
    [],
  );
  useEffect(() => requestDraw(), [theme, requestDraw]);

  const showTip = useCallback((i: number) => {
    const sc = posScene.current;
    const p = pos.current;
    if (!sc || !p || i < 0) {
      setTip(null);
      return;
    }
    const t = transform.current;
    // Keep the tooltip inside the graph: it opens to the lower right unless that would overflow.
    const { w, h } = size.current;
    const x = p[2 * i] * t.k + t.x;
    const y = p[2 * i + 1] * t.k + t.y;
    setTip({ node: sc.model.nodes[i], x: x > w - 310 ? x - 320 : x, y: y > h - 150 ? y - 150 : y });
  }, []);

  const onPointerMove = (ev: React.PointerEvent<HTMLCanvasElement>) => {
    const idx = hit.current;
    if (!idx || ev.buttons) return;
    const rect = ev.currentTarget.getBoundingClientRect();
    const [x, y] = transform.current.invert([ev.clientX - rect.left, ev.clientY - rect.top]);
    const i = hitTest(idx, x, y, 4 / transform.current.k);
    if (i === hovered.current) return;
    hovered.current = i;
    ev.currentTarget.style.cursor = i >= 0 ? 'pointer' : 'grab';
    showTip(i);
    requestDraw();
  };
  const onPointerLeave = () => {
    hovered.current = -1;
    if (focused.current < 0) setTip(null);
    requestDraw();
  };
  const onClick = (ev: React.MouseEvent<HTMLCanvasElement>) => {
    const idx = hit.current;
    const sc = posScene.current;
    if (!idx || !sc) return;
    const rect = ev.currentTarget.getBoundingClientRect();
    const [x, y] = transform.current.invert([ev.clientX - rect.left, ev.clientY - rect.top]);
    const i = hitTest(idx, x, y, 4 / transform.current.k);
    const memoryId = i >= 0 ? sc.model.nodes[i].memoryId : undefined;
    if (memoryId) onOpen(memoryId);
  };

  // Keyboard proxies: focusing one highlights its node and brings it into view.
  const focusNode = (i: number) => {
    focused.current = i;
    const p = pos.current;
    const canvas = canvasRef.current;
    const z = zoomRef.current;
    if (p && canvas && z && i >= 0 && i * 2 < p.length) {
      const { w, h } = size.current;
      const t = transform.current;
      const b = visibleBounds(t, w, h, -40 / t.k);
      if (!circleInBounds(b, p[2 * i], p[2 * i + 1], 0)) {
        const k = Math.max(t.k, 0.9);
        select(canvas).call(z.transform, zoomIdentity.translate(w / 2 - p[2 * i] * k, h / 2 - p[2 * i + 1] * k).scale(k));
      }
    }
    showTip(i);
    requestDraw();
  };
  const blurNode = () => {
    focused.current = -1;
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
      style={{ height, background: theme.background, color: theme.text }}
    >
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
      {showLegend && <Legend theme={theme} model={model} />}
      {layoutError && (
        <p className="recall-graph__error" role="alert">
          The graph could not be laid out: {layoutError}
        </p>
      )}
      <ul className="recall-graph__proxies" role="list" aria-label="Recalled memories">
        {model.nodes.map((node, i) => (
          <li key={node.id}>
            <button
              type="button"
              data-testid={`graph-node-${node.id}`}
              data-kind={node.kind}
              data-hop={Number.isFinite(node.hop) ? node.hop : undefined}
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
    </div>
  );
}

function Tooltip({ tip, theme }: { tip: Tip; theme: GraphTheme }) {
  const n = tip.node;
  return (
    <div
      className="recall-graph__tooltip"
      role="presentation"
      style={{
        left: tip.x,
        top: tip.y,
        background: theme.tooltipBg,
        color: theme.tooltipText,
        borderColor: theme.tooltipBorder,
      }}
    >
      <div className="recall-graph__tooltip-kind" style={{ color: theme.node[n.kind] }}>
        {kindName(n.kind)}
        {n.kind !== 'query' && n.kind !== 'tag' && Number.isFinite(n.hop) ? ` · hop ${n.hop}` : ''}
      </div>
      <div className="recall-graph__tooltip-label">{n.label}</div>
      {n.score !== undefined && <div>score {fmt(n.score)}</div>}
      {n.detail && <div>{n.detail}</div>}
      {n.tags.length > 0 && <div className="recall-graph__tooltip-tags">{n.tags.map((t) => `#${t}`).join(' ')}</div>}
      {n.memoryId && <div className="recall-graph__tooltip-hint">Click or press Enter to open</div>}
    </div>
  );
}
