// Careful ranking on the page's side: the judge re-scores the refined answer's top of the standard
// results with hand-worked scores and cuts it to topK; at most three missing judge vectors are read
// at query time (and kept), more = this answer goes without and says how far the reading is; the
// setting (on by default) turns it off and back on; no judge for an encoder without one.
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { fakeJudgeClient } from '../testing/judge-client';
import { openDb, type MnemographDb } from '../db/db';
import { judgeInputKey, judgeVectorsOf, putJudgeVectors } from '../db/judge-vectors';
import { insertMemories } from '../db/repo';
import { freshDbName } from '../testing/db';
import { memoryRow } from '../testing/memory-row';
import type { ScoredHit } from '../core/types';
import type { ServiceContext } from './context';
import { CAREFUL_RANKING_SETTING, createCarefulRanking, ON_DEMAND_MAX } from './judge';
import { LOAD_QUIET_MS } from './quiet-gate';
import { judgeAnswer, judgeable, widenForJudge } from './judge-refine';

const J = 'all-mpnet-base-v2-int8';
const hit = (id: string, score: number, mode: ScoredHit['mode'] = 'standard'): ScoredHit => ({ id, score, mode, why: {} as ScoredHit['why'] });

describe('judgeAnswer (the refinement\'s last step)', () => {
  it('re-scores the standard top `depth` by (score + w x cos) / (1 + w), re-sorts, cuts to topK; others keep their place after', () => {
    // query (1, 0); mechanic's vector at cos 0.8, bike's at cos 0.2
    const vectors = new Map([
      ['mechanic', Float32Array.from([0.8, 0.6])],
      ['bike', Float32Array.from([0.2, Math.sqrt(1 - 0.04)])],
    ]);
    const results = [hit('bike', 0.5), hit('mechanic', 0.45), hit('far', 0.1), hit('lat', 0.3, 'lateral')];
    const out = judgeAnswer(results, 2, { kind: 'judge', spec: { id: J, depth: 30, weight: 0.25 }, query: Float32Array.from([1, 0]), vectors, readNow: 1 }, 12.4);
    // mechanic (0.45 + 0.25 x 0.8) / 1.25 = 0.52; bike (0.5 + 0.25 x 0.2) / 1.25 = 0.44; far 0.1 / 1.25 = 0.08 (cut)
    expect(out.results.map((r) => r.id)).toEqual(['mechanic', 'bike', 'lat']);
    expect(out.results[0].score).toBeCloseTo(0.52, 6);
    expect(out.results[1].score).toBeCloseTo(0.44, 6);
    expect(out.results[2].score).toBe(0.3);
    expect(out.note).toEqual({ applied: true, model: J, depth: 30, weight: 0.25, readNow: 1, ms: 12 });
  });

  it('without the judge (none, or still reading) the widened answer is only cut back to topK', () => {
    const results = [hit('a', 0.5), hit('b', 0.4), hit('c', 0.3)];
    expect(judgeAnswer(results, 2, null)).toEqual({ results: results.slice(0, 2) });
    expect(judgeAnswer(results, 2, { kind: 'reading', percent: 34 })).toEqual({ results: results.slice(0, 2), note: { applied: false, reason: 'reading', percent: 34 } });
  });

  it('asks the engine for the judge\'s depth on the first pass\'s candidate pool; only everyday answers are judged', () => {
    expect(widenForJudge({ profile: 'BALANCED' }, { topK: 10, candidateK: 50 }, 30)).toEqual({ profile: 'BALANCED', topK: 30, candidateK: 50 });
    expect(widenForJudge({}, { topK: 40, candidateK: 200 }, 30)).toEqual({});
    expect(widenForJudge({}, { topK: 10, candidateK: 20 }, 30)).toEqual({ topK: 30, candidateK: 30 });
    expect(judgeable({ lateralMode: false, assocHops: 0, groupBy: 'none' })).toBe(true);
    expect(judgeable({ lateralMode: true, assocHops: 0, groupBy: 'none' })).toBe(false);
    expect(judgeable({ lateralMode: false, assocHops: 1, groupBy: 'none' })).toBe(false);
    expect(judgeable({ lateralMode: false, assocHops: 0, groupBy: 'tag' })).toBe(false);
  });
});


const fakeClient = () => fakeJudgeClient(J, (t) => (t === 'query' ? Float32Array.from([1, 0]) : Float32Array.from([0.6, 0.8])), 5);

const ctxOf = (db: MnemographDb, encoder = 'all-MiniLM-L6-v2-int8'): ServiceContext =>
  ({ db, embedder: { info: () => ({ id: encoder }) }, now: () => 0, report: () => {} }) as unknown as ServiceContext;

