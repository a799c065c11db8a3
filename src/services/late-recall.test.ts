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
import { initTestServices } from '../testing/services';
import type { EngineClient } from '../bridge/engine-bridge';
import { DEFAULT_ENCODER_ID } from '../embed/encoders';

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
async function setup(fail = { now: false }, recalls = { n: 0 }, encoderId: string = DEFAULT_ENCODER_ID) {
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
  await initTestServices({ embedder, featurizer, engine: counted });
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
});
