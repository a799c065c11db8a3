import { describe, expect, it } from 'vitest';
import { DenseStore } from '../vectors';
import { associate, buildNeighbourMatrix, liveMatrix, matrixFromStore, resolveRecallOptions, type NeighbourMatrix, type RecallResult } from '.';
import { seededUniform } from '../features/hash';

/** Seeded numbers in [-0.5, 0.5) (mulberry32, the core's own). */
function rng(seed: number): () => number {
  const next = seededUniform(seed);
  return () => next() - 0.5;
}

/** Same rows, ids, map and scopes (as a partition: two rows share a number iff they share a session; -1 = none). */
function expectSame(live: NeighbourMatrix, fresh: NeighbourMatrix, sessionOf: (id: string) => string | undefined): void {
  expect(live.ids).toEqual(fresh.ids);
  expect([...live.indexOf].sort()).toEqual([...fresh.indexOf].sort());
  expect(live.data).toEqual(fresh.data);
  const scope = live.scope;
  expect(scope.length).toBe(fresh.ids.length);
  const bySession = new Map<string, number>();
  for (let r = 0; r < live.ids.length; r++) {
    const s = sessionOf(live.ids[r]);
    if (s === undefined) expect(scope[r]).toBe(-1);
    else {
      expect(scope[r]).toBeGreaterThanOrEqual(0);
      expect(bySession.get(s) ?? scope[r]).toBe(scope[r]);
      bySession.set(s, scope[r]);
    }
  }
  expect(new Set(bySession.values()).size).toBe(bySession.size);
}

describe('liveMatrix: the engine\'s neighbour matrix kept in step with its store', () => {
  it('equals a fresh matrix after random adds, edits (new slot, maybe a new session), in-place sets and deletes', () => {
    const r = rng(9);
    const dim = 6;
    const vec = () => Float32Array.from({ length: dim }, () => r());
    const s = new DenseStore({ dim, encoder: 'e' });
    const session = new Map<string, string | undefined>();
    const sessionOf = (id: string) => session.get(id);
    let next = 0;
    const add = () => {
      const id = `m${next++}`;
      session.set(id, r() < 0.2 ? undefined : `s${Math.floor((r() + 0.5) * 4)}`);
      s.set(id, vec());
    };
    for (let i = 0; i < 30; i++) add();
    const live = liveMatrix(s, sessionOf);
    let version = live.version!;
    for (let step = 0; step < 200; step++) {
      const id = s.idAt(Math.floor((r() + 0.5) * s.size));
      const op = Math.floor((r() + 0.5) * 4);
      if (op === 0 || s.size < 10) add();
      else if (op === 1) {
        s.remove(id);
        session.delete(id);
      } else if (op === 2) {
        s.remove(id); // the index's upsert: remove, then set; the session recorded after the vector
        s.set(id, vec());
        session.set(id, `s${Math.floor((r() + 0.5) * 8)}`);
      } else s.set(id, vec()); // in place
      expect(live.version!).toBeGreaterThan(version);
      version = live.version!;
      if (step % 4 === 0) expectSame(live, matrixFromStore(s, sessionOf), sessionOf);
    }
    expectSame(live, matrixFromStore(s, sessionOf), sessionOf);
    // the walk through it (its lists, kept in step too) is the full scan's
    const o = resolveRecallOptions({ assocHops: 3, beamWidth: 2, minCosine: 0.2 });
    const seeds: RecallResult[] = [s.idAt(0), s.idAt(3)].map((id, i) => ({ id, score: 1 - i * 0.1, mode: 'standard', why: { lexical: 0, semantic: 0, bm25: 0, cosine: 0.5, matchedTerms: [] } }));
    const got = associate(seeds, { matrix: live, neighbours: (p, k, c, closed) => live.neighbours!.pick(p, k, c, closed) }, o);
    const fresh = matrixFromStore(s, sessionOf, { fresh: true }); // the same rows, cold lists: the same answer exactly
    const cold = associate(seeds, { matrix: fresh, neighbours: (p, k, c, closed) => fresh.neighbours!.pick(p, k, c, closed) }, o);
    expect(got.results).toEqual(cold.results);
    const full = associate(seeds, { matrix: buildNeighbourMatrix(s.idList(), (id) => s.vectorOf(id), sessionOf) }, o); // renormalised rows: scores to ~1e-9
    expect(full.added).toBeGreaterThan(2);
    expect(got.results.map((x) => x.id)).toEqual(full.results.map((x) => x.id));
    got.results.forEach((x, i) => expect(x.score).toBeCloseTo(full.results[i].score, 8));
  });

  it('hand-worked: a capture appends a row with its session, a delete moves the last row into the hole', () => {
    const s = new DenseStore({ dim: 2, encoder: 'e', kernel: 'js' });
    const session: Record<string, string> = { a: 'x', b: 'y', c: 'x' };
    for (const id of ['a', 'b', 'c']) s.set(id, Float32Array.of(1, id.charCodeAt(0) - 96));
    const m = liveMatrix(s, (id) => session[id]);
    expect([m.ids, [...m.scope]]).toEqual([['a', 'b', 'c'], [0, 1, 0]]);
    s.set('d', Float32Array.of(0, 2)); // its session is recorded after its vector, as the engine does
    session.d = 'z';
    expect([m.ids, [...m.scope], m.indexOf.get('d')]).toEqual([['a', 'b', 'c', 'd'], [0, 1, 0, 2], 3]);
    expect([...m.data.subarray(6, 8)]).toEqual([0, 1]); // unit length
    s.remove('a'); // d moves into row 0
    expect([m.ids, [...m.scope], m.indexOf.get('d'), m.indexOf.has('a')]).toEqual([['d', 'b', 'c'], [2, 1, 0], 0, false]);
    // a new matrix retires the old one: it follows the store no more
    const m2 = liveMatrix(s, (id) => session[id]);
    s.remove('b');
    expect([m.ids.length, m2.ids]).toEqual([3, ['d', 'c']]);
  });
});
