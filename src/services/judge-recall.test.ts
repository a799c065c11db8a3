// Careful ranking through the services and the real engine (the fake encoder named as MiniLM, so
// MiniLM's calibration and its judge apply): once the judge has read the memories, a refinement asks
// the engine for the judge's depth (30) on the first pass's pool, re-scores by hand-worked amounts
// and cuts the answer back to the topK asked; off, the refinement is the plain one.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { TokenMatrix } from '../core/pipeline';
import type { RecallOptionsInput } from '../core/recall';
import type { EngineClient } from '../bridge/engine-bridge';
import { fakeJudgeClient } from '../testing/judge-client';
import { DEFAULT_ENCODER_ID } from '../embed/encoders';
import { createFakeEmbedder } from '../testing/encoder';
import { createChannelEngine } from '../testing/engine';
import { initTestServices } from '../testing/services';
import { embedderFeaturizer } from './featurizer';
import { services } from './index';

const TART = 'lemon tart with a crisp base';
const CURD = 'lemon curd needs more zest';
const J = 'all-mpnet-base-v2-int8';

/** The judge: the query and the tart at cos 1, the curd at cos 0. */
const judgeClient = () => fakeJudgeClient(J, (t) => (t === CURD ? Float32Array.of(0, 1) : Float32Array.of(1, 0))).client;

async function setup() {
  const embedder = createFakeEmbedder(32, DEFAULT_ENCODER_ID);
  const tokens = async (texts: string[], _s?: AbortSignal, idsOnly = false): Promise<TokenMatrix[]> =>
    texts.map((t) => ({ ids: [7], vectors: idsOnly ? new Float32Array(0) : Float32Array.of(t.includes('tart with') ? -1 : 1), dim: 1 }));
  const asked: RecallOptionsInput[] = [];
  const engine = createChannelEngine();
  const spied = (source: Parameters<typeof engine.factory>[0]): EngineClient => {
    const client = engine.factory(source);
    const recall: EngineClient['recall'] = (q, o, signal) => {
      asked.push(o ?? {});
      return client.recall(q, o, signal);
    };
    return Object.assign(Object.create(client) as EngineClient, { recall });
  };
  await initTestServices({ embedder, featurizer: { ...embedderFeaturizer(embedder), tokens }, engine: spied, judge: judgeClient });
  await services().addMemory({ text: TART });
  await services().addMemory({ text: CURD });
  await services().startCarefulRanking();
  await services().carefulRankingSettled();
  return asked;
}

describe('careful ranking in recall', () => {
  it('the refinement asks for the judge\'s depth, re-scores by (score + 0.25 cos) / 1.25 and cuts back to topK', async () => {
    const asked = await setup();
    expect(services().carefulRanking()).toMatchObject({ on: true, model: 'ready', read: 2, total: 2 });
    await services().setCarefulRanking(false);
    await services().recall('lemon tart', { topK: 2 });
    const plain = await services().recall('lemon tart', { topK: 2, refine: true });
    expect(plain.careful).toBeUndefined();
    expect(asked.at(-1)?.topK).toBe(2); // off: the refinement as asked
    const score = new Map(plain.results.map((v) => [v.memory.text, v.result.score]));

    await services().setCarefulRanking(true);
    await services().recall('lemon tart', { topK: 1 });
    const judged = await services().recall('lemon tart', { topK: 1, refine: true });
    // the judge's depth; candidateK must be >= topK (30, against the first pass's 5): the pool is the hybrid's depth 100 either way
    expect(asked.at(-1)).toMatchObject({ topK: 30, candidateK: 30 });
    expect(judged.careful).toMatchObject({ applied: true, model: J, depth: 30, weight: 0.25, readNow: 0 });
    expect(judged.results).toHaveLength(1); // cut back to the topK asked
    // the curd led the plain refinement (late interaction); the judge's cosines: tart 1, curd 0
    const curd = (score.get(CURD)! + 0.25 * 0) / 1.25;
    const tart = (score.get(TART)! + 0.25 * 1) / 1.25;
    expect(judged.results[0].memory.text).toBe(curd >= tart ? CURD : TART);
    expect(judged.results[0].result.score).toBeCloseTo(Math.max(curd, tart), 6);
  });
});
