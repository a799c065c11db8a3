// Graph lab: renders <RecallGraph> with synthetic models of ?n= nodes and exposes a small bench
// API on window for scripts/bench/graph.ts and e2e/graph.spec.ts.
import { StrictMode, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { buildGraphModel } from '../ui/graph/model';
import { RecallGraph, type LayoutInfo, type RecallGraphHandle } from '../ui/graph/RecallGraph';
import type { ThemePreference } from '../ui/graph/theme';
import { syntheticInput } from './synthetic';
import './lab.css';

export interface GraphBench {
  /** Model -> positions of the first layout, ms; null until it is done. */
  layoutMs: number | null;
  layoutTicks: number | null;
  /** The simulation alone, without the worker round trip. */
  layoutComputeMs: number | null;
  layoutSource: string | null;
  nodes: number;
  /** Draw time (ms) of each of `count` frames of continuous pan / zoom redraw. */
  frameTimes(count?: number): Promise<number[]>;
  /** rAF-to-rAF intervals (ms) of the last frameTimes() run. */
  lastIntervals: number[];
  /** Where a node is drawn, relative to the canvas (for e2e clicks and hovers). */
  screenPosition(nodeId: string): { x: number; y: number } | null;
}

declare global {
  interface Window {
    __graphBench: GraphBench;
  }
}

const params = new URLSearchParams(location.search);
const n = Math.max(2, Math.min(20_000, Number(params.get('n')) || 200));
const initialTheme = (params.get('theme') as ThemePreference | null) ?? 'system';
const forceMainThread = params.get('worker') === '0';

const bench: GraphBench = {
  layoutMs: null,
  layoutTicks: null,
  layoutComputeMs: null,
  layoutSource: null,
  nodes: 0,
  lastIntervals: [],
  frameTimes: () => Promise.reject(new Error('the graph is not ready yet')),
  screenPosition: () => null,
};
window.__graphBench = bench;

function Lab() {
  const [theme, setTheme] = useState<ThemePreference>(initialTheme);
  const [depth, setDepth] = useState<1 | 2 | 3>(3);
  const [showTags, setShowTags] = useState(params.get('tags') === '1');
  const [opened, setOpened] = useState<string | null>(null);
  const search = useRef<HTMLInputElement>(null);
  const graph = useRef<RecallGraphHandle>(null);
  const model = useMemo(() => buildGraphModel({ ...syntheticInput(n, { showTags }), depth }), [depth, showTags]);
  bench.nodes = model.nodes.length;

  bench.screenPosition = (id) => graph.current?.screenPosition(id) ?? null;
  bench.frameTimes = (count = 60) =>
    new Promise((resolve, reject) => {
      const g = graph.current;
      if (!g) return reject(new Error('the graph is not mounted'));
      const base = g.getTransform();
      const times: number[] = [];
      const intervals: number[] = [];
      let last = performance.now();
      let i = 0;
      const step = () => {
        const now = performance.now();
        if (i > 0) intervals.push(now - last);
        last = now;
        // Pan in a circle while zooming in and out around the fitted view.
        const a = (i / count) * Math.PI * 2;
        const k = base.k * (1 + 0.6 * Math.sin(a));
        g.setTransform({ k, x: base.x + 120 * Math.cos(a), y: base.y + 80 * Math.sin(a) });
        times.push(g.redraw());
        if (++i < count) requestAnimationFrame(step);
        else {
          g.setTransform(base);
          g.redraw();
          bench.lastIntervals = intervals;
          resolve(times);
        }
      };
      requestAnimationFrame(step);
    });

  const onLayout = (info: LayoutInfo) => {
    if (bench.layoutMs === null) {
      bench.layoutMs = info.ms;
      bench.layoutTicks = info.ticks;
      bench.layoutComputeMs = info.computeMs;
      bench.layoutSource = info.source;
    }
    const el = document.querySelector('[data-testid="graph-lab-layout"]');
    if (el) el.textContent = `layout ${info.ms.toFixed(0)} ms · ${info.ticks} ticks · ${info.source}${info.warm ? ' · warm' : ''}`;
  };

  return (
    <main className={`lab lab--${theme}`}>
      <header className="lab__bar">
        <h1>Recall graph lab</h1>
        <label>
          Theme{' '}
          <select value={theme} onChange={(e) => setTheme(e.target.value as ThemePreference)}>
            <option value="system">System</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
        <label>
          Depth{' '}
          <select value={depth} onChange={(e) => setDepth(Number(e.target.value) as 1 | 2 | 3)}>
            <option value={1}>1</option>
            <option value={2}>2</option>
            <option value={3}>3</option>
          </select>
        </label>
        <label>
          <input type="checkbox" checked={showTags} onChange={(e) => setShowTags(e.target.checked)} /> Tags
        </label>
        <span data-testid="graph-lab-count">{model.nodes.length}</span>&nbsp;nodes
        <span className="lab__muted" data-testid="graph-lab-layout">laying out…</span>
      </header>
      <div className="lab__search">
        <input ref={search} type="search" aria-label="Search memories" data-testid="graph-lab-search" defaultValue="how did we speed up database indexing?" />
        <p role="status" data-testid="graph-lab-status">{opened ? `opened ${opened}` : 'Tab into the graph, Enter opens, Escape comes back here.'}</p>
      </div>
      <RecallGraph
        ref={graph}
        model={model}
        theme={theme}
        height="calc(100vh - 120px)"
        onOpen={setOpened}
        onEscape={() => search.current?.focus()}
        onLayout={onLayout}
        layout={{ forceMainThread }}
      />
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Lab />
  </StrictMode>,
);
