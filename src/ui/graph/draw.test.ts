import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildGraphModel } from './model';
import { radiiFor } from './geometry';
import { drawFrame, LABEL_ZOOM, truncate, type FrameState } from './draw';
import { buildScene } from './scene';
import { LIGHT } from './theme';

/** A 2D context that records calls and draws nothing. */
function fakeContext() {
  const calls: Record<string, number> = {};
  const texts: string[] = [];
  const ctx = new Proxy({} as Record<string, unknown>, {
    get(target, prop: string) {
      if (prop in target) return target[prop];
      if (prop === 'measureText') return (s: string) => ({ width: s.length * 6 });
      return (...args: unknown[]) => {
        calls[prop] = (calls[prop] ?? 0) + 1;
        if (prop === 'fillText') texts.push(String(args[0]));
      };
    },
    set(target, prop: string, value) {
      target[prop] = value;
      return true;
    },
  });
  return { ctx: ctx as unknown as CanvasRenderingContext2D, calls, texts };
}

class FakeOffscreen {
  constructor(public width: number, public height: number) {}
  getContext() {
    return fakeContext().ctx;
  }
}

afterEach(() => vi.unstubAllGlobals());

// A row of n standard hits, 100 world units apart, plus the query at the origin.
function row(n: number) {
  const model = buildGraphModel({
    query: 'q',
    results: Array.from({ length: n }, (_, i) => ({ id: `m${i}`, label: `Memory ${i}`, score: 1 - i / (n + 1), mode: 'standard' as const, tags: [] })),
  });
  const positions = new Float32Array(model.nodes.length * 2);
  model.nodes.forEach((_, i) => (positions[2 * i] = i * 100));
  return { model, positions, scene: buildScene(model, radiiFor(model)) };
}

function frame(over: Partial<FrameState> & Pick<FrameState, 'scene' | 'positions'>): FrameState {
  return { transform: { k: 1, x: 0, y: 300 }, width: 800, height: 600, dpr: 2, theme: LIGHT, hovered: -1, focused: -1, ...over };
}

describe('drawFrame', () => {
  it('strikes through an earlier version (one line across its node), and nothing else', () => {
    vi.stubGlobal('OffscreenCanvas', FakeOffscreen);
    const draw = (earlier: boolean) => {
      const model = buildGraphModel({
        query: 'q',
        results: [
          { id: 'cur', label: 'Fence: sage green', score: 0.9, mode: 'standard', tags: [] },
          { id: 'old', label: 'Fence: grey', score: 0.8, mode: 'standard', tags: [], ...(earlier ? { earlier: true as const } : {}) },
        ],
      });
      const positions = new Float32Array([0, 0, 100, 0, 200, 0]);
      const { ctx, calls } = fakeContext();
      drawFrame(ctx, frame({ scene: buildScene(model, radiiFor(model)), positions }));
      return calls;
    };
    const plain = draw(false);
    const struck = draw(true);
    expect((struck.lineTo ?? 0) - (plain.lineTo ?? 0)).toBe(1);
    expect((struck.moveTo ?? 0) - (plain.moveTo ?? 0)).toBe(1);
  });

  it('culls nodes and edges outside the viewport', () => {
    vi.stubGlobal('OffscreenCanvas', FakeOffscreen);
    const { scene, positions } = row(30); // x = 0..3000, the view shows x in 0..800
    const { ctx } = fakeContext();
    const stats = drawFrame(ctx, frame({ scene, positions }));
    // Bounds are the view plus a 24 px margin (-24..824); nodes reach r * 1.3 (about 16) beyond
    // their centre: x = 0..800 are in (9 nodes), x = 900 is not (900 - 16 > 824).
    expect(stats.nodesDrawn).toBe(9);
    expect(stats.edgesDrawn).toBe(30); // every spoke starts at the query, inside the view
    const panned = drawFrame(ctx, frame({ scene, positions, transform: { k: 1, x: -1500, y: 300 } }));
    // View 1500..2300, bounds 1476..2324: x = 1500..2300 (9 nodes); 1400 + 16 and 2400 - 16 miss.
    expect(panned.nodesDrawn).toBe(9);
    // The spokes all start at the query (x = 0), whose box still reaches into the view.
    expect(panned.edgesDrawn).toBe(30 - 14);
  });

  it('keeps labels at any zoom on an Explore-sized graph: the important ones always, the rest where they fit', () => {
    vi.stubGlobal('OffscreenCanvas', FakeOffscreen);
    const { scene, positions } = row(100); // 101 nodes, 100 world units apart
    const far = fakeContext();
    // zoomed out to 0.05: nodes 5 px apart, labels about 54 px wide (6 px per character)
    drawFrame(far.ctx, frame({ scene, positions, transform: { k: 0.05, x: 50, y: 300 }, focused: 60 }));
    expect(far.texts).toContain('q');
    expect(far.texts).toContain('Memory 59'); // node 60 is memory 59 (node 0 is the query)
    for (const top of ['Memory 0', 'Memory 1', 'Memory 2']) expect(far.texts).toContain(top); // the top hits are named
    // the rest only where they do not collide: a 5-px-spaced row leaves room for a few
    expect(far.texts.length).toBeGreaterThan(5);
    expect(far.texts.length).toBeLessThan(40);
  });

  it('on a huge graph zoomed out, only the important labels and a few landmarks', () => {
    vi.stubGlobal('OffscreenCanvas', FakeOffscreen);
    const { scene, positions } = row(400);
    const near = fakeContext();
    drawFrame(near.ctx, frame({ scene, positions, transform: { k: LABEL_ZOOM, x: 50, y: 300 } }));
    expect(near.texts).toContain('Memory 0');
    const far = fakeContext();
    drawFrame(far.ctx, frame({ scene, positions, transform: { k: 0.05, x: 50, y: 300 }, focused: 60 }));
    // query, focus, 3 top hits, then at most 14 landmarks
    expect(far.texts.length).toBeLessThanOrEqual(5 + 14);
  });

  it('keeps every label inside the canvas', () => {
    vi.stubGlobal('OffscreenCanvas', FakeOffscreen);
    const { scene, positions } = row(8); // x = 0..800 at k = 1, shifted so the last nodes sit at the right edge
    const rec = fakeContext();
    const xs: number[] = [];
    const ctx = new Proxy(rec.ctx as unknown as Record<string, unknown>, {
      get(target, prop: string) {
        if (prop === 'fillText') return (s: string, x: number) => xs.push(x + s.length * 6);
        return target[prop];
      },
    }) as unknown as CanvasRenderingContext2D;
    drawFrame(ctx, frame({ scene, positions, transform: { k: 1, x: -30, y: 300 }, width: 790 })); // a node at x = 770
    expect(xs.length).toBeGreaterThan(0);
    for (const right of xs) expect(right).toBeLessThanOrEqual(790);
  });

  it('shortens long labels with an ellipsis', () => {
    expect(truncate('a'.repeat(40), 10)).toBe(`${'a'.repeat(9)}…`);
    expect(truncate('  two   words ')).toBe('two words');
  });
});
