import { describe, expect, it } from 'vitest';
import { DenseStore } from './store';
import { NeighbourLists, type NeighbourEntry } from './neighbours';
import { seededUniform } from '../features/hash';

const deg = (d: number) => Float32Array.of(Math.cos((d * Math.PI) / 180), Math.sin((d * Math.PI) / 180));

/** Seeded numbers in [-0.5, 0.5) (mulberry32, the core's own). */
function rng(seed: number): () => number {
  const next = seededUniform(seed);
  return () => next() - 0.5;
}

/** The walk's cosine (same four-lane summation), recomputed from the store's rows. */
function cos(s: DenseStore, a: number, b: number): number {
  const x = s.vectorAt(a);
  const y = s.vectorAt(b);
  const l = [0, 0, 0, 0];
  const d4 = x.length - (x.length % 4);
  let j = 0;
  for (; j < d4; j += 4) for (let q = 0; q < 4; q++) l[q] += x[j + q] * y[j + q];
  for (; j < x.length; j++) l[0] += x[j] * y[j];
  return l[0] + l[1] + (l[2] + l[3]);
}

/** Brute force: every other memory with cosine >= minCos, cosine desc, id asc. */
function brute(s: DenseStore, owner: string, minCos: number): { id: string; c: number }[] {
  const o = s.slotOf(owner)!;
  const out: { id: string; c: number }[] = [];
  for (let k = 0; k < s.size; k++) {
    if (k === o) continue;
    const c = cos(s, o, k);
    if (c >= minCos) out.push({ id: s.idAt(k), c });
  }
  return out.sort((a, b) => b.c - a.c || (a.id < b.id ? -1 : 1));
}

/** A cached list equals the brute-force order cut at its bound (all of it when complete). */
function expectExact(s: DenseStore, owner: string, e: NeighbourEntry, minCos: number): void {
  const all = brute(s, owner, minCos);
  const want = e.complete ? all : all.filter((x) => x.c > e.boundCos || (x.c === e.boundCos && x.id <= e.boundId));
  expect({ owner, ids: e.ids, cos: e.cos }).toEqual({ owner, ids: want.map((x) => x.id), cos: want.map((x) => x.c) });
}

