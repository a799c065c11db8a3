import { describe, expect, it } from 'vitest';
import { buildGraphModel } from './model';
import { chooseSpot, clampInside, labelPlan, labelSpots } from './labels';

describe('labelPlan: who is always named', () => {
  const model = buildGraphModel({
    query: 'why did my bread not rise',
    results: [
      { id: 'a', label: 'A', score: 0.9, mode: 'standard', tags: ['t'] },
      { id: 'b', label: 'B', score: 0.5, mode: 'standard', tags: [] },
      { id: 'c', label: 'C', score: 0.7, mode: 'lateral', tags: [] },
      { id: 'd', label: 'D', score: 0.2, mode: 'standard', tags: [] },
      { id: 'e', label: 'E', score: 0.8, mode: 'standard', tags: [] },
      // a chain a -> x -> z: z is its end, x a middle step
      { id: 'z', label: 'Z', score: 0.1, mode: 'associative', tags: [], chain: [{ id: 'a', hop: 0, cosine: 0.5 }, { id: 'x', hop: 1, cosine: 0.8 }, { id: 'z', hop: 2, cosine: 0.8 }] },
    ],
    labels: { x: 'X' },
    showTags: true,
  });
  const plan = labelPlan(model);
  const named = model.nodes.filter((_, i) => plan.important[i]).map((n) => n.label).sort();

  it('names the query, the three best direct hits (standard or lateral) and the chain ends', () => {
    // best direct: a 0.9, e 0.8, c 0.7 (lateral); b 0.5 and d 0.2 are not; x is a middle step
    expect(named).toEqual(['A', 'C', 'E', 'Z', 'why did my bread not rise']);
  });

  it('orders the important first, then by score, tags last', () => {
    const order = plan.order.map((i) => model.nodes[i].label);
    expect(order[0]).toBe('why did my bread not rise');
    expect(order.slice(1, 5)).toEqual(['A', 'E', 'C', 'Z']);
    expect(order.slice(5)).toEqual(['B', 'D', 'X', '#t']);
  });
});

describe('placing a label', () => {
  it('tries right, left, below, above (the query below, then above)', () => {
    expect(labelSpots(100, 50, 10, 40, false)).toEqual([[115, 50], [45, 50], [80, 72], [80, 28]]);
    expect(labelSpots(100, 50, 10, 40, true)).toEqual([[80, 80], [80, 20]]);
  });

  it('never leaves the canvas (4 px margin)', () => {
    expect(clampInside(780, 50, 40, 8, 800, 600)).toEqual([756, 50]);
    expect(clampInside(-30, 2, 40, 8, 800, 600)).toEqual([4, 12]);
    expect(clampInside(100, 599, 40, 8, 800, 600)).toEqual([100, 588]);
  });

  it('takes the first free spot; an ordinary label with none is left out, an important one drawn anyway', () => {
    const spots: [number, number][] = [[100, 50], [20, 50]];
    const blockRight = [95, 40, 160, 60]; // covers the first spot
    expect(chooseSpot(spots, 40, 8, 800, 600, blockRight, false)).toEqual([20, 50]);
    const blockBoth = [...blockRight, 10, 40, 70, 60];
    expect(chooseSpot(spots, 40, 8, 800, 600, blockBoth, false)).toBeNull();
    expect(chooseSpot(spots, 40, 8, 800, 600, blockBoth, true)).toEqual([100, 50]);
  });
});
