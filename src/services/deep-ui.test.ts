// Issue 11 in the services: iterative search through recall (passes recorded, explained), the
// adaptive threshold from the stored history, the feedback of an opened deep hit to the scorer,
// the dashboard's figures from the log.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { loadNodeResources } from '../../scripts/lib/resources-node';
import { openDb } from '../db/db';
import { putSetting, getSetting } from '../db/repo';
import { startServices } from '../testing/services';
import { createDeepRecall, DEEP_SETTING_KEYS } from './deep-recall';
import type { ServiceContext } from './context';
import type { PipelineResult } from '../core/pipeline';
import type { DeepReportView } from '../core/deep';
import { resolveRecallOptions } from '../core/recall';

async function seeded() {
  const { s, dbName } = await startServices({ resources: await loadNodeResources() });
  for (const text of [
    'We sailed past the lighthouse with Marta in the morning.',
    'Marta cooked a huge dinner for everyone.',
    'Bought new running shoes downtown.',
    'The harbour was foggy when we came back.',
    'Never book meetings on Fridays.',
  ])
    await s.addMemory({ text, ...(text.startsWith('Never') ? { tags: ['constraint'] } : {}) });
  return { s, dbName };
}

describe('deep search and iterative search through the services', () => {
  it('iterative search records each pass and explains it; off leaves no record', async () => {
    const { s } = await seeded();
    expect((await s.recall('lighthouse', { topK: 2 })).iterative).toBeUndefined();
    const got = await s.recall('lighthouse', { topK: 2, iterative: { forceHard: true, maxIterations: 3 } });
    const it = got.iterative!;
    expect(it.hard).toBe(true);
    expect(it.passes[0]).toMatchObject({ pass: 1, action: 'retrieve', query: 'lighthouse' });
    expect(it.passes.length).toBeGreaterThanOrEqual(2);
    expect(it.passes.length).toBeLessThanOrEqual(3);
    expect(it.explanation[0]).toMatch(/^pass 1: searched "lighthouse", \d+ results/);
    expect(it.explanation[1]).toMatch(/^pass 2: (reformulated as ".+"|widened by one hop over shared names), added \d+$/);
    expect(got.results.length).toBeLessThanOrEqual(2);
    // an already aborted request does no work
    const ac = new AbortController();
    ac.abort();
    await expect(s.recall('lighthouse', { iterative: true }, ac.signal)).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('adaptive mode: the threshold of the query category moves with its history, and the history grows', async () => {
    const { s, dbName } = await seeded();
    const db = await openDb(dbName);
    // "lighthouse sailing" is an 'other' query; no history: the base threshold
    // its confidence here is 0.90: below a threshold of 0.95, not below 0.8
    const plain = await s.recall('lighthouse sailing', { topK: 2, deepSearch: { mode: 'adaptive', threshold: 0.95 } });
    expect(plain.deepSearch?.threshold).toBe(0.95);
    await putSetting(db, DEEP_SETTING_KEYS.adaptive, { other: { escalations: 10, hits: 10 } });
    const moved = await s.recall('lighthouse sailing', { topK: 2, deepSearch: { mode: 'adaptive', threshold: 0.8 } });
    expect(moved.deepSearch?.threshold).toBeCloseTo(0.95, 10); // 0.8 + 0.15 x (2 x 1 - 1)
    expect(moved.deepSearch?.mode).toBe('adaptive');
    const h = await getSetting<{ other: { escalations: number } }>(db, DEEP_SETTING_KEYS.adaptive);
    expect(h?.other.escalations).toBe(11);
    const rows = await db.deepSearchLog.toArray();
    expect(rows.map((r) => r.category)).toEqual(['other', 'other']);
    db.close();
  });

  it('an opened deep hit trains the scorer once (hand-worked pair); the next recall is sent the learned weights', async () => {
    const { s, dbName } = await seeded();
    const db = await openDb(dbName);
    const deep = createDeepRecall({ db, embedder: s.embedder, now: () => 1000, report: () => {} } as unknown as ServiceContext);
    const res = (id: string, lexical: number, semantic: number, sims: Record<string, number>, extra: object = {}) =>
      ({ id, score: 1, mode: 'standard', why: { lexical, semantic, bm25: 0, cosine: 0, matchedTerms: [] }, spaces: { sims }, hybridScore: 0, ...extra }) as unknown as PipelineResult;
    const report = {
      status: 'merged', mode: 'active', confidence: { value: 0.2, top: 0, gap: 0, count: 0 }, threshold: 0.3, primaryIds: ['p1', 'p2'], trimmed: 0,
      pool: [], scores: [{ id: 'h', score: 0.8, reasons: [] }], timings: { expandMs: 1, readMs: 2, totalMs: 3 },
    } as unknown as DeepReportView;
    const results = [
      res('p1', 0.5, 0.5, {}),
      res('h', 0.1, 0.6, { E11: 0.5 }, { deep: { readerScore: 0.8, reasons: [], via: [{ strategy: 'entity', seed: 'p1', detail: '1 shared name' }], source: 'deep' } }),
      res('p2', 0.3, 0.4, {}),
    ];
    await deep.after(report, 'active', { text: 'who', at: 1000, sessionId: 's', category: 'person' }, results);
    expect(await deep.noteOpened('p1')).toBe(false); // a primary result: no pair
    expect(await deep.noteOpened('h')).toBe(true);
    expect(await deep.noteOpened('h')).toBe(false); // once
    const w = await getSetting<{ pairs: number; lexicalWeight: number; spaceWeights: Record<string, number>; ways: object }>(db, DEEP_SETTING_KEYS.scorer);
    // negative = p2 (the lowest primary result shown): 0.5 + 0.05 x ((0.1 - 0.3) - (0.6 - 0.4)) / 2 = 0.49
    expect(w?.pairs).toBe(1);
    expect(w!.lexicalWeight).toBeCloseTo(0.49, 10);
    expect(w!.ways).toEqual({ entity: 1 });
    const baseE11 = (await deep.deepSearchStats()).learning.base.spaceWeights.E11 ?? 0;
    expect(w!.spaceWeights.E11).toBeCloseTo(Math.min(baseE11 + 0.25, baseE11 + 0.05 * 0.5 + 0.05), 10);
    const prepared = await deep.prepare('lighthouse', {}, resolveRecallOptions({}));
    expect(prepared.asked.lexicalWeight).toBeCloseTo(0.49, 10);
    expect(prepared.spaceWeights?.E11).toBeCloseTo(w!.spaceWeights.E11, 10);
    // the caller's own lexical weight wins, and so does a saved default one (left to the engine's defaults)
    expect((await deep.prepare('x', { lexicalWeight: 0.7 }, resolveRecallOptions({ lexicalWeight: 0.7 }))).asked.lexicalWeight).toBe(0.7);
    expect((await deep.prepare('x', {}, resolveRecallOptions({ lexicalWeight: 0.6 }), { lexicalWeight: 0.6 })).asked.lexicalWeight).toBeUndefined();
    // and the services' recall runs with them
    expect((await s.recall('lighthouse', { topK: 2 })).results.length).toBeGreaterThan(0);
    db.close();
  });

  it('the dashboard counts invocations, hits and recalls per day from the log', async () => {
    const { s } = await seeded();
    await s.recall('lighthouse', { topK: 2, deepSearch: { mode: 'shadow', threshold: 1 } });
    await s.recall('lighthouse', { topK: 2, deepSearch: { mode: 'shadow', threshold: 0 } }); // confident: counted as a recall, not an invocation
    const st = await s.deepSearchStats(3);
    expect(st.invocations).toBe(1);
    expect(st.series.length).toBe(3);
    expect(st.series[2]).toMatchObject({ invocations: 1, recalls: 2, rate: 0.5 });
    expect(st.meanMs).not.toBeNull();
  });
});
