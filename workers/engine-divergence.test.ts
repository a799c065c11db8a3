// createdBetween: the recent window's memories from a time-sorted index, checked against the pass
// over every memory it replaced (same ids, same order: meta's), before and after changes.
import { describe, expect, it } from 'vitest';
import { HybridIndex } from '../src/core/hybrid';
import { createdBetween } from './engine-divergence';

const H = 3_600_000;

function reference(meta: Map<string, { createdAt: number }>, since: number, now: number): string[] {
  const out: string[] = [];
  meta.forEach((m, id) => {
    if (m.createdAt < since || m.createdAt > now) return;
    out.push(id);
  });
  return out;
}

describe('createdBetween', () => {
  it("equals the pass over meta, in meta's order, with ties, bounds and NaN times", () => {
    let s = 7;
    const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
    const hybrid = new HybridIndex(2);
    const meta = new Map<string, { createdAt: number }>();
    for (let i = 0; i < 400; i++) meta.set(`m${(i * 7919) % 1000}`, { createdAt: i === 17 ? NaN : Math.floor(rand() * 20) * H });
    for (const [since, now] of [
      [0, 20 * H],
      [5 * H, 7 * H], // both bounds land on ties (whole hours)
      [5.5 * H, 5.7 * H], // nothing inside
      [-10 * H, 0],
      [NaN, 3 * H],
      [2 * H, NaN],
    ]) {
      expect(createdBetween(hybrid, meta, since, now)).toEqual(reference(meta, since, now));
    }
    expect(createdBetween(hybrid, meta, 5 * H, 7 * H).length).toBeGreaterThan(20);
    expect(createdBetween(hybrid, meta, 5.5 * H, 5.7 * H)).toEqual(['m623']); // only the NaN time (i = 17: 17 × 7919 mod 1000 = 623)
    // a change of the index (the engine changes meta with it) rebuilds the sorted view
    meta.set('new', { createdAt: 6 * H });
    meta.delete('m0');
    hybrid.upsert({ id: 'new', text: 'x', tags: [], importance: 0.5, createdAt: 6 * H, validFrom: 6 * H, validTo: null, status: 'active', vector: null });
    expect(createdBetween(hybrid, meta, 5 * H, 7 * H)).toEqual(reference(meta, 5 * H, 7 * H));
    expect(createdBetween(hybrid, meta, 5 * H, 7 * H)).toContain('new');
  });
});
