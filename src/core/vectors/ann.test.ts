import { describe, expect, it } from 'vitest';
import { AnnIndex, DenseStore, searchAmong } from './index';
import { seeded } from './kmeans';
import { HybridIndex } from '../hybrid';

const DIM = 48;

function unit(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const inv = 1 / Math.sqrt(s);
  return v.map((x) => x * inv);
}

/** `clusters` random centres, `per` members each: centre + uniform noise (within-cluster cosine ~0.75). */
function clustered(n: number, clusters: number, seed = 7, spread = 2) {
  const rand = seeded(seed);
  const centres = Array.from({ length: clusters }, () => unit(Float32Array.from({ length: DIM }, () => rand() - 0.5)));
  const noise = spread / Math.sqrt(DIM);
  const make = (c: number) => unit(Float32Array.from(centres[c], (x) => x + (rand() - 0.5) * noise));
  const vecs = Array.from({ length: n }, (_, i) => make(i % clusters));
  return { vecs, make, rand };
}

function fill(n: number, clusters: number, spread = 2): { store: DenseStore; make: (c: number) => Float32Array; rand: () => number } {
  const { vecs, make, rand } = clustered(n, clusters, 7, spread);
  const store = new DenseStore({ dim: DIM, encoder: 't' });
  vecs.forEach((v, i) => store.set(`m${String(i).padStart(5, '0')}`, v));
  return { store, make, rand };
}

/** A manual scheduler: steps run only when the test says. */
function manual() {
  const queue: (() => void)[] = [];
  return {
    schedule: (s: () => void) => queue.push(s),
    runAll: () => {
      let n = 0;
      while (queue.length) {
        queue.shift()!();
        n++;
      }
      return n;
    },
    runOne: () => queue.shift()?.(),
    get pending() {
      return queue.length;
    },
  };
}

const ids = (hs: { id: string }[] | null) => (hs ?? []).map((h) => h.id);

