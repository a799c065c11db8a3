import { describe, expect, it } from 'vitest';
import { buildGraphModel } from './model';
import { radiiFor } from './geometry';
import { computeLayout, layoutRequestFor } from './layout';

const model = buildGraphModel({
  query: 'q',
  results: [
    ...Array.from({ length: 20 }, (_, i) => ({ id: `s${i}`, label: `S${i}`, score: 0.5, mode: 'standard' as const, tags: [] })),
    { id: 'l', label: 'L', score: 0.6, mode: 'lateral', tags: [] },
    { id: 'c', label: 'C', score: 0.3, mode: 'associative', tags: [], chain: [{ id: 'a', hop: 1, cosine: 0.8 }, { id: 'b', hop: 2, cosine: 0.8 }] },
  ],
});

describe('computeLayout', () => {
  it('pins the query at the origin and returns finite positions, deterministically', () => {
    const req = layoutRequestFor(model, radiiFor(model));
    const a = computeLayout(req);
    expect(a.positions).toHaveLength(model.nodes.length * 2);
    expect([a.positions[0], a.positions[1]]).toEqual([0, 0]);
    expect(a.positions.every(Number.isFinite)).toBe(true);
    expect(a.warm).toBe(false);
    expect(Array.from(computeLayout(req).positions)).toEqual(Array.from(a.positions));
  });

  it('places the lateral hit further out than the average standard hit', () => {
    const { positions } = computeLayout(layoutRequestFor(model, radiiFor(model)));
    const dist = (id: string) => {
      const i = model.nodes.findIndex((n) => n.id === id);
      return Math.hypot(positions[2 * i], positions[2 * i + 1]);
    };
    const std = Array.from({ length: 20 }, (_, i) => dist(`m:s${i}`)).reduce((s, d) => s + d, 0) / 20;
    expect(dist('m:l')).toBeGreaterThan(std);
  });

  it('warm-starts from previous positions: known nodes barely move, new ones land nearby', () => {
    const first = computeLayout(layoutRequestFor(model, radiiFor(model)));
    const prev = new Map<string, [number, number]>();
    model.nodes.forEach((n, i) => prev.set(n.id, [first.positions[2 * i], first.positions[2 * i + 1]]));
    const grown = buildGraphModel({
      query: 'q',
      results: [
        ...Array.from({ length: 20 }, (_, i) => ({ id: `s${i}`, label: `S${i}`, score: 0.5, mode: 'standard' as const, tags: [] })),
        { id: 'l', label: 'L', score: 0.6, mode: 'lateral', tags: [] },
        { id: 'c', label: 'C', score: 0.3, mode: 'associative', tags: [], chain: [{ id: 'a', hop: 1, cosine: 0.8 }, { id: 'b', hop: 2, cosine: 0.8 }] },
        { id: 'new', label: 'N', score: 0.5, mode: 'standard', tags: [] },
      ],
    });
    const second = computeLayout(layoutRequestFor(grown, radiiFor(grown), prev));
    expect(second.warm).toBe(true);
    expect(second.ticks).toBeLessThan(first.ticks);
    let moved = 0;
    model.nodes.forEach((n, i) => {
      const j = grown.nodes.findIndex((g) => g.id === n.id);
      moved += Math.hypot(second.positions[2 * j] - first.positions[2 * i], second.positions[2 * j + 1] - first.positions[2 * i + 1]);
    });
    expect(moved / model.nodes.length).toBeLessThan(25);
  });

  it('stops at the tick budget', () => {
    const r = computeLayout({ ...layoutRequestFor(model, radiiFor(model)), maxTicks: 5 });
    expect(r.ticks).toBe(5);
  });
});
