// The bridge against engine "workers" on a MessageChannel running the real engine API.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../core/errors';
import { engineDoc, engineWorkers } from '../testing/engine';
import { codeOf } from '../testing/errors';
import { gate } from '../testing/gate';
import { createEngineBridge, type EngineSnapshot } from './engine-bridge';

afterEach(() => {
  vi.useRealTimers();
});

describe('engine bridge', () => {
  it('starts lazily, loads from the source (vectors transferred) and searches', async () => {
    const { spawn, workers } = engineWorkers();
    const docs = [engineDoc('a', 'apples and pears', [1, 0]), engineDoc('b', 'bananas', [0, 1])];
    const vecA = docs[0].features!.E1!;
    let loads = 0;
    const engine = createEngineBridge({ spawn, source: async () => (loads++, { docs, dim: 2 }) });
    expect(workers.length).toBe(0); // lazy
    const hits = await engine.search({ text: 'apples', vector: new Float32Array([1, 0]) }, { topK: 2 });
    expect(workers.length).toBe(1);
    expect(loads).toBe(1);
    expect(hits[0].id).toBe('a');
    expect(vecA.byteLength).toBe(0); // the buffer moved to the worker rather than being copied
    expect((await engine.stats()).size).toBe(2);
    engine.dispose();
  });

  it('turns worker errors into AppErrors with their code', async () => {
    const { spawn } = engineWorkers();
    const engine = createEngineBridge({ spawn, source: async () => ({ docs: [], dim: 2 }) });
    expect(await codeOf(engine.upsert(engineDoc('x', 'x', [1, 2, 3])))).toBe('INVALID_EMBEDDING');
    expect(await codeOf(engine.search({ text: 'x', vector: null }, { topK: -1 }))).toBe('INVALID_OPTION');
    engine.dispose();
  });

  it('a crash rejects pending calls with WORKER_CRASHED, then restarts and reloads', async () => {
    const held = gate();
    const { spawn, workers, searchEntered } = engineWorkers({ beforeSearch: () => held.opened });
    let snapshot: EngineSnapshot = { docs: [engineDoc('a', 'alpha', [1, 0])], dim: 2 };
    let loads = 0;
    const crashes: string[] = [];
    const engine = createEngineBridge({ spawn, source: async () => (loads++, snapshot), onCrash: (e) => crashes.push(e.code) });
    await engine.start();
    const pending = engine.search({ text: 'alpha', vector: null }, { topK: 1 });
    await searchEntered;
    workers[0].crash('boom'); // the search is in flight
    expect(await codeOf(pending)).toBe('WORKER_CRASHED');
    expect(crashes).toEqual(['WORKER_CRASHED']);
    expect(workers[0].terminated).toBe(true);
    held.open();
    // the database changed meanwhile: the new worker is filled from it
    snapshot = { docs: [engineDoc('a', 'alpha', [1, 0]), engineDoc('b', 'beta', [0, 1])], dim: 2 };
    const hits = await engine.search({ text: 'beta', vector: null }, { topK: 1 });
    expect(workers.length).toBe(2);
    expect(loads).toBe(2);
    expect(hits.map((h) => h.id)).toEqual(['b']);
    engine.dispose();
  });

  it('abort rejects at once with ABORTED and cancels the request in the worker', async () => {
    const held = gate();
    const { spawn, cores, searchEntered } = engineWorkers({ beforeSearch: () => held.opened });
    const engine = createEngineBridge({ spawn, source: async () => ({ docs: [engineDoc('a', 'alpha', null)], dim: 2 }) });
    await engine.start();
    const ac = new AbortController();
    const p = engine.search({ text: 'alpha', vector: null }, { topK: 1 }, ac.signal);
    await searchEntered; // the request is in the worker
    ac.abort();
    held.open();
    expect(await codeOf(p)).toBe('ABORTED');
    // the cancel reached the worker before the search ran, so it did no work
    // (stats is sent after the search's slot frees, so behind the cancel on the same port)
    expect((await engine.stats()).cancelled).toBe(1);
    expect(cores[0].stats().searches).toBe(0);
    const pre = new AbortController();
    pre.abort();
    expect(await codeOf(engine.search({ text: 'a', vector: null }, { topK: 1 }, pre.signal))).toBe('ABORTED');
    engine.dispose();
  });

  it('a hung worker times out and is replaced', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] }); // the port stays real
    const { spawn, workers, searchEntered } = engineWorkers({ beforeSearch: () => new Promise(() => undefined) });
    const engine = createEngineBridge({ spawn, timeoutMs: 50, source: async () => ({ docs: [], dim: 2 }) });
    const hung = codeOf(engine.search({ text: 'a', vector: null }, { topK: 1 }));
    await searchEntered;
    await vi.advanceTimersByTimeAsync(49);
    expect(workers[0].terminated).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await hung).toBe('TIMEOUT');
    expect(workers[0].terminated).toBe(true);
    expect((await engine.stats()).loaded).toBe(true);
    expect(workers.length).toBe(2);
    engine.dispose();
  });

  it('a failed load does not poison later calls', async () => {
    const { spawn } = engineWorkers();
    let fail = true;
    const engine = createEngineBridge({
      spawn,
      source: async () => {
        if (fail) throw new AppError('DB_UNAVAILABLE');
        return { docs: [], dim: 2 };
      },
    });
    expect(await codeOf(engine.start())).toBe('DB_UNAVAILABLE');
    fail = false;
    await engine.start();
    expect((await engine.stats()).loaded).toBe(true);
    engine.dispose();
  });
});
