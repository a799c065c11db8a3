import { describe, expect, it } from 'vitest';
import { buildHitIndex, circleInBounds, hitTest, moveInIndex, segmentMayCross, visibleBounds } from './hitTest';

// Three nodes: A at (0,0) r=10, B at (30,0) r=5, C at (100,100) r=20.
const make = () => buildHitIndex(new Float32Array([0, 0, 30, 0, 100, 100]), new Float32Array([10, 5, 20]));

describe('hitTest', () => {
  it('finds the node whose shape contains the point', () => {
    const idx = make();
    expect(hitTest(idx, 0, 0)).toBe(0);
    expect(hitTest(idx, 6, 8)).toBe(0); // distance 10 = radius: on the edge counts
    expect(hitTest(idx, 31, 3)).toBe(1);
    expect(hitTest(idx, 115, 100)).toBe(2); // far from its centre but inside r=20
  });

  it('misses empty space, and slop widens the target', () => {
    const idx = make();
    expect(hitTest(idx, 18, 0)).toBe(-1); // 18 from A (r 10), 12 from B (r 5)
    expect(hitTest(idx, 60, 60)).toBe(-1);
    expect(hitTest(idx, 18, 0, 9)).toBe(1); // A: 18 <= 10 + 9 and B: 12 <= 5 + 9; B is nearer
    expect(hitTest(idx, -18, 0, 9)).toBe(0); // only A is within reach
  });

  it('prefers the nearest centre when shapes overlap', () => {
    const idx = buildHitIndex(new Float32Array([0, 0, 8, 0]), new Float32Array([10, 10]));
    expect(hitTest(idx, 5, 0)).toBe(1);
    expect(hitTest(idx, 3, 0)).toBe(0);
  });

  it('tracks dragged nodes and skips unplaced (NaN) ones', () => {
    const idx = make();
    moveInIndex(idx, 1, -50, -50);
    expect(hitTest(idx, 30, 0)).toBe(-1);
    expect(hitTest(idx, -50, -48)).toBe(1);
    const partial = buildHitIndex(new Float32Array([Number.NaN, Number.NaN, 5, 5]), new Float32Array([10, 2]));
    expect(hitTest(partial, 5, 5)).toBe(1);
    expect(partial.tree.size()).toBe(1);
  });

  it('scales to thousands of nodes (grid of 2,500, every centre hits itself)', () => {
    const n = 2500;
    const pos = new Float32Array(2 * n);
    for (let i = 0; i < n; i++) {
      pos[2 * i] = (i % 50) * 20;
      pos[2 * i + 1] = Math.floor(i / 50) * 20;
    }
    const idx = buildHitIndex(pos, new Float32Array(n).fill(6));
    for (const i of [0, 49, 1234, 2499]) expect(hitTest(idx, pos[2 * i] + 1, pos[2 * i + 1] - 1)).toBe(i);
    expect(hitTest(idx, 10, 10)).toBe(-1); // the gap between four nodes
  });
});

describe('culling', () => {
  it('maps the canvas to world bounds through the zoom transform', () => {
    // k=2, translated by (100, 50): screen (0,0) is world (-50,-25); screen (400,300) is world (150,125).
    expect(visibleBounds({ k: 2, x: 100, y: 50 }, 400, 300)).toEqual({ x0: -50, y0: -25, x1: 150, y1: 125 });
    expect(visibleBounds({ k: 1, x: 0, y: 0 }, 10, 10, 5)).toEqual({ x0: -5, y0: -5, x1: 15, y1: 15 });
  });

  it('keeps circles that touch the viewport and drops the rest', () => {
    const b = { x0: 0, y0: 0, x1: 100, y1: 100 };
    expect(circleInBounds(b, 50, 50, 1)).toBe(true);
    expect(circleInBounds(b, -5, 50, 6)).toBe(true);
    expect(circleInBounds(b, -7, 50, 6)).toBe(false);
    expect(circleInBounds(b, 50, 107, 6)).toBe(false);
  });

  it('keeps segments whose box crosses the viewport', () => {
    const b = { x0: 0, y0: 0, x1: 100, y1: 100 };
    expect(segmentMayCross(b, -50, 50, 150, 50)).toBe(true); // passes through, both ends outside
    expect(segmentMayCross(b, -50, -50, -10, 200)).toBe(false); // entirely left
    expect(segmentMayCross(b, 10, 10, 20, 20)).toBe(true);
  });
});
