// Deep search's communities in the background (communities-background.ts, louvain-steps.ts): the
// stepped job finds the direct computation's communities on clear structure, exact and bounded;
// the driver computes after the debounce, keeps the ready ones across writes, abandons a job a
// write interrupts; the bounded search's cost per memory is capped; the engine's escalation reads
// whatever is ready and never computes them itself.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildNeighbourMatrix, type NeighbourMatrix } from '../src/core/recall/matrix';
import { seededUniform } from '../src/core/features';
import { serializeSpace } from '../src/core/spaces';
import { engineDoc } from '../src/testing/engine';
import { memoryCommunities } from './communities';
import { approximateNeighbours, BackgroundCommunities, communityJob, newStats } from './communities-background';
import { EngineCore } from './engine-core';
import { EntityGraph } from './entity-graph';
import { csrOf, EdgeList, louvainSteps } from './louvain-steps';

const run = <T>(job: Generator<void, T>): T => {
  for (;;) {
    const r = job.next();
    if (r.done) return r.value;
  }
};
/** The partition as sorted groups of ids (community numbers differ between methods). */
const groups = (m: Map<string, number>): string[][] => {
  const by = new Map<number, string[]>();
  for (const [id, c] of m) by.set(c, [...(by.get(c) ?? []), id]);
  return [...by.values()].map((g) => g.sort()).sort((a, b) => a[0].localeCompare(b[0]));
};

/** `clusters` groups of `size` unit vectors around orthogonal axes (cosine within a group >= ~0.95, across ~0). */
function clustered(clusters: number, size: number): NeighbourMatrix {
  const rand = seededUniform(3);
  const dim = clusters;
  const vecs = new Map<string, Float32Array>();
  for (let c = 0; c < clusters; c++)
    for (let i = 0; i < size; i++) {
      const v = new Float32Array(dim).map(() => (rand() - 0.5) * 0.1);
      v[c] = 1;
      vecs.set(`c${c}-${i}`, v);
    }
  return buildNeighbourMatrix(vecs.keys(), (id) => vecs.get(id)!);
}

describe('louvainSteps', () => {
  it('two triangles joined by one light edge: the triangles (worked by hand)', () => {
    // triangle 0-1-2 and 3-4-5, weight 1 each, 2-3 weight 0.1. Moving node 2 into the other
    // triangle loses 2 of inner weight for 0.1: each triangle is a community, Q = 2 x (3/6.1 - (6.1/12.2)^2) ~ 0.48
    const e = new EdgeList();
    for (const [a, b] of [[0, 1], [1, 2], [0, 2], [3, 4], [4, 5], [3, 5]]) e.push(a, b, 1);
    e.push(2, 3, 0.1);
    const comm = run(louvainSteps(run(csrOf(6, e)), seededUniform(1)));
    expect([...comm]).toEqual([0, 0, 0, 1, 1, 1]);
  });

  it('a duplicate edge sums its weights; nodes without edges stay alone', () => {
    const e = new EdgeList();
    e.push(0, 1, 0.25);
    e.push(1, 0, 0.5);
    const g = run(csrOf(3, e));
    expect([...g.offsets]).toEqual([0, 1, 2, 2]);
    expect([...g.weights]).toEqual([0.75, 0.75]);
    expect([...run(louvainSteps(g, seededUniform(1)))]).toEqual([0, 0, 1]);
  });
});

describe('communityJob: the direct computation, in steps', () => {
  it("the small case of communities.test.ts: memoryCommunities' partition", () => {
    const vectors = new Map([['a', [1, 0]], ['b', [1, 0.1]], ['c', [0, 1]], ['d', [0.1, 1]]]); // prettier-ignore
    const matrix = buildNeighbourMatrix(vectors.keys(), (id) => Float32Array.from(vectors.get(id)!));
    const g = new EntityGraph();
    g.setMemory('c', [7]);
    g.setMemory('e', [7]); // no vector: joins through entity 7
    const direct = memoryCommunities(matrix, g);
    expect(run(communityJob(matrix, g))).toEqual(direct); // small: graphology's Louvain over the same graph, the same numbers
    const stepped = run(communityJob(matrix, g, { oneCallMax: 0 })); // louvain-steps.ts
    expect(groups(stepped)).toEqual(groups(direct));
    expect(groups(stepped)).toEqual([['a', 'b'], ['c', 'd', 'e']]);
  });

  it('four clusters of 12: exact and bounded neighbour edges both give the direct partition', () => {
    const matrix = clustered(4, 12);
    const direct = groups(memoryCommunities(matrix));
    expect(direct).toHaveLength(4);
    const exact = newStats();
    expect(groups(run(communityJob(matrix, undefined, { oneCallMax: 0 }, exact)))).toEqual(direct);
    expect(exact.exact).toBe(true);
    const bounded = newStats();
    expect(groups(run(communityJob(matrix, undefined, { exactMax: 10, oneCallMax: 0 }, bounded)))).toEqual(direct);
    expect(bounded.exact).toBe(false);
  });
});

