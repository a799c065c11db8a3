// Pictures on graph nodes: the model keeps a result's picture, the node says so to a screen reader,
// is drawn large enough to show it, and the frame draws each loaded thumbnail clipped to its node.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildGraphModel, nodeAriaLabel } from './model';
import { nodeRadius, PICTURE_RADIUS, radiiFor } from './geometry';
import { drawFrame } from './draw';
import { buildScene } from './scene';
import { LIGHT } from './theme';

function recorder() {
  const calls: { name: string; args: unknown[] }[] = [];
  const ctx = new Proxy({} as Record<string, unknown>, {
    get(target, prop: string) {
      if (prop in target) return target[prop];
      if (prop === 'measureText') return (s: string) => ({ width: s.length * 6 });
      return (...args: unknown[]) => void calls.push({ name: prop, args });
    },
    set(target, prop: string, value) {
      target[prop] = value;
      return true;
    },
  });
  return { ctx: ctx as unknown as CanvasRenderingContext2D, calls };
}

class FakeOffscreen {
  constructor(public width: number, public height: number) {}
  getContext() {
    return recorder().ctx;
  }
}
afterEach(() => vi.unstubAllGlobals());

const model = () =>
  buildGraphModel({
    query: 'front door',
    results: [
      { id: 'a', label: 'Painted the door', score: 0.2, mode: 'standard', tags: [], picture: { imageId: 'p1', caption: 'the red door' } },
      { id: 'b', label: 'Bought paint', score: 0.9, mode: 'standard', tags: [] },
    ],
  });

describe('pictures on graph nodes', () => {
  it('keeps the picture on the node, names it, and makes the node large enough to show it', () => {
    const m = model();
    const a = m.nodes.find((n) => n.memoryId === 'a')!;
    const b = m.nodes.find((n) => n.memoryId === 'b')!;
    expect(a.picture).toEqual({ imageId: 'p1', caption: 'the red door' });
    expect(nodeAriaLabel(a)).toMatch(/, with a picture: the red door$/);
    expect(nodeAriaLabel(b)).not.toMatch(/picture/);
    expect(nodeRadius(a)).toBe(PICTURE_RADIUS); // score 0.2 alone would give 6 + 1.2
    expect(nodeRadius(b)).toBeCloseTo(6 + 6 * 0.9); // no picture: by its score
  });

  it('draws a loaded thumbnail clipped to a circle inside its node, centred and covering it', () => {
    vi.stubGlobal('OffscreenCanvas', FakeOffscreen);
    const m = model();
    const scene = buildScene(m, radiiFor(m));
    const positions = new Float32Array([0, 0, 100, 0, 200, 0]); // query, a, b
    const bmp = { width: 200, height: 100, close() {} } as unknown as ImageBitmap;
    const { ctx, calls } = recorder();
    const f = { scene, positions, transform: { k: 1, x: 0, y: 300 }, width: 800, height: 600, dpr: 2, theme: LIGHT, hovered: -1, focused: -1 };
    const stats = drawFrame(ctx, { ...f, pictures: new Map([['a', bmp]]) });
    expect(stats.picturesDrawn).toBe(1);
    const draw = calls.find((c) => c.name === 'drawImage' && c.args[0] === bmp)!;
    // node a at (100, 0) world -> (200, 600) device px; radius 15 * 0.82 = 12.3 CSS px = 24.6 device px;
    // the 200x100 picture scaled so its short side covers the circle's 49.2 px: 98.4 x 49.2, centred
    const [, x, y, w, h] = draw.args as number[];
    expect(w).toBeCloseTo(98.4);
    expect(h).toBeCloseTo(49.2);
    expect(x + w / 2).toBeCloseTo(200);
    expect(y + h / 2).toBeCloseTo(600);
    const clip = calls.findIndex((c) => c.name === 'clip');
    expect(clip).toBeGreaterThan(-1);
    expect(clip).toBeLessThan(calls.indexOf(draw));
    // not loaded (or zoomed out so far the node is a few pixels): no picture drawn
    expect(drawFrame(recorder().ctx, f).picturesDrawn).toBe(0);
    expect(drawFrame(recorder().ctx, { ...f, transform: { k: 0.3, x: 0, y: 300 }, pictures: new Map([['a', bmp]]) }).picturesDrawn).toBe(0);
  });
});
