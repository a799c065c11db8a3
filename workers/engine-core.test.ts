import { describe, expect, it } from 'vitest';
import { AppError } from '../src/core/errors';
import type { IndexDoc } from '../src/core/hybrid';
import { createEngineApi, EngineCore, toEnvelope } from './engine-core';

const doc = (id: string, text: string, vector: number[] | null = null): IndexDoc => ({
  id,
  text,
  tags: [],
  importance: 0.5,
  createdAt: 1,
  validFrom: 1,
  validTo: null,
  status: 'active',
  vector: vector && new Float32Array(vector),
});

describe('EngineCore', () => {
  it('refuses work before load, then searches what was loaded', async () => {
    const core = new EngineCore();
    expect(() => core.upsert(doc('a', 'x'))).toThrow(AppError);
    expect(core.load([doc('a', 'red apple', [1, 0]), doc('b', 'green pear', [0, 1])], { dim: 2 })).toEqual({ size: 2 });
    const hits = await core.search({ text: 'pear', vector: new Float32Array([0, 1]) }, { topK: 1 });
    expect(hits.map((h) => h.id)).toEqual(['b']);
    expect(core.stats()).toMatchObject({ loaded: true, dim: 2, size: 2, searches: 1 });
  });

  it('load replaces the index; a bad doc leaves the old one in place', async () => {
    const core = new EngineCore();
    core.load([doc('a', 'one')], { dim: 2 });
    core.load([doc('b', 'two')], { dim: 2 });
    expect(core.stats().size).toBe(1);
    expect(() => core.load([doc('c', 'three', [1, 2, 3])], { dim: 2 })).toThrow(AppError);
    expect((await core.search({ text: 'two', vector: null }, { topK: 5 })).map((h) => h.id)).toEqual(['b']);
  });

  it('a search cancelled before it runs does no work', async () => {
    const core = new EngineCore();
    core.load([doc('a', 'alpha')], { dim: 2 });
    const p = core.search({ text: 'alpha', vector: null }, { topK: 1 }, 7);
    core.cancel(7); // arrives while the search yields
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
    expect(core.stats()).toMatchObject({ searches: 0, cancelled: 1 });
    expect((await core.search({ text: 'alpha', vector: null }, { topK: 1 }, 8)).length).toBe(1);
  });
});

describe('engine api', () => {
  it('throws plain envelopes, never Error objects', async () => {
    const api = createEngineApi(new EngineCore());
    const e = await api.upsert(doc('a', 'x')).catch((x: unknown) => x);
    expect(e).not.toBeInstanceOf(Error);
    expect(e).toMatchObject({ code: 'INVALID_CONFIG' });
    expect(structuredClone(e)).toEqual(e);
    expect(toEnvelope(new TypeError('boom'))).toEqual({ code: 'WORKER_CRASHED', message: 'The search engine failed unexpectedly.', detail: 'TypeError: boom' });
  });
});
