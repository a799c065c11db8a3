// Lays the graph out whenever the model changes (in the layout worker, warm-started from the
// previous positions) and glides the nodes to their new places unless motion is reduced.
import { useEffect, useRef, useState } from 'react';
import { easeCubicOut } from 'd3';
import type { GraphModel } from './model';
import type { Scene } from './scene';
import { buildHitIndex } from './hitTest';
import { computeLayout, layoutRequestFor } from './layout';
import { createLayoutRunner, type LayoutRunner, type LayoutSource } from '../../bridge/layout-bridge';
import type { Frame } from './frame';
import type { GraphCanvas } from './use-graph-canvas';

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

export interface LayoutOptions {
  maxTicks?: number;
  timeBudgetMs?: number;
  forceMainThread?: boolean;
}

export interface GraphLayoutState {
  /** A layout has been drawn. */
  ready: boolean;
  /** Why the last layout failed (null when it did not). */
  error: string | null;
}

const GLIDE_MS = 450;

export function useGraphLayout(
  f: Frame,
  model: GraphModel,
  scene: Scene,
  canvas: GraphCanvas,
  /** resetKey: a new value lays the graph out afresh (dragged nodes forgotten) and fits it. */
  opts: { layout?: LayoutOptions; reducedMotion: boolean; onLayout?: (info: LayoutInfo) => void; resetKey?: number },
): GraphLayoutState {
  const runner = useRef<LayoutRunner | null>(null);
  const [state, setState] = useState<GraphLayoutState>({ ready: false, error: null });
  const onLayoutRef = useRef(opts.onLayout);
  onLayoutRef.current = opts.onLayout;
  const { draw, requestDraw, fit } = canvas;
  const resetSeen = useRef(opts.resetKey);

  useEffect(() => {
    runner.current ??= createLayoutRunner({ fallback: computeLayout, forceMainThread: opts.layout?.forceMainThread });
    let cancelled = false;
    let anim = 0;
    const t0 = performance.now();
    if (opts.resetKey !== resetSeen.current) {
      resetSeen.current = opts.resetKey;
      f.previous = new Map();
    }
    const req = layoutRequestFor(model, scene.radii, f.previous);
    req.maxTicks = opts.layout?.maxTicks;
    req.timeBudgetMs = opts.layout?.timeBudgetMs;
    runner.current
      .run(req)
      .then((res) => {
        if (cancelled) return; // a newer model is being laid out
        const ms = performance.now() - t0;
        const target = res.positions;
        const from = f.previous;
        const next = new Map<string, [number, number]>();
        model.nodes.forEach((nd, i) => next.set(nd.id, [target[2 * i], target[2 * i + 1]]));
        f.previous = next;
        f.scene = scene;
        f.hovered = -1;
        f.focused = Math.min(f.focused, model.nodes.length - 1);
        const finish = () => {
          f.positions = target;
          f.hit = buildHitIndex(target, scene.radii);
          // every layout ends fitted to its content (a new recall, a control, a reset)
          f.fitted = true;
          fit();
          requestDraw();
        };
        onLayoutRef.current?.({ ms, computeMs: res.ms, ticks: res.ticks, source: res.source, nodes: model.nodes.length, warm: res.warm });
        setState({ ready: true, error: null });
        if (opts.reducedMotion || from.size === 0) {
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
        f.positions = cur;
        const began = performance.now();
        const step = () => {
          const e = easeCubicOut(Math.min(1, (performance.now() - began) / GLIDE_MS));
          for (let j = 0; j < cur.length; j++) cur[j] = start[j] + (target[j] - start[j]) * e;
          draw();
          if (e < 1 && !cancelled) anim = requestAnimationFrame(step);
          else if (!cancelled) finish();
        };
        anim = requestAnimationFrame(step);
      })
      .catch((err: unknown) => {
        // shown over the graph (role="alert"); the runner already fell back to the main thread once
        if (!cancelled) setState((s) => ({ ...s, error: err instanceof Error ? err.message : String(err) }));
      });
    return () => {
      cancelled = true;
      cancelAnimationFrame(anim);
    };
    // Only a new model (and its scene) or a reset starts a layout; options are read as they are then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [model, scene, opts.resetKey]);

  useEffect(
    () => () => {
      // Null it too: under StrictMode the effects run again and must get a fresh worker.
      runner.current?.dispose();
      runner.current = null;
    },
    [],
  );

  return state;
}
