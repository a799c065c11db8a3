// The bridge's call timeout and a reader the services hand the engine (careful ranking's judge, the
// language model on this computer): the call may take deep search's time limit on top, so a model
// slower than the bridge's own limit but inside deep search's still answers (the real engine API
// over a MessageChannel; the model function crosses as a Comlink proxy).
import { describe, expect, it } from 'vitest';
import { serializeSpace } from '../core/spaces';
import type { EngineModelSource } from '../protocol/engine';
import { engineDoc, engineWorkers } from '../testing/engine';
import { createEngineBridge } from './engine-bridge';

/** Fresh each load: the bridge transfers the vectors' buffers to the worker. */
const docs = () => [engineDoc('a', 'garden shed roof leaks', [1, 0]), engineDoc('b', 'garden hose is cracked', [0.9, 0.1]), engineDoc('x', 'bought tomato seedlings', [0, 1])].map((d, i) => ({
  ...d,
  createdAt: 1_000 + i * 60_000,
  validFrom: 1_000 + i * 60_000,
  sessionId: 's1',
}));
const query = { text: 'garden', features: { E1: serializeSpace('E1', Float32Array.of(1, 0)) }, sessionId: 'tab' };
/** A model answering after `ms` (real time), scoring the seedlings. */
const slowModel =
  (ms: number): EngineModelSource =>
  () =>
    new Promise((r) => setTimeout(() => r({ scores: [{ id: 'x', score: 0.9, reasons: ['seedlings'] }], ms }), ms));

describe('engine bridge with a reader handed in', () => {
  it("a model slower than the bridge's limit (150 ms) but inside deep search's (2 s) answers", async () => {
    const { spawn } = engineWorkers();
    const engine = createEngineBridge({ spawn, timeoutMs: 150, source: async () => ({ docs: docs(), dim: 2 }) });
    await engine.stats(); // loaded: the timed calls below measure the recall only
    const deep = { topK: 2, deepSearch: { mode: 'active' as const, threshold: 1, timeoutMs: 2_000 } };
    const out = await engine.recall(query, deep, undefined, undefined, slowModel(400));
    expect(out.deepSearch).toMatchObject({ status: 'merged', model: { read: 1 } });
    expect(out.results.find((r) => r.id === 'x')?.deep?.reasons).toEqual(['the language model on this computer: seedlings']);
    engine.dispose();
  });

  it('the same slow model with the deep limit at 1 ms: the primary results, marked timeout, inside the call', async () => {
    const { spawn } = engineWorkers();
    const engine = createEngineBridge({ spawn, timeoutMs: 150, source: async () => ({ docs: docs(), dim: 2 }) });
    await engine.stats();
    const out = await engine.recall(query, { topK: 2, deepSearch: { mode: 'active', threshold: 1, timeoutMs: 1 } }, undefined, undefined, slowModel(400));
    expect(out.deepSearch?.status).toBe('timeout');
    engine.dispose();
  });
});