describe('NeighbourLists kept in step with the store', () => {
  it('hand-worked: a closer vector enters and pushes the last out, a removed one leaves, a short list refills', () => {
    const s = new DenseStore({ dim: 2, encoder: 'e', kernel: 'js' });
    for (const [id, d] of [['a', 0], ['b', 10], ['c', 20], ['d', 30]] as const) s.set(id, deg(d));
    const lists = new NeighbourLists(s, new Int32Array(16).fill(-1), 1, 2, 2); // cap 2, no margin (2 >> 2 = 0)
    const a = () => lists.list(s.slotOf('a')!, 0.5);
    expect(a()).toMatchObject({ ids: ['b', 'c'], complete: false, boundId: 'c' }); // cos 10° .985, 20° .940; d (30°, .866) left out
    s.set('e', deg(15)); // cos 15° = .966 beats the bound c: enters, c goes, e is the bound
    expect(a()).toMatchObject({ ids: ['b', 'e'], boundId: 'e' });
    s.set('f', deg(25)); // .906 < e's .966: stays out
    expect(a().ids).toEqual(['b', 'e']);
    expect(lists.stats).toMatchObject({ computed: 1, updated: 1 }); // e entered (c left): one list changed in place, none recomputed
    s.remove('b'); // leaves: [e], shorter than the cap: refilled when next read
    expect(lists.entries().get('a')!.ids).toEqual(['e']);
    expect(a()).toMatchObject({ ids: ['e', 'c'], boundId: 'c' });
    expect(lists.stats.computed).toBe(2);
    // a high minimum cosine: complete lists (cos >= .95 is within ~18°)
    const hi = lists.list(s.slotOf('a')!, 0.95);
    expect(hi).toMatchObject({ ids: ['e'], complete: true });
    s.set('g', deg(-5)); // .996: enters a complete list wherever it falls
    expect(lists.list(s.slotOf('a')!, 0.95).ids).toEqual(['g', 'e']);
  });

  it("a memory removed and re-added with the same vector (an upsert of its tags) keeps its list; another vector drops it", () => {
    const s = new DenseStore({ dim: 2, encoder: 'e', kernel: 'js' });
    for (const [id, d] of [['a', 0], ['b', 10], ['c', 20], ['d', 30]] as const) s.set(id, deg(d));
    const lists = new NeighbourLists(s, new Int32Array(16).fill(-1), 1, 2, 2);
    const b0 = lists.list(s.slotOf('b')!, 0.5);
    lists.list(s.slotOf('a')!, 0.5);
    s.remove('b');
    s.set('b', deg(10)); // the index's upsert: remove, then set
    expect(lists.list(s.slotOf('b')!, 0.5)).toBe(b0);
    expect(lists.list(s.slotOf('a')!, 0.5).ids).toEqual(['b', 'c']); // b came back into a's list
    expect(lists.stats.computed).toBe(2);
    s.remove('b');
    s.set('b', deg(40));
    expect(lists.list(s.slotOf('b')!, 0.5).ids).toEqual(['d', 'c']);
    expect(lists.stats.computed).toBe(3);
  });

  it('equals a brute-force recompute after random writes (adds, edits, upserts, in-place sets, deletes)', () => {
    for (const [seed, dim, cap, minCos] of [
      [1, 8, 4, 0.1],
      [2, 6, 8, 0.3],
      [3, 5, 4, 0.55], // many complete lists
      [4, 9, 2, -1], // every memory qualifies
    ] as const) {
      const r = rng(seed);
      const vec = () => Float32Array.from({ length: dim }, () => r());
      const s = new DenseStore({ dim, encoder: 'e' });
      let next = 0;
      const add = () => s.set(`m${String(next++).padStart(3, '0')}`, vec());
      for (let i = 0; i < 50; i++) add();
      const lists = new NeighbourLists(s, new Int32Array(1024).fill(-1), 1, cap, cap * 16);
      const read = () => {
        for (let k = 0; k < 6; k++) lists.list(Math.floor((r() + 0.5) * s.size), minCos, r() < 0.2 ? cap * 4 : cap);
      };
      read();
      for (let step = 0; step < 160; step++) {
        const id = s.idAt(Math.floor((r() + 0.5) * s.size));
        const op = Math.floor((r() + 0.5) * 6);
        if (op === 0 || s.size < 20) add();
        else if (op === 1) s.remove(id);
        else if (op === 2) {
          const v = s.vectorAt(s.slotOf(id)!).slice();
          s.remove(id);
          s.set(id, v); // same vector back
        } else if (op === 3) {
          s.remove(id);
          s.set(id, vec()); // an edit: new vector, new slot
        } else if (op === 4) s.set(id, vec()); // replaced in place
        else s.set(id, s.vectorAt(s.slotOf(s.idAt(0))!).slice()); // a duplicate of another memory (a tie)
        for (const [owner, e] of lists.entries()) expectExact(s, owner, e, minCos);
        if (step % 3 === 0) read();
      }
      expect(lists.stats.updated).toBeGreaterThan(20);
      // what a read serves: the first `cap` of the brute-force order
      for (let k = 0; k < s.size; k++) {
        const e = lists.list(k, minCos, cap);
        expect(e.ids.slice(0, cap)).toEqual(brute(s, s.idAt(k), minCos).slice(0, cap).map((x) => x.id));
      }
    }
  });

  it('drops every list after many writes with no read between (an import), then follows again', () => {
    const s = new DenseStore({ dim: 2, encoder: 'e', kernel: 'js' });
    for (let i = 0; i < 10; i++) s.set(`m${i}`, deg(i * 3));
    const lists = new NeighbourLists(s, new Int32Array(1024).fill(-1), 1, 2, 2);
    lists.list(0, 0.5);
    for (let i = 10; i < 266; i++) s.set(`m${i}`, deg(90 + i)); // 256 writes: still followed
    expect(lists.entries().size).toBe(1);
    s.set('x', deg(1)); // the 257th: every list goes
    expect(lists.entries().size).toBe(0);
    expect(lists.list(0, 0.5).ids).toEqual(['x', 'm1']); // m0 at 0°: x (1°), m1 (3°)
  });

  it('stops following the store once disposed', () => {
    const s = new DenseStore({ dim: 2, encoder: 'e', kernel: 'js' });
    for (const [id, d] of [['a', 0], ['b', 10], ['c', 20]] as const) s.set(id, deg(d));
    const lists = new NeighbourLists(s, new Int32Array(16).fill(-1), 1, 2, 2);
    lists.list(0, 0.5);
    lists.dispose();
    expect(lists.entries().size).toBe(0);
    s.set('d', deg(5));
    expect(lists.stats.updated).toBe(0);
  });
});
