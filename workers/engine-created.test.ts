// The divergence's time index kept in place (engine-created.ts) against the pass over every
// memory it replaced and a fresh build, after random sequences of captures, edits (time moved or
// kept), deletes and re-adds, with ties, NaN and infinite times.
import { describe, expect, it } from 'vitest';
import { seededUniform } from '../src/core/features/hash';
import { CreatedIndex, createdBetween } from './engine-created';

const H = 3_600_000;

/** The pass over every memory (what the recent window did before the index): meta's order. */
function reference(meta: Map<string, { createdAt: number }>, since: number, now: number): string[] {
  const out: string[] = [];
  meta.forEach((m, id) => {
    if (m.createdAt < since || m.createdAt > now) return;
    out.push(id);
  });
  return out;
}

describe('the time index kept in place', () => {
  it('equals the pass over meta and a fresh build after random captures, edits, deletes and re-adds', () => {
    for (const seed of [1, 2, 3, 4]) {
      const rand = seededUniform(seed);
      const time = () => {
        const u = rand();
        return u < 0.03 ? NaN : u < 0.05 ? Infinity : u < 0.07 ? -Infinity : Math.floor(rand() * 48) * H; // whole hours: many ties
      };
      const meta = new Map<string, { createdAt: number }>();
      for (let i = 0; i < 200; i++) meta.set(`m${i}`, { createdAt: time() });
      const owner = { version: 0 };
      createdBetween(owner, meta, 0, 48 * H);
      let next = 200;
      let compared = 0;
      for (let step = 0; step < 150; step++) {
        // one to three writes, then a query (the engine bumps the version with each)
        for (let w = 1 + Math.floor(rand() * 3); w > 0; w--) {
          const ids = [...meta.keys()];
          const id = ids[Math.floor(rand() * ids.length)];
          const u = rand();
          if (u < 0.35) meta.set(`m${next++}`, { createdAt: time() }); // a capture
          else if (u < 0.55) meta.set(id, { createdAt: time() }); // an edit moving its time
          else if (u < 0.7) meta.set(id, { createdAt: meta.get(id)!.createdAt }); // an edit keeping it
          else if (u < 0.9) meta.delete(id);
          else {
            const m = meta.get(id)!;
            meta.delete(id);
            meta.set(id, m); // a re-add: last in meta's order
          }
          owner.version++;
        }
        const since = rand() < 0.05 ? NaN : Math.floor(rand() * 50 - 2) * H;
        const now = rand() < 0.05 ? NaN : since + Math.floor(rand() * 30) * H;
        const want = reference(meta, since, now);
        expect(createdBetween(owner, meta, since, now)).toEqual(want);
        expect(new CreatedIndex(owner.version, meta).between(since, now)).toEqual(want);
        compared += want.length;
      }
      expect(compared).toBeGreaterThan(1000); // the windows were not empty
    }
  });

  it('is updated in place: a capture adds one row, a delete leaves a dead one, a quarter dead builds afresh', () => {
    const meta = new Map<string, { createdAt: number }>();
    for (let i = 0; i < 100; i++) meta.set(`m${i}`, { createdAt: i * H });
    const t = new CreatedIndex(0, meta);
    meta.set('new', { createdAt: 50.5 * H });
    expect(t.update(1)).toBe(true);
    expect([t.size, t.between(50 * H, 51 * H)]).toEqual([101, ['m50', 'm51', 'new']]);
    for (let i = 0; i < 25; i++) meta.delete(`m${i}`);
    expect(t.update(2)).toBe(true); // 25 dead of 101
    expect(t.between(0, 30 * H)).toEqual(['m25', 'm26', 'm27', 'm28', 'm29', 'm30']);
    meta.delete('m25');
    expect(t.update(3)).toBe(false); // 26 dead of 101: the caller builds a fresh one
  });

  it('a new meta map (a new load) builds a new index; an unchanged version reads the same one', () => {
    const owner = { version: 5 };
    const a = new Map([['x', { createdAt: H }]]);
    expect(createdBetween(owner, a, 0, 2 * H)).toEqual(['x']);
    a.set('y', { createdAt: H }); // not told (same version): the index is what the engine last said
    expect(createdBetween(owner, a, 0, 2 * H)).toEqual(['x']);
    const b = new Map([['z', { createdAt: H }]]);
    expect(createdBetween(owner, b, 0, 2 * H)).toEqual(['z']);
  });
});
