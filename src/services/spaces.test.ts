// The thirteen spaces through the services: ingest rows per present space, recall through the
// engine's pipeline (E7 code match, lateral results), feedback and the lateral evaluator,
// divergence after a topic switch, sessions, settings. The embedder is the hashed bag of words
// (512 buckets, so unrelated texts are near-orthogonal); the lexical spaces run the worker's
// code on the real resources from public/generated/.
import 'fake-indexeddb/auto';
import { storedVectors } from '../testing/db';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../core/errors';
import type { LexicalResources } from '../core/features';
import { positionFeatures } from '../core/features';
import { deserializeSpace, DEFAULT_SIMILARITY_CONFIG, type SimilarityConfig } from '../core/spaces';
import type { Memory, SpaceId } from '../core/types';
import { loadNodeResources } from '../../scripts/lib/resources-node';
import { MnemographDb } from '../db/db';
import type { VectorRow } from '../db/schema';
import { LEXICAL_ID } from '../protocol/embed';
import { createRecallController, disposeServices, services } from './index';
import { createFakeEmbedder } from '../testing/encoder';
import { codeOf } from '../testing/errors';
import { freshDbName, openOtherTab, startServices, type TestServicesOptions } from '../testing/services';
import type { Services } from './create';

/** The views of a recall (the outcome's other parts are checked where they matter). */
const recall = async (...args: Parameters<Services['recall']>) => (await services().recall(...args)).results;

let resources: LexicalResources;
beforeAll(async () => {
  resources = await loadNodeResources();
});
const HOUR = 3_600_000;

/** Every space: the hashed embedder 512 wide and the worker's featurizer on the real resources. */
const start = (opts: TestServicesOptions = {}) => startServices({ dim: 512, resources, ...opts });

async function spacesOf(id: string): Promise<SpaceId[]> {
  const rows = await storedVectors.of(services().db, id);
  return rows.map((r) => r.space).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
}

describe('ingest', () => {
  it('stores a row per present space: E7 only with code, E10 only with media, E1-E4 always', async () => {
    await start();
    const prose = await services().addMemory({ text: 'Walked along the river with Anna after lunch; the weather was lovely.' });
    const code = await services().addMemory({ text: 'Fixed the parser:\n```ts\nconst body = parseHttpResponse(rawBytes);\n```' });
    const media = await services().addMemory({ text: 'Holiday photo', media: [{ caption: 'A red kite over the beach at dusk', mime: 'image/jpeg' }] });
    const p = await spacesOf(prose.id);
    const c = await spacesOf(code.id);
    const m = await spacesOf(media.id);
    for (const got of [p, c, m]) expect(got).toEqual(expect.arrayContaining(['E1', 'E2', 'E3', 'E4', 'E6', 'E9', 'E12', 'E13']));
    expect(p).not.toContain('E7');
    expect(c).toContain('E7');
    expect(p).not.toContain('E10');
    expect(c).not.toContain('E10');
    expect(m).toContain('E10');
    // encoder spaces carry the encoder's id, the rest the featurizer's
    const rows = await storedVectors.of(services().db, code.id);
    for (const r of rows) expect(r.model).toBe(['E1', 'E5', 'E10'].includes(r.space) ? 'fake-hash/v1' : LEXICAL_ID);
    for (const r of rows) expect(r.dtype).toBe('space'); // E1 is stored like every other space
    expect((await services().engine.stats()).spaces).toBe(3);
  });

  it('derives suggested tags without the memory own tags, and accepting one moves it', async () => {
    await start();
    const m = await services().addMemory({ text: 'Met Alice Johnson about the #deploy of the billing service', tags: ['deploy'] });
    expect(m.suggestedTags).toContain('alice-johnson');
    expect(m.suggestedTags).not.toContain('deploy');
    const a = await services().acceptSuggestedTag(m.id, 'Alice Johnson');
    expect(a.tags).toEqual(['deploy', 'alice-johnson']);
    expect(a.suggestedTags).not.toContain('alice-johnson');
    expect(await codeOf(services().acceptSuggestedTag(m.id, 'not-suggested'))).toBe('INVALID_OPTION');
    const b = await services().setTags(m.id, 'Billing, deploy');
    expect(b.tags).toEqual(['billing', 'deploy']);
    expect(b.suggestedTags).not.toContain('billing');
  });

  it('editing the text recomputes every space: a space the old text had does not outlive it', async () => {
    const { s } = await start();
    const m = await services().addMemory({ text: 'Refactored `loadUserProfile()` into two calls' });
    expect(await spacesOf(m.id)).toContain('E7');
    const u = await services().updateMemory(m.id, { text: 'Talked with Bob Marley about gardening' });
    expect(await spacesOf(m.id)).not.toContain('E7');
    expect(u.suggestedTags).toContain('bob-marley');
    // the earlier version keeps the old text's features (history, asOf); the memory itself has the new ones
    const [, earlier] = await services().memoryHistory(m.id);
    expect(await spacesOf(earlier.memory.id)).toContain('E7');
    expect((await s.engine.stats()).spaces).toBe(2);
    const v = (await recall('`loadUserProfile()`')).find((x) => x.memory.id === m.id);
    expect(v?.result.spaces.sims.E7).toBeUndefined();
  });

  it('sessions: positions 0, 1, ... in E4; a new session after 30 idle minutes', async () => {
    let t = 1_700_000_000_000;
    const { s } = await start({ now: () => t });
    const a = await services().addMemory({ text: 'first thought' });
    t += 10 * 60_000;
    const b = await services().addMemory({ text: 'second thought' });
    t += 31 * 60_000;
    const c = await services().addMemory({ text: 'after a long break' });
    expect(a.sessionId).toBe(b.sessionId);
    expect(c.sessionId).not.toBe(a.sessionId);
    const e4 = async (id: string) => Array.from(deserializeSpace('E4', (await storedVectors.get(s.db, id, 'E4'))!.data) as Float32Array);
    const close = (xs: number[], ys: Float32Array) => xs.forEach((x, i) => expect(x).toBeCloseTo(ys[i], 6));
    close(await e4(a.id), positionFeatures(0));
    close(await e4(b.id), positionFeatures(1));
    close(await e4(c.id), positionFeatures(0));
    expect((await s.db.settings.get('session'))?.value).toMatchObject({ id: c.sessionId, next: 1 });
  });
});