async function storeOf(n: number) {
  const db = await openDb(freshDbName());
  await insertMemories(
    db,
    Array.from({ length: n }, (_, i) => memoryRow(`m${i}`, { text: `memory ${i}`, createdAt: i })),
    [],
  );
  return db;
}

describe('careful ranking (the service)', () => {
  it(`reads at most ${ON_DEMAND_MAX} missing vectors at query time (kept), the query's vector once`, async () => {
    const db = await storeOf(5);
    const { client, calls } = fakeClient();
    const care = createCarefulRanking(ctxOf(db), { client: () => client });
    await care.startCarefulRanking();
    await care.carefulRankingSettled(); // the fill read all 5
    expect(care.carefulRanking()).toMatchObject({ on: true, model: 'ready', read: 5, total: 5 });
    await db.judgeVectors.bulkDelete(['m0', 'm1', 'm2']); // three missing: read now
    calls.length = 0;
    const p = await care.prepare('query', ['m0', 'm1', 'm2', 'm3']);
    expect(calls).toEqual([['query', 'memory 0', 'memory 1', 'memory 2']]);
    expect(p).toMatchObject({ kind: 'judge', readNow: 3, spec: { id: J, depth: 30, weight: 0.25 } });
    expect(p?.kind === 'judge' && [...p.vectors.keys()].sort()).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect((await judgeVectorsOf(db, J, ['m0', 'm1', 'm2'])).size).toBe(3); // kept
    calls.length = 0;
    await care.prepare('query', ['m0', 'm1']);
    expect(calls).toEqual([]); // the query's vector is cached, the documents' stored
    care.disposeCarefulRanking();
    db.close();
  });

  it('the judge is not loaded while a search runs: its load waits for the search to end and the quiet time after it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const db = await storeOf(1);
      const { client } = fakeClient();
      let made = 0;
      const care = createCarefulRanking(ctxOf(db), { client: () => (made++, client) });
      const end = care.hold(); // the person's first search after a start
      const started = care.startCarefulRanking();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(made).toBe(0);
      end();
      await vi.advanceTimersByTimeAsync(LOAD_QUIET_MS - 1);
      expect(made).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(made).toBe(1);
      await started;
      care.disposeCarefulRanking();
      db.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('more than three missing: this answer goes without, with the reading\'s progress', async () => {
    const db = await storeOf(10);
    const { client, calls } = fakeClient();
    const care = createCarefulRanking(ctxOf(db), { client: () => client });
    await care.startCarefulRanking();
    await care.carefulRankingSettled();
    await db.judgeVectors.bulkDelete(['m0', 'm1', 'm2', 'm3']); // the fill counted 10 of 10; 4 gone
    calls.length = 0;
    expect(await care.prepare('query', ['m0', 'm1', 'm2', 'm3', 'm4'])).toEqual({ kind: 'reading', percent: 99 });
    expect(calls).toEqual([]);
    care.disposeCarefulRanking();
    db.close();
  });

  it('the setting: on by default, off stops it (no judge for answers), on again resumes; an encoder without a judge has none', async () => {
    const db = await storeOf(2);
    const m = (await db.memories.get('m0'))!;
    await putJudgeVectors(db, J, [{ memoryId: 'm0', inputKey: judgeInputKey(m), vector: [1, 0] }]);
    const { client } = fakeClient();
    const care = createCarefulRanking(ctxOf(db), { client: () => client });
    await care.startCarefulRanking();
    expect(care.wanted()).toMatchObject({ id: J });
    await care.setCarefulRanking(false);
    expect(await db.settings.get(CAREFUL_RANKING_SETTING)).toEqual({ key: CAREFUL_RANKING_SETTING, value: false });
    expect(care.wanted()).toBeNull();
    expect(await care.prepare('query', ['m0'])).toBeNull();
    expect(care.carefulRanking().on).toBe(false);
    await care.setCarefulRanking(true);
    expect(care.wanted()).toMatchObject({ id: J });
    care.disposeCarefulRanking();

    const stored = createCarefulRanking(ctxOf(db), { client: () => client });
    await stored.setCarefulRanking(false);
    await stored.startCarefulRanking(); // a reload reads the stored choice
    expect(stored.carefulRanking().on).toBe(false);
    stored.disposeCarefulRanking();

    const useLite = createCarefulRanking(ctxOf(db, 'use-lite-en/v1'), { client: () => client });
    await useLite.startCarefulRanking();
    expect(useLite.carefulRanking().model).toBe('none');
    expect(useLite.wanted()).toBeNull();
    useLite.disposeCarefulRanking();
    db.close();
  });
});
