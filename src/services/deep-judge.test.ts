// Deep search with careful ranking's judge, through the services and the real engine over a
// MessageChannel (so the judge function crosses as a Comlink proxy): on and ready, an escalating
// recall asks the judge for the query's vector once (kept for the next time) and the engine reads
// the pool with the stored vectors; not loaded yet, off, or failing: the offline reader, the same
// results byte for byte; a judge slower than the timeout returns the primary results, marked.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { JudgeClient } from '../bridge/judge-bridge';
import { DEFAULT_ENCODER_ID } from '../embed/encoders';
import { fakeJudgeClient } from '../testing/judge-client';
import { createFakeEmbedder } from '../testing/encoder';
import { createChannelEngine } from '../testing/engine';
import { initTestServices } from '../testing/services';
import { embedderFeaturizer } from './featurizer';
import { services } from './index';
import type { RecallOutcomeView } from './types';

const J = 'all-mpnet-base-v2-int8';
const Q = 'garden shed';
const SEEDLINGS = 'bought tomato seedlings at the market';
const TEXTS = ['the garden shed roof leaks again', 'garden hose is cracked', SEEDLINGS, 'car needs new tyres'];
/** The judge: the query and the seedlings at cosine 1, everything else at 0. */
const vectorOf = (t: string) => (t === Q || t === SEEDLINGS ? Float32Array.of(1, 0) : Float32Array.of(0, 1));
const ESCALATE = { topK: 2, deepSearch: { mode: 'active' as const, threshold: 1 } };

/** Careful ranking started before the captures (its load waits for 10 s without a search, the fill only 2 s after a capture). */
async function setup(client: () => JudgeClient, loadFirst: true | Promise<unknown> = true) {
  const embedder = createFakeEmbedder(32, DEFAULT_ENCODER_ID); // MiniLM's calibration: its judge applies
  await initTestServices({ embedder, featurizer: embedderFeaturizer(embedder), engine: createChannelEngine().factory, judge: client });
  const started = services().startCarefulRanking(); // resolves once the judge is ready (the fill runs on)
  await (loadFirst === true ? started : loadFirst); // (or until the judge's worker is asked for)
  for (const text of TEXTS) await services().addMemory({ text });
  return { started };
}
const settled = () => services().carefulRankingSettled();
const answer = (o: RecallOutcomeView) => JSON.stringify(o.results.map((r) => r.result));

describe('deep search with careful ranking', () => {
  it('on and ready: the query vector asked once on escalation, the stored vectors read, the hit says so', async () => {
    const fake = fakeJudgeClient(J, vectorOf);
    await setup(() => fake.client);
    await settled();
    const filled = fake.calls.length;
    expect(services().carefulRanking()).toMatchObject({ model: 'ready', read: 4, total: 4 });
    await services().recall(Q, { topK: 2 }); // deep search off: no judge call
    expect(fake.calls.length).toBe(filled);
    const got = await services().recall(Q, ESCALATE);
    expect(fake.calls.slice(filled)).toEqual([[Q]]);
    const pool = got.deepSearch!.pool.length;
    expect(got.deepSearch).toMatchObject({ status: 'merged', judge: { read: pool, of: pool } });
    const seedlings = got.results.find((r) => r.memory.text === SEEDLINGS)!;
    expect(seedlings.result.deep).toMatchObject({ judge: 1 });
    expect(seedlings.result.score).toBeCloseTo(0.7, 9); // the best reader score at the judge's merge weight
    // asked again: the query's vector is kept, the judge is not called
    await services().recall(Q, ESCALATE);
    expect(fake.calls.length).toBe(filled + 1);
    // adaptive mode (the services set its threshold): the weight left unset, so the judge's merge weight still applies
    const adaptive = await services().recall(Q, { topK: 2, deepSearch: { mode: 'adaptive', threshold: 1 } });
    expect(adaptive.deepSearch?.judge).toBeDefined();
    expect(adaptive.results.find((r) => r.memory.text === SEEDLINGS)!.result.score).toBeCloseTo(0.7, 9);
  });

  it('not loaded yet, turned off, or failing: the offline reader, byte-identical', async () => {
    const fake = fakeJudgeClient(J, vectorOf);
    let failQuery = false;
    let load!: () => void;
    const loading = new Promise<void>((r) => (load = r));
    let loaded = false;
    const client: JudgeClient = {
      ...fake.client,
      // still loading its model until `load()`
      ready: () => loading.then(() => ((loaded = true), fake.client.ready())),
      state: () => (loaded ? fake.client.state() : { state: 'loading' }),
      embed: (texts, signal) => (failQuery && texts.includes(Q) ? Promise.reject(new Error('the judge crashed')) : fake.client.embed(texts, signal)),
    };
    let asked!: () => void;
    const created = new Promise<void>((r) => (asked = r));
    const { started } = await setup(() => (asked(), client), created);
    const notLoaded = await services().recall(Q, ESCALATE);
    expect(notLoaded.deepSearch?.status).toBe('merged');
    expect(notLoaded.deepSearch?.judge).toBeUndefined();
    expect(fake.calls).toEqual([]);
    load();
    await started;
    await settled();
    const filled = fake.calls.length;
    await services().setCarefulRanking(false);
    const off = await services().recall(Q, ESCALATE);
    expect(fake.calls.length).toBe(filled); // off: never asked
    await services().setCarefulRanking(true);
    failQuery = true;
    const failing = await services().recall(Q, ESCALATE);
    expect(failing.deepSearch?.judge).toBeUndefined();
    expect(answer(off)).toBe(answer(notLoaded));
    expect(answer(failing)).toBe(answer(notLoaded));
    expect(JSON.stringify(failing.deepSearch!.scores)).toBe(JSON.stringify(notLoaded.deepSearch!.scores));
  });

  it("the timeout covers the judge's query vector: the primary results come back, marked", async () => {
    const fake = fakeJudgeClient(J, vectorOf);
    let hang = false;
    const client: JudgeClient = { ...fake.client, embed: (texts, signal) => (hang && texts.includes(Q) ? new Promise<never>(() => undefined) : fake.client.embed(texts, signal)) };
    await setup(() => client);
    await settled();
    const plain = await services().recall(Q, { topK: 2 });
    hang = true;
    const got = await services().recall(Q, { topK: 2, deepSearch: { mode: 'active', threshold: 1, timeoutMs: 50 } });
    expect(got.deepSearch?.status).toBe('timeout');
    expect(got.results.map((r) => r.memory.id)).toEqual(plain.results.map((r) => r.memory.id));
  });
});