describe('recall', () => {
  it('a query in code finds a code memory through E7 with no shared word', async () => {
    await start();
    const code = await services().addMemory({ text: 'Note to self:\n```ts\nconst body = parseHttpResponse(rawBytes);\n```' });
    await services().addMemory({ text: 'Other snippet:\n```js\nlet total = sumPrices(cartItems);\n```' });
    await services().addMemory({ text: 'Went swimming in the lake before breakfast.' });
    await services().addMemory({ text: 'Planted tomatoes and basil in the garden.' });
    const views = await recall('`parse_http_response(raw_bytes)`');
    const hit = views[0];
    expect(hit.memory.id).toBe(code.id);
    expect(hit.result.why.bm25).toBe(0); // not one word in common
    expect(hit.result.why.matchedTerms).toEqual([]);
    expect(hit.result.spaces.sims.E7).toBeGreaterThan(0);
    expect(hit.result.spaces.sims.E7!).toBeGreaterThan(views.find((v) => v.memory.id !== code.id && v.result.spaces.sims.E7 !== undefined)?.result.spaces.sims.E7 ?? 0);
  });

  it('DIVERGENT returns lateral results marked lateral; reinforce / suppress change the next ranking and the metrics', async () => {
    const { s } = await start();
    const a = await services().addMemory({ text: 'database indexing with btree pages', tags: ['storage', 'performance'] });
    await services().addMemory({ text: 'baking sourdough bread at home', tags: ['kitchen'] });
    const far: Memory[] = [];
    for (const [text, tags] of [
      ['file system layouts on spinning disks', ['storage', 'performance']],
      ['tape archives in the cold vault', ['storage']],
      ['caching photos on the phone', ['performance']],
      ['cargo containers stacked at the harbour', ['storage']],
    ] as const)
      far.push(await services().addMemory({ text, tags: [...tags] }));
    const q = { text: 'database indexing', tags: ['storage', 'performance'] };
    const opts = { profile: 'DIVERGENT' as const, lateralMaxResults: 4 };
    const first = await recall(q, opts);
    expect(first[0].memory.id).toBe(a.id);
    expect(first[0].result.mode).toBe('standard');
    const lateral = first.filter((v) => v.result.mode === 'lateral');
    expect(lateral.map((v) => v.memory.id).sort()).toEqual(far.map((m) => m.id).sort());
    // seed 000: d/(1+d) x overlap x importance x decay; unrelated hashed vectors: cos 0 -> d = sqrt 2
    const fs = lateral.find((v) => v.memory.id === far[0].id)!.result;
    expect(fs.tagOverlap).toBe(1);
    expect(fs.distance).toBeCloseTo(Math.SQRT2, 5);
    expect(fs.lateralScore).toBeCloseTo((Math.SQRT2 / (1 + Math.SQRT2)) * 1 * 0.5, 3);
    expect(lateral.find((v) => v.memory.id === far[1].id)!.result.tagOverlap).toBe(0.5);
    expect(await services().lateralStatus()).toMatchObject({ enabled: true, samples: 4, reinforced: 0, suppressed: 0, lur: 0, lsr: 0, lhi: 0 });

    // data, not wording: the UI words the confirmation line
    expect(await services().reinforce(far[0].id, 50)).toMatchObject({ wasLateral: true, row: { memoryId: far[0].id, kind: 'reinforce', valence: 50 } });
    expect(await services().reinforce(a.id, 100)).toMatchObject({ wasLateral: false, row: { valence: 100, mode: 'standard' } }); // a standard result: not counted
    expect(await services().suppress(far[1].id, '  irrelevant ')).toMatchObject({ wasLateral: true, row: { kind: 'suppress', reason: 'irrelevant' } });
    const long = await services().suppress(far[1].id, 'x'.repeat(501)).catch((x) => x);
    expect([long.code, long.message]).toEqual(['INVALID_OPTION', 'A reason must be text of at most 500 characters.']);
    await services().reinforce(far[2].id, 20);
    // returned 4, reinforced 2, suppressed 1: LUR 2/4, LSR 1/4, LHI 1/3
    const st = await services().lateralStatus();
    expect(st).toMatchObject({ samples: 4, reinforced: 2, suppressed: 1, lur: 0.5, lsr: 0.25 });
    expect(st.lhi).toBeCloseTo(1 / 3, 12);
    // stored with the seed's scale and the mode the memory was returned in
    const rows = await s.db.feedback.where('memoryId').equals(far[0].id).toArray();
    expect(rows).toMatchObject([{ kind: 'reinforce', valence: 50, mode: 'lateral' }]);

    const outcome = await services().recall(q, opts);
    expect(outcome.lateralStatus).toEqual(await services().lateralStatus()); // the status came with the recall
    const second = outcome.results;
    const top = second[0].result;
    expect(top.id).toBe(a.id);
    expect(top.feedbackFactor).toBeCloseTo(1 + 0.5 * Math.tanh(100 / 200), 6);
    expect(top.score / first[0].result.score).toBeCloseTo(1 + 0.5 * Math.tanh(100 / 200), 5);
    const lat2 = second.filter((v) => v.result.mode === 'lateral');
    expect(lat2.map((v) => v.memory.id)).not.toContain(far[1].id); // suppressed: never lateral again
    const boosted = lat2.find((v) => v.memory.id === far[0].id)!.result;
    expect(boosted.lateralScore! / fs.lateralScore!).toBeCloseTo(1 + 0.5 * Math.tanh(50 / 200), 3);
    // the evaluator persisted with the new returns (4 + 3)
    expect(((await s.db.settings.get('lateralEvaluator'))?.value as { returned: number }).returned).toBe(7);
    expect(await codeOf(services().reinforce(a.id, 101))).toBe('INVALID_OPTION');
    expect(await codeOf(services().reinforce('missing', 10))).toBe('NOT_FOUND');
  });

  it('the evaluator and feedback survive a restart', async () => {
    const { dbName } = await start();
    const m = await services().addMemory({ text: 'alpha beta gamma', tags: ['x'] });
    await services().reinforce(m.id, 100);
    disposeServices();
    await start({ dbName });
    const [v] = await recall('alpha');
    expect(v.result.feedbackFactor).toBeCloseTo(1 + 0.5 * Math.tanh(0.5), 6);
  });

  it('refuses invalid options and settings with the validator message', async () => {
    await start();
    await services().addMemory({ text: 'anything' });
    const e = await recall('anything', { topK: 0 }).catch((x) => x);
    expect(e).toBeInstanceOf(AppError);
    expect(e.code).toBe('INVALID_OPTION');
    expect(e.message).toMatch(/topK/);
    expect(await codeOf(services().saveRecallDefaults({ lateralDistanceThreshold: 3 }))).toBe('INVALID_OPTION');
    await services().saveRecallDefaults({ profile: 'DEBUGGING', topK: 3 });
    expect(await services().getRecallDefaults()).toEqual({ profile: 'DEBUGGING', topK: 3 });
    const bad: SimilarityConfig = structuredClone(DEFAULT_SIMILARITY_CONFIG) as SimilarityConfig;
    bad.highThresholds.E7 = 1.5;
    const err = await services().saveSimilarityConfig(bad).catch((x) => x);
    expect(err.code).toBe('INVALID_CONFIG');
    expect(err.message).toBe('Invalid threshold in config: E7 (Code) threshold 1.5 must be in [0.0, 1.0]');
    const ok = structuredClone(DEFAULT_SIMILARITY_CONFIG) as SimilarityConfig;
    ok.recentWindowHours = 5;
    await services().saveSimilarityConfig(ok);
    expect((await services().getSimilarityConfig()).recentWindowHours).toBe(5);
    expect((await services().resetSimilarityConfig()).recentWindowHours).toBe(2);
    expect((await services().getSimilarityConfig()).recentWindowHours).toBe(2);
  });
});

