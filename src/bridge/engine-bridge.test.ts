import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import { serializeSpace } from '../core/spaces';
import type { EngineDoc } from '../protocol/engine';
import { createEngineApi, EngineCore } from '../../workers/engine-core';
import { createEngineBridge, type EngineSnapshot, type WorkerHandle } from './engine-bridge';

function doc(id: string, text: string, vector: number[] | null): EngineDoc {
  return {
    id,
    text,
    tags: [],
    importance: 0.5,
    createdAt: 1,
    validFrom: 1,
    validTo: null,
    status: 'active',
    ...(vector ? { features: { E1: serializeSpace('E1', new Float32Array(vector)) } } : {}),
  };
}

/** A "worker" on a MessageChannel running the real engine API, with a crash switch. */
function fakeSpawner(hooks: { beforeSearch?: () => Promise<void> } = {}) {
  let entered!: () => void;
  const searchEntered = new Promise<void>((r) => (entered = r));
  const spawned: { crash: (d: string) => void; core: EngineCore; terminated: boolean }[] = [];
  const spawn = (): WorkerHandle => {
    const { port1, port2 } = new MessageChannel();
    const core = new EngineCore();
    const api = createEngineApi(core);
    if (hooks.beforeSearch) {
      const inner = api.search;
      api.search = async (...a) => {
        entered();
        await hooks.beforeSearch!();
        return inner(...a);
      };
    }
    Comlink.expose(api, port2 as unknown as Comlink.Endpoint);
    let onCrash: (d: string) => void = () => undefined;
    const rec = { crash: (d: string) => onCrash(d), core, terminated: false };
    spawned.push(rec);
    return {
      port: port1 as unknown as Comlink.Endpoint,
      terminate: () => {
        rec.terminated = true;
        port1.close();
        port2.close();
      },
      onCrash: (cb) => {
        onCrash = cb;
      },
    };
  };
  return { spawn, spawned, searchEntered };
}

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    return e instanceof AppError ? e.code : `not AppError: ${String(e)}`;
  }
}

describe('engine bridge', () => {
  it('starts lazily, loads from the source (vectors transferred) and searches', async () => {
    const { spawn, spawned } = fakeSpawner();
    const docs = [doc('a', 'apples and pears', [1, 0]), doc('b', 'bananas', [0, 1])];
    const vecA = docs[0].features!.E1!;
    let loads = 0;
    const engine = createEngineBridge({ spawn, source: async () => (loads++, { docs, dim: 2 }) });
    expect(spawned.length).toBe(0); // lazy
    const hits = await engine.search({ text: 'apples', vector: new Float32Array([1, 0]) }, { topK: 2 });
    expect(spawned.length).toBe(1);
    expect(loads).toBe(1);
    expect(hits[0].id).toBe('a');
    expect(vecA.byteLength).toBe(0); // the buffer moved to the worker rather than being copied
    expect((await engine.stats()).size).toBe(2);
    engine.dispose();
  });

  it('turns worker errors into AppErrors with their code', async () => {
    const { spawn } = fakeSpawner();
    const engine = createEngineBridge({ spawn, source: async () => ({ docs: [], dim: 2 }) });
    expect(await codeOf(engine.upsert(doc('x', 'x', [1, 2, 3])))).toBe('INVALID_EMBEDDING');
    expect(await codeOf(engine.search({ text: 'x', vector: null }, { topK: -1 }))).toBe('INVALID_OPTION');
    engine.dispose();
  });

  it('a crash rejects pending calls with WORKER_CRASHED, then restarts and reloads', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { spawn, spawned, searchEntered } = fakeSpawner({ beforeSearch: () => gate });
    let snapshot: EngineSnapshot = { docs: [doc('a', 'alpha', [1, 0])], dim: 2 };
    let loads = 0;
    const crashes: string[] = [];
    const engine = createEngineBridge({ spawn, source: async () => (loads++, snapshot), onCrash: (e) => crashes.push(e.code) });
    await engine.start();
    const pending = engine.search({ text: 'alpha', vector: null }, { topK: 1 });
    await searchEntered;
    spawned[0].crash('boom'); // the search is in flight
    expect(await codeOf(pending)).toBe('WORKER_CRASHED');
    expect(crashes).toEqual(['WORKER_CRASHED']);
    expect(spawned[0].terminated).toBe(true);
    release();
    // the database changed meanwhile: the new worker is filled from it
    snapshot = { docs: [doc('a', 'alpha', [1, 0]), doc('b', 'beta', [0, 1])], dim: 2 };
    const hits = await engine.search({ text: 'beta', vector: null }, { topK: 1 });
    expect(spawned.length).toBe(2);
    expect(loads).toBe(2);
    expect(hits.map((h) => h.id)).toEqual(['b']);
    engine.dispose();
  });

  it('abort rejects at once with ABORTED and cancels the request in the worker', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { spawn, spawned, searchEntered } = fakeSpawner({ beforeSearch: () => gate });
    const engine = createEngineBridge({ spawn, source: async () => ({ docs: [doc('a', 'alpha', null)], dim: 2 }) });
    await engine.start();
    const ac = new AbortController();
    const p = engine.search({ text: 'alpha', vector: null }, { topK: 1 }, ac.signal);
    await searchEntered; // the request is in the worker
    ac.abort();
    release();
    expect(await codeOf(p)).toBe('ABORTED');
    // the cancel reached the worker before the search ran, so it did no work
    await expect.poll(async () => (await engine.stats()).cancelled).toBe(1);
    expect(spawned[0].core.stats().searches).toBe(0);
    const pre = new AbortController();
    pre.abort();
    expect(await codeOf(engine.search({ text: 'a', vector: null }, { topK: 1 }, pre.signal))).toBe('ABORTED');
    engine.dispose();
  });

  it('a hung worker times out and is replaced', async () => {
    const { spawn, spawned } = fakeSpawner({ beforeSearch: () => new Promise(() => undefined) });
    const engine = createEngineBridge({ spawn, timeoutMs: 50, source: async () => ({ docs: [], dim: 2 }) });
    expect(await codeOf(engine.search({ text: 'a', vector: null }, { topK: 1 }))).toBe('TIMEOUT');
    expect(spawned[0].terminated).toBe(true);
    expect((await engine.stats()).loaded).toBe(true);
    expect(spawned.length).toBe(2);
    engine.dispose();
  });

  it('a failed load does not poison later calls', async () => {
    const { spawn } = fakeSpawner();
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