describe('the bounded neighbour search', () => {
  it('above exactMax its dot products per memory stay under tables x (bits + window) + k x k, and it keeps k, sorted', () => {
    const matrix = clustered(8, 40); // 320 memories
    const stats = newStats();
    const lists = approximateNeighbours(matrix, { exactMax: 0 }, stats);
    expect(stats.dots / 320).toBeLessThanOrEqual(6 * (12 + 8) + 5 * 5);
    // exact would be 319 per memory
    for (let r = 0; r < 320; r++) {
      const row = [...lists.row.subarray(r * 5, r * 5 + 5)];
      expect(row).not.toContain(r);
      expect(row.every((c) => c >= 0 && Math.floor(c / 40) === Math.floor(r / 40))).toBe(true); // all 5 found, in its own cluster
      const cos = [...lists.cos.subarray(r * 5, r * 5 + 5)];
      expect(cos).toEqual([...cos].sort((a, b) => b - a));
    }
  });
});

describe('BackgroundCommunities', () => {
  function driver(matrix: () => NeighbourMatrix | null, opts = {}) {
    const timers: { f: () => void; ms: number }[] = [];
    const bg = new BackgroundCommunities(() => (matrix() ? { matrix: matrix()! } : null), {
      debounceMs: 3000,
      ...opts,
      timer: (f, ms) => {
        const t = { f, ms };
        timers.push(t);
        return () => void timers.splice(timers.indexOf(t), 1);
      },
    });
    const tick = (): boolean => {
      const t = timers.shift();
      t?.f();
      return t !== undefined;
    };
    const drain = (): void => {
      while (tick());
    };
    return { bg, timers, tick, drain };
  }

  it('starts after the debounce, in steps; a write keeps the ready communities until the next are ready', () => {
    let m = clustered(4, 12);
    const d = driver(() => m, { budgetMs: 0 }); // one piece per step
    d.bg.reset();
    expect(d.bg.state).toBe('waiting');
    expect(d.timers.map((t) => t.ms)).toEqual([3000]);
    d.tick();
    expect(d.bg.state).toBe('computing');
    expect(d.bg.ready).toBeNull();
    d.drain();
    const first = d.bg.ready!;
    expect(first).toEqual(memoryCommunities(m));
    expect(d.bg.stats.steps).toBeGreaterThan(48); // one row of exact edges per step, at least
    // a write (a fifth cluster): the ready ones stay, through the debounce and the job
    m = clustered(5, 12);
    d.bg.changed();
    expect(d.bg.ready).toBe(first);
    d.tick();
    d.tick();
    expect(d.bg.state).toBe('computing');
    expect(d.bg.ready).toBe(first);
    d.drain();
    expect(groups(d.bg.ready!)).toHaveLength(5);
    expect(d.bg.computed).toBe(2);
  });

  it('a write during a job abandons it (its rows moved) and restarts it after the debounce', () => {
    const m = clustered(4, 12);
    const d = driver(() => m, { budgetMs: 0 });
    d.bg.reset();
    d.tick();
    d.tick();
    d.bg.changed();
    expect(d.bg.state).toBe('waiting');
    expect(d.timers.map((t) => t.ms)).toEqual([3000]); // the abandoned job's next step is gone
    d.drain();
    expect(d.bg.computed).toBe(1);
  });

  it('a vector written behind its back (the live matrix\'s version moved) abandons the job too', () => {
    const m = { ...clustered(4, 12), version: 0 };
    const d = driver(() => m, { budgetMs: 0 });
    d.bg.reset();
    d.tick();
    d.tick();
    m.version = 1;
    d.tick(); // the next step sees it: no more steps, a restart after the debounce
    expect(d.bg.state).toBe('waiting');
    expect(d.timers.map((t) => t.ms)).toEqual([3000]);
    d.drain();
    expect(d.bg.computed).toBe(1);
    expect(d.bg.ready?.size).toBe(48);
  });

  it('an escalation with none ready: computed at once up to directMax (the pending job dropped), never above; ready ones are read as they are', () => {
    const m = clustered(4, 12); // 48 memories
    const big = driver(() => m, { directMax: 47 });
    big.bg.reset(); // a start: the job waits for its debounce
    expect(big.bg.forEscalation()).toBeNull(); // above directMax: no waiting, no computing
    expect(big.bg.state).toBe('waiting');
    expect(big.bg.computed).toBe(0);
    const small = driver(() => m, { directMax: 48 });
    small.bg.reset();
    const got = small.bg.forEscalation()!;
    expect(groups(got)).toEqual(groups(memoryCommunities(m)));
    expect([small.bg.state, small.bg.computed, small.timers.length]).toEqual(['idle', 1, 0]);
    small.bg.changed(); // a write: kept, and read as it is (no second computation)
    expect(small.bg.forEscalation()).toBe(got);
    expect(small.bg.computed).toBe(1);
  });

  it('above maxMemories: none (the strategy is left out), and a start drops another collection\'s', () => {
    let m = clustered(4, 12);
    const d = driver(() => m, { maxMemories: 48 });
    d.bg.reset();
    d.drain();
    expect(d.bg.ready?.size).toBe(48);
    m = clustered(7, 7); // 49
    d.bg.changed();
    expect(d.bg.ready?.size).toBe(48); // kept until the job runs
    d.drain();
    expect(d.bg.ready).toBeNull();
    expect(d.bg.computed).toBe(1);
    d.bg.reset();
    expect(d.bg.ready).toBeNull();
  });
});

