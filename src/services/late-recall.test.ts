// Late interaction through the services and the real engine (the fake encoder named as MiniLM, so
// MiniLM's calibration applies: an encoder without a calibration of its own gets the neutral one): the first answer is `refinable`; recall with `refine` re-scores the
// first pass's candidates with the embed bridge's token matrices; a failing bridge keeps the first
// answer; a repeated refinement reads the cache.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import type { TokenMatrix } from '../core/pipeline';
import { services } from './index';
import { embedderFeaturizer } from './featurizer';
import { createFakeEmbedder } from '../testing/encoder';
import { createChannelEngine } from '../testing/engine';
import { freshDbName, initTestServices } from '../testing/services';
import type { EngineClient } from '../bridge/engine-bridge';
import { DEFAULT_ENCODER_ID } from '../embed/encoders';
import { openDb } from '../db/db';
import { getSetting } from '../db/repo';
import { DEEP_SETTING_KEYS } from './deep-recall';

const TART = 'lemon tart with a crisp base';
const CURD = 'lemon curd needs more zest';

/**
 * Every text is one token (id 7); its vector is [1] for the curd and the query, [-1] otherwise: by
 * MaxSim the curd matches the query (1) and the tart opposes it (-1). Token 7 is in both
 * candidates: idf ln(3 / 2.5) > 0, so the one query token decides.
 */
function tokensBridge(calls: string[][], fail = { now: false }) {
  return async (texts: string[], _signal?: AbortSignal, idsOnly = false): Promise<TokenMatrix[] | null> => {
    calls.push(texts);
    if (fail.now) throw new AppError('WORKER_CRASHED');
    return texts.map((t) => ({ ids: [7], vectors: idsOnly ? new Float32Array(0) : Float32Array.of(t.includes('tart with') ? -1 : 1), dim: 1 }));
  };
}

/** Token-bridge calls; `recalls` counts the engine's recall messages. */
async function setup(fail = { now: false }, recalls = { n: 0 }, encoderId: string = DEFAULT_ENCODER_ID, dbName = freshDbName()) {
  const calls: string[][] = [];
  const embedder = createFakeEmbedder(32, encoderId);
  const featurizer = { ...embedderFeaturizer(embedder), tokens: tokensBridge(calls, fail) };
  const engine = createChannelEngine();
  const counted = (source: Parameters<typeof engine.factory>[0]): EngineClient => {
    const client = engine.factory(source);
    const recall: EngineClient['recall'] = (...args) => {
      recalls.n++;
      return client.recall(...args);
    };
    return Object.assign(Object.create(client) as EngineClient, { recall });
  };
  await initTestServices({ embedder, featurizer, engine: counted, dbName });
  await services().addMemory({ text: TART });
  await services().addMemory({ text: CURD });
  return calls;
}

describe('recall refined by late interaction', () => {
  it('the first answer is refinable; refine re-scores the candidates with their token matrices', async () => {
    const recalls = { n: 0 };
    const calls = await setup(undefined, recalls);
    const first = await services().recall('lemon tart');
    expect(recalls.n).toBe(1);
    expect(first.results[0].memory.text).toBe(TART); // by words and meaning alone
    expect([first.refinable, first.refined]).toEqual([true, undefined]);
    expect(calls).toEqual([]); // the first answer never waits for the encoder's token outputs

    const refined = await services().recall('lemon tart', { refine: true });
    // tart (s - 3) / 4 against curd (s' + 3) / 4: the curd first now
    expect(refined.results.map((v) => v.memory.text)).toEqual([CURD, TART]);
    expect([refined.refined, refined.refinable]).toEqual([true, undefined]);
    expect(recalls.n).toBe(2); // the first pass's candidates were remembered: one engine call more, not two
    expect(calls[0]).toEqual(['lemon tart']); // the query, then both candidates in full (depth 30)
    expect([...calls[1]].sort()).toEqual([CURD, TART]);

    const before = calls.length;
    await services().recall('lemon tart', { refine: true });
    expect(calls.length).toBe(before); // every matrix cached
  });

  it('a failing embed bridge keeps the first answer (not refined, no error)', async () => {
    const fail = { now: true };
    await setup(fail);
    await services().recall('lemon tart'); // the answer shown: its candidates remembered
    const out = await services().recall('lemon tart', { refine: true });
    expect(out.results[0].memory.text).toBe(TART);
    expect(out.refined).toBeUndefined();
  });

  it('an aborted refinement (a newer query) rejects ABORTED', async () => {
    await setup();
    const ac = new AbortController();
    const p = services().recall('lemon tart', { refine: true }, ac.signal);
    ac.abort();
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
  });

  it('USE-lite (its calibration has no late interaction): nothing refinable, refine asks for no token', async () => {
    const calls = await setup(undefined, undefined, 'use-lite-en/v1');
    const first = await services().recall('lemon tart');
    expect(first.refinable).toBeUndefined();
    const again = await services().recall('lemon tart', { refine: true });
    expect([again.refined, calls]).toEqual([undefined, []]);
    expect(again.results[0].memory.text).toBe(TART);
  });

  // A refinement is the query the person already asked, answered again: whatever counts queries
  // counts it once, with its first answer (the session's actions, deep search's log, its daily
  // recall count and its session limit). Watch-only deep search (threshold 1: every query
  // escalates) leaves the first answer refinable.
  const shadow = { deepSearch: { mode: 'shadow', threshold: 1 } } as const;
  async function counts(dbName: string) {
    const db = await openDb(dbName);
    const log = await db.deepSearchLog.toArray();
    const perDay = (await getSetting<Record<string, number>>(db, DEEP_SETTING_KEYS.recalls)) ?? {};
    db.close();
    return { log: log.map((r) => r.status), recalls: Object.values(perDay).reduce((a, b) => a + b, 0), actions: services().sessionState().actions };
  }

  it('a refined query is counted once: session actions, the deep search log and its daily recall count', async () => {
    const dbName = freshDbName();
    await setup(undefined, undefined, DEFAULT_ENCODER_ID, dbName);
    const before = services().sessionState().actions;
    const first = await services().recall('lemon tart', shadow);
    expect([first.deepSearch?.status, first.refinable]).toEqual(['shadow', true]);
    const refined = await services().recall('lemon tart', { ...shadow, refine: true });
    expect(refined.refined).toBe(true);
    expect(refined.deepSearch?.status).toBe('shadow'); // the first pass's report, kept
    expect({ ...(await counts(dbName)), actions: services().sessionState().actions - before }).toEqual({ log: ['shadow'], recalls: 1, actions: 1 });
    expect((await services().engineStats()).recalls).toBe(1);
  });

  it('a refinement that fails answers with the first pass again without escalating or counting it again', async () => {
    const dbName = freshDbName();
    const fail = { now: true };
    const recalls = { n: 0 };
    await setup(fail, recalls, DEFAULT_ENCODER_ID, dbName);
    const before = services().sessionState().actions;
    const first = await services().recall('lemon tart', shadow);
    const again = await services().recall('lemon tart', { ...shadow, refine: true });
    expect(again.refined).toBeUndefined();
    expect(again.results.map((r) => r.memory.id)).toEqual(first.results.map((r) => r.memory.id));
    expect(recalls.n).toBe(2); // the first pass, run again for its answer
    expect({ ...(await counts(dbName)), actions: services().sessionState().actions - before }).toEqual({ log: ['shadow'], recalls: 1, actions: 1 });
    expect((await services().engineStats()).recalls).toBe(1); // the engine was told: a repeat (it escalated once)
  });
});