describe('other tabs', () => {
  it("a second tab's engine follows this tab's feedback and recall defaults", async () => {
    const { dbName } = await start();
    const tabB = await openOtherTab(dbName, { dim: 512, resources });
    await tabB.engine.start();
    const a = await services().addMemory({ text: 'picked wild blueberries' });
    const b = await services().addMemory({ text: 'picked wild raspberries' });
    await expect.poll(async () => (await tabB.engine.stats()).spaces).toBe(2);
    expect((await tabB.recall('picked wild')).results[0].memory.id).toBe(a.id); // a tie: id order
    await services().reinforce(b.id, 100);
    await expect.poll(async () => (await tabB.recall('picked wild')).results[0]?.memory.id).toBe(b.id);
    await services().saveRecallDefaults({ topK: 1 });
    await expect.poll(async () => (await tabB.recall('picked wild')).results.length).toBe(1);
  });
});

describe('upgrade and backfill', () => {
  it('v2 memories (E1 only) load, are found by words and E1, and featurizeMissing fills every space', async () => {
    const dbName = freshDbName();
    const v2 = new MnemographDb(dbName, { upTo: 2 });
    await v2.open();
    const embedder = createFakeEmbedder(512);
    const [vec] = await embedder.embed(['Fixed the parser: `parseHttpResponse(rawBytes)`']);
    const base = { tags: [], suggestedTags: [], importance: 0.5, updatedAt: 5, validFrom: 5, validTo: null, status: 'active' as const, deletedAt: null, embedTruncated: false };
    await v2.memories.bulkAdd([
      { ...base, id: 'old-1', text: 'Fixed the parser: `parseHttpResponse(rawBytes)`', createdAt: 5, sessionId: 's-old' },
      { ...base, id: 'old-2', text: 'Bought oat milk', createdAt: 6, sessionId: 's-old' },
    ]);
    // as a v2 release wrote E1: the raw floats (the v4 upgrade serialises them)
    const legacy: VectorRow = { memoryId: 'old-1', space: 'E1', dim: vec.length, dtype: 'float32', model: 'fake-hash/v1', data: vec.slice().buffer };
    await v2.vectors.add(legacy);
    await v2.feedback.add({ id: 'f1', memoryId: 'old-2', kind: 'reinforce', valence: 1, at: 7 });
    v2.close();

    const { s, featurizer } = await start({ dbName });
    expect((await s.engine.stats()).size).toBe(2);
    expect((await s.engine.stats()).spaces).toBe(1); // old-1's E1 only
    expect((await recall('oat milk'))[0].result).toMatchObject({ id: 'old-2', feedbackFactor: 1 + 0.5 * Math.tanh(100 / 200) });
    const calls = featurizer!.calls;
    const progress: number[] = [];
    expect(await services().featurizeMissing({ batchSize: 1, onProgress: (p) => progress.push(p.embedded) })).toBe(2);
    expect(progress).toEqual([1, 2]);
    expect(featurizer!.calls).toBe(calls + 2);
    expect(await spacesOf('old-1')).toEqual(expect.arrayContaining(['E1', 'E2', 'E3', 'E4', 'E6', 'E7', 'E9']));
    expect(await spacesOf('old-2')).toEqual(expect.arrayContaining(['E1', 'E2', 'E3', 'E4', 'E6']));
    // E4 from the order within the old session: old-2 is second
    const e4 = deserializeSpace('E4', (await storedVectors.get(s.db, 'old-2', 'E4'))!.data) as Float32Array;
    Array.from(positionFeatures(1)).forEach((x, i) => expect(e4[i]).toBeCloseTo(x, 6));
    expect((await s.engine.stats()).spaces).toBe(2);
    // the backfilled E7 now matches the code (old-2, reinforced, may still rank above it: one
    // E7 holder gives the blend no spread to lift it by)
    const code = (await recall('`parse_http_response(raw_bytes)`')).find((v) => v.memory.id === 'old-1')!;
    expect(code.result.spaces.sims.E7).toBeGreaterThan(0);
    expect(code.result.why.bm25).toBe(0);
    expect(await services().featurizeMissing()).toBe(0); // nothing left
  });
});