describe('the engine', () => {
  afterEach(() => void vi.useRealTimers());

  it('an escalation in a small store computes the communities at once; after that they follow writes in the background and are kept meanwhile', async () => {
    vi.useFakeTimers();
    const texts: [string, string, number[]][] = [
      ['a', 'garden shed roof leaks', [1, 0]],
      ['b', 'garden hose is cracked', [0.9, 0.1]],
      ['x', 'bought tomato seedlings', [0, 1]],
      ['y', 'car needs new tyres', [0.1, 0.9]],
      ['c', 'the shed door sticks', [0.95, 0.05]], // third nearest (not in the top 2), in a's community, a late session (no temporal neighbour of a or b)
    ];
    const core = new EngineCore();
    core.load(texts.map(([id, t, v], i) => ({ ...engineDoc(id, t, v), createdAt: 1_000 + i * 1000, sessionId: `s${i}` })), { dim: 2 });
    const query = { text: 'garden', features: { E1: serializeSpace('E1', Float32Array.of(1, 0)) }, sessionId: 'tab' };
    const options = { topK: 2, deepSearch: { mode: 'active' as const, threshold: 1 } };
    // the recall's own 0 ms pauses run (fake time moves 100 ms), the communities' 3 s debounce does not
    const recall = async (q: typeof query) => {
      const p = core.recall(q, options);
      await vi.advanceTimersByTimeAsync(100);
      return p;
    };
    expect(core.communities.state).toBe('idle'); // nothing computed until a query has deep search on
    await core.recall(query, { topK: 2 });
    expect(core.communities.state).toBe('idle');
    const before = await recall(query);
    expect(before.deepSearch?.status).toBeDefined();
    // none ready and 5 memories (at most directMax): computed by the escalation itself, the pending job dropped
    expect(core.communities.state).toBe('idle');
    expect(groups(core.communities.ready!)).toEqual([['a', 'b', 'c'], ['x', 'y']]);
    expect(before.deepSearch!.pool.find((p) => p.id === 'c')?.via).toEqual([{ strategy: 'community', seed: 'a', detail: `community ${core.communities.ready!.get('a')}` }]);
    vi.runAllTimers();
    const ready = core.communities.ready!;
    expect(groups(ready)).toEqual([['a', 'b', 'c'], ['x', 'y']]);
    const after = await recall({ ...query, sessionId: 'tab2' });
    expect(after.deepSearch!.pool.find((p) => p.id === 'c')?.via).toEqual([{ strategy: 'community', seed: 'a', detail: `community ${ready.get('a')}` }]);
    core.upsert({ ...engineDoc('z', 'new note', [0.7, 0.7]), createdAt: 2_000, sessionId: 's9' });
    expect(core.communities.ready).toBe(ready); // kept; 'z' has none until the next job
    expect(core.communities.ready!.has('z')).toBe(false);
    vi.runAllTimers();
    expect(core.communities.ready!.has('z')).toBe(true);
  });
});