describe('AnnIndex (IVF)', () => {
  it('reaches recall@10 >= 0.88 against exact on a seeded clustered set, probing a minority of the lists', () => {
    // 6,000 vectors in 300 clusters (within-cluster cosine ~0.5: neighbours spill over lists; nprobe
    // comes out 16 of 77); lists = round(√6000) = 77, nprobe calibrated to recall 0.97 on
    // 100 queries. Per-query recall treated as one draw (a cluster split across lists misses its
    // neighbours together): σ ≤ √(0.97·0.03 / 100) = 0.017 for the calibration, 0.012 for the 200
    // test queries, so 3σ of both below the target: 0.97 − 3·(0.017 + 0.012) ≈ 0.88.
    const { store, rand } = fill(6000, 300, 2.5);
    const ann = new AnnIndex(store, { threshold: 0, schedule: () => {} });
    ann.buildNow();
    const st = ann.status();
    expect(st.state).toBe('ready');
    expect(st.lists).toBe(77);
    expect(st.nprobe).toBeLessThan(77 * 0.3);
    let sum = 0;
    for (let i = 0; i < 200; i++) {
      const q = store.vectorAt((i * 7919) % store.size).slice();
      for (let j = 0; j < DIM; j++) q[j] += (rand() - 0.5) * (1 / Math.sqrt(DIM));
      const truth = new Set(ids(store.search(q, 10)));
      const got = ann.search(q, 10);
      expect(got).not.toBeNull();
      sum += ids(got).filter((id) => truth.has(id)).length / 10;
    }
    expect(sum / 200).toBeGreaterThanOrEqual(0.88);
  });

  it('keeps every live vector in exactly one list through adds, replaces and deletes (probing all lists = exact)', () => {
    const { store, make } = fill(3000, 60);
    // targetRecall above 1: the calibration never reaches it, so every list is probed
    const ann = new AnnIndex(store, { threshold: 0, schedule: () => {}, targetRecall: 1.01, maxProbedShare: 1 });
    ann.buildNow();
    expect(ann.status().nprobe).toBe(ann.status().lists);
    for (let i = 0; i < 400; i++) store.set(`n${i}`, make(i % 7)); // new vectors: their nearest list
    for (let i = 0; i < 3000; i += 3) store.remove(`m${String(i).padStart(5, '0')}`); // swap-removes
    for (let i = 1; i < 3000; i += 9) store.set(`m${String(i).padStart(5, '0')}`, make(59 - (i % 5))); // replaced: moves list
    const q = make(3);
    const exact = store.search(q, 50);
    expect(ann.search(q, 50)).toEqual(exact);
    expect(ids(ann.search(q, 50))).not.toContain('m00000');
    // a removed id never comes back, an added one is found by its own vector
    expect(ids(ann.search(store.vectorOf('n5')!.slice(), 1))).toEqual(['n5']);
  });

  it('answers null below the threshold and never starts a build there (the exact search answers, unchanged)', () => {
    const { store } = fill(500, 10);
    const sched = manual();
    const ann = new AnnIndex(store, { threshold: 501, schedule: sched.schedule });
    expect(ann.search(store.vectorAt(0).slice(), 10)).toBeNull();
    expect(sched.pending).toBe(0);
    expect(ann.state).toBe('exact');
    // the hybrid with its default threshold (200k): its dense candidates are the store's exact ones
    const h = new HybridIndex(DIM);
    for (let i = 0; i < 300; i++)
      h.upsert({ id: `d${i}`, text: `note ${i}`, tags: [], vector: store.vectorAt(i).slice(), importance: 0.5, createdAt: 0, status: 'active', validFrom: 0, validTo: null });
    const q = store.vectorAt(7).slice();
    const dense = h.candidates({ text: '', vector: q }, { topK: 10 }).dense;
    expect(dense.length).toBe(300);
    expect(dense).toEqual(h.vectors.search(q, 500).map((x) => ({ id: x.id, score: x.score })));
    expect(h.ann.state).toBe('exact');
  });

  it('builds in background steps (exact until ready), follows changes made during the build, and can be cancelled', () => {
    const { store, make } = fill(3000, 60);
    const sched = manual();
    const ann = new AnnIndex(store, { threshold: 1000, schedule: sched.schedule, budgetMs: 0, targetRecall: 1.01, maxProbedShare: 1 });
    const q = store.vectorAt(11).slice();
    expect(ann.search(q, 10)).toBeNull(); // starts the build, answers exact meanwhile
    expect(ann.state).toBe('building');
    for (let i = 0; i < 30; i++) sched.runOne();
    expect(ann.search(q, 10)).toBeNull();
    ann.cancel();
    expect(ann.state).toBe('exact');
    expect(sched.runAll()).toBe(1); // the queued step sees the cancellation and stops
    expect(ann.state).toBe('exact');
    // a new build, with the store changing between its steps
    ann.start();
    let steps = 0;
    let k = 0;
    while (sched.pending) {
      sched.runOne();
      steps++;
      if (steps % 5 === 0) {
        store.set(`late${k}`, make(k % 60));
        store.remove(`m${String(k * 7).padStart(5, '0')}`);
        k++;
      }
    }
    expect(steps).toBeGreaterThan(20);
    expect(ann.state).toBe('ready');
    const got = ann.search(q, 20);
    expect(got).toEqual(store.search(q, 20));
    expect(ids(ann.search(store.vectorOf('late3')!.slice(), 1))).toEqual(['late3']);
  });

  it("answers the hybrid's E1 above the threshold once built, with the status gate applied", () => {
    const { store } = fill(1500, 30);
    const h = new HybridIndex(DIM, { candidateK: 50 }); // 500 would need more rows than 30% of the lists hold: exact
    for (let i = 0; i < 1500; i++)
      h.upsert({ id: `d${i}`, text: `note ${i}`, tags: [], vector: store.vectorAt(i).slice(), importance: 0.5, createdAt: 0, status: i % 10 === 0 ? 'archived' : 'active', validFrom: 0, validTo: null });
    h.ann.threshold = 1000;
    h.ann.buildNow();
    expect(h.ann.state).toBe('ready');
    const q = store.vectorAt(20).slice(); // d20 is archived: never a candidate
    const spy: number[] = [];
    const search = h.ann.search.bind(h.ann);
    h.ann.search = (...a) => {
      const r = search(...a);
      spy.push(r ? r.length : -1);
      return r;
    };
    const dense = h.candidates({ text: '', vector: q }, { topK: 10 }).dense;
    expect(spy).toEqual([50]); // the index answered
    expect(dense.map((d) => d.id)).not.toContain('d20');
    expect(dense.every((d) => Number(d.id.slice(1)) % 10 !== 0)).toBe(true);
    // its best are the exact best (same cluster as d20: every 30th memory)
    expect(dense.slice(0, 5).map((d) => d.id)).toEqual(h.vectors.search(q, 5, { accept: (s) => Number(h.vectors.idAt(s).slice(1)) % 10 !== 0 }).map((x) => x.id));
  });

  it('searchAmong over every slot is exactly the store search (scores, order, the filter)', () => {
    const { store } = fill(2000, 40);
    const all = Int32Array.from({ length: store.size }, (_, i) => store.size - 1 - i);
    const q = store.prepare(store.vectorAt(5).slice());
    const accept = (s: number) => s % 3 !== 0;
    expect(searchAmong(store, q, 25, all, all.length, { accept })).toEqual(store.search(q, 25, { accept }));
  });
});