describe('model change', () => {
  it('memories keep their lexical spaces while another encoder runs; featurizeMissing does not move the store', async () => {
    const { dbName } = await start();
    const m = await services().addMemory({ text: 'Repaired the bicycle chain with a new master link' });
    disposeServices();
    await start({ dbName, model: 'fake-hash/v2' });
    const before = (await recall('bicycle chain master link')).find((x) => x.memory.id === m.id)!;
    expect(before.result.spaces.sims.E1).toBeUndefined(); // the old encoder's vector is not mixed in
    expect(before.result.spaces.sims.E6).toBeGreaterThan(0.5);
    expect(await services().featurizeMissing()).toBe(0); // the switch alone moves a store (encoder-switch.test.ts)
    expect((await storedVectors.get(services().db, m.id, 'E1'))!.model).toBe('fake-hash/v1');
    expect(await spacesOf(m.id)).toEqual(expect.arrayContaining(['E1', 'E6']));
  });

  it('the recall controller answers the newest request and marks older ones stale', async () => {
    await start();
    await services().addMemory({ text: 'kayaking on the fjord' });
    const c = createRecallController();
    const [a, b] = await Promise.all([c.run('kayak'), c.run('fjord', { topK: 1 })]);
    expect(a.status).toBe('stale');
    expect(b).toMatchObject({ status: 'fresh', query: 'fjord' });
    if (b.status === 'fresh') expect(b.results.results.map((v) => v.memory.text)).toEqual(['kayaking on the fjord']);
  });
});

describe('divergence', () => {
  it('appears after a topic switch (content spaces only), not when only the time differs', async () => {
    let t = 1_700_000_000_000;
    await start({ now: () => t });
    const cooking: Memory[] = [];
    for (const text of ['Simmered a tomato sauce with basil and garlic', 'Roasted garlic for the tomato sauce', 'Tasted the sauce, added more basil']) {
      cooking.push(await services().addMemory({ text }));
      t += 5 * 60_000;
    }
    // the same content again, later: only E2-E4 differ -> no alert
    t += HOUR;
    const again = await services().addMemory({ text: 'Simmered a tomato sauce with basil and garlic' });
    let d = services().latestDivergence()!;
    expect(d.trigger).toBe('capture');
    expect(d.memoryId).toBe(again.id);
    expect(d.recentIds).toEqual([cooking[2].id, cooking[1].id, cooking[0].id]); // newest first, itself excluded
    expect(d.alerts).toEqual([]);
    // a topic switch
    t += 60_000;
    const k8s = await services().addMemory({ text: 'Deployed the kubernetes cluster with helm charts' });
    d = services().latestDivergence()!;
    expect(d.memoryId).toBe(k8s.id);
    const spaces = d.alerts.map((a) => a.embedder);
    expect(spaces).toEqual(expect.arrayContaining(['E1', 'E6']));
    for (const s of spaces) expect(['E2', 'E3', 'E4']).not.toContain(s);
    const e1 = d.alerts.find((a) => a.embedder === 'E1')!;
    expect(e1.similarity).toBeLessThan(0.3);
    expect(e1.threshold).toBe(0.3);
    expect(e1.divergenceMagnitude).toBeCloseTo(0.3 - e1.similarity, 12);
    expect(e1.recentMemorySummary).toBe('Simmered a tomato sauce with basil and garlic');
    // a search on the old topic does not diverge from the window, which now holds both topics
    const out = await services().recall('tomato sauce with basil');
    d = services().latestDivergence()!;
    expect(out.divergence).toBe(d); // the recall brought it; the banner's store holds the same
    expect(d.trigger).toBe('search');
    expect(d.alerts.map((a) => a.embedder)).not.toContain('E1');
    // the recall names the recent memories that are not results by their first line; the
    // window is the current session (the hour's pause started a new one: `again` and k8s)
    const one = await services().recall('kubernetes helm', { topK: 1, profile: 'BALANCED' });
    expect(one.results.map((v) => v.memory.id)).toEqual([k8s.id]);
    expect(one.divergence!.recentIds).toEqual([k8s.id, again.id]);
    expect(one.labels).toEqual({ [again.id]: 'Simmered a tomato sauce with basil and garlic' });
    // nothing within the window: no alerts
    t += 3 * HOUR;
    await recall('kubernetes');
    expect(services().latestDivergence()).toMatchObject({ recentIds: [], alerts: [] });
  });

  it('never alerts on temporal spaces, even when the settings include them', async () => {
    let t = 1_700_000_000_000;
    await start({ now: () => t });
    const cfg = structuredClone(DEFAULT_SIMILARITY_CONFIG) as SimilarityConfig;
    cfg.excluded.E2 = false;
    cfg.excluded.E3 = false;
    cfg.lowThresholds.E2 = 1;
    cfg.lowThresholds.E3 = 1;
    await services().saveSimilarityConfig(cfg);
    await services().addMemory({ text: 'Simmered a tomato sauce with basil' });
    t += HOUR + 17 * 60_000;
    await services().addMemory({ text: 'Simmered a tomato sauce with basil' });
    expect(services().latestDivergence()!.alerts).toEqual([]);
  });

  it('stays silent while the person has turned divergence alerts off, and speaks again once on', async () => {
    let t = 1_700_000_000_000;
    await start({ now: () => t });
    const liveOn = (): Promise<boolean> =>
      new Promise((resolve) => {
        const sub = services().liveDivergenceAlerts().subscribe((v) => {
          resolve(v);
          queueMicrotask(() => sub.unsubscribe());
        });
      });
    expect(await liveOn()).toBe(true); // on by default
    await services().addMemory({ text: 'Simmered a tomato sauce with basil and garlic' });
    t += 60_000;
    await services().addMemory({ text: 'Deployed the kubernetes cluster with helm charts' });
    expect(services().latestDivergence()!.alerts.length).toBeGreaterThan(0);
    // off: the alert on screen goes, and neither a capture nor a recall brings a new one
    await services().setDivergenceAlerts(false);
    await vi.waitFor(() => expect(services().latestDivergence()).toBeNull());
    t += 60_000;
    await services().addMemory({ text: 'Knitted the second sleeve of the wool jumper' });
    expect(services().latestDivergence()).toBeNull();
    const out = await services().recall('wool jumper sleeve');
    expect(out.divergence).toBeNull();
    expect(services().latestDivergence()).toBeNull();
    // on again: the next topic switch alerts
    await services().setDivergenceAlerts(true);
    await vi.waitFor(async () => {
      t += 60_000;
      await services().addMemory({ text: 'Tuned the postgres autovacuum settings for the orders table' });
      expect(services().latestDivergence()?.alerts.length ?? 0).toBeGreaterThan(0);
    });
    await expect(services().setDivergenceAlerts('no' as unknown as boolean)).rejects.toMatchObject({ code: 'INVALID_OPTION' });
  });
});
