// The query-time refinement's token fetching against a fake embed bridge: what it asks the worker
// for (full matrices for the top `depth`, ids alone below), the cache, aborts and USE-lite.
import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import type { TokenMatrix } from '../core/pipeline';
import { createLateRefiner, textHash } from './late-refine';

interface Call {
  texts: string[];
  idsOnly: boolean;
}

/** A bridge whose matrix for text t has one token (id = t.length) and vector [t.length] (or none, ids-only). */
function fakeBridge(calls: Call[], opts: { none?: boolean; fail?: boolean; wait?: Promise<void> } = {}) {
  return {
    async tokens(texts: string[], signal?: AbortSignal, idsOnly = false): Promise<TokenMatrix[] | null> {
      calls.push({ texts, idsOnly });
      await opts.wait;
      if (signal?.aborted) throw new AppError('ABORTED');
      if (opts.fail) throw new AppError('WORKER_CRASHED');
      if (opts.none) return null;
      return texts.map((t) => ({ ids: [t.length], vectors: idsOnly ? new Float32Array(0) : Float32Array.of(t.length), dim: 1 }));
    },
  };
}

const TEXTS: Record<string, string> = { a: 'alpha', b: 'bb', c: 'ccc', d: 'dddd' };

function refiner(calls: Call[], bridge = fakeBridge(calls), texts = TEXTS, encoder = 'all-MiniLM-L6-v2-int8') {
  return createLateRefiner({
    featurizer: () => bridge,
    encoderId: () => encoder,
    textsOf: async (ids) => ids.map((id) => texts[id]),
  });
}

describe('createLateRefiner', () => {
  it('asks for the query and the top `depth` in full, the rest as token ids only', async () => {
    const calls: Call[] = [];
    const out = await refiner(calls).tokensFor('what?', ['a', 'b', 'c'], 2);
    expect(calls).toEqual([
      { texts: ['what?'], idsOnly: false },
      { texts: ['alpha', 'bb'], idsOnly: false },
      { texts: ['ccc'], idsOnly: true },
    ]);
    expect(Array.from(out!.query.vectors)).toEqual([5]);
    expect(Array.from(out!.memories.a.vectors)).toEqual([5]);
    expect(out!.memories.c.vectors.length).toBe(0);
  });

  it('serves a repeated query from the cache; a memory rising into the top depth gets its full matrix', async () => {
    const calls: Call[] = [];
    const r = refiner(calls);
    await r.tokensFor('what?', ['a', 'b', 'c'], 2);
    calls.length = 0;
    await r.tokensFor('what?', ['a', 'b', 'c'], 2);
    expect(calls).toEqual([]); // all cached
    const out = await r.tokensFor('what?', ['c', 'a', 'd'], 2);
    // c was cached ids-only: now in the top 2 it is fetched in full; a full serves; d is new below the depth
    expect(calls).toEqual([
      { texts: ['ccc'], idsOnly: false },
      { texts: ['dddd'], idsOnly: true },
    ]);
    expect(Array.from(out!.memories.c.vectors)).toEqual([3]);
    expect(r.size()).toBe(5); // q, a, b, c (its full matrix replaced the ids-only one: the same key), d
  });

  it('an edited memory (new text) or another encoder is never served an old matrix', async () => {
    const calls: Call[] = [];
    const texts = { ...TEXTS };
    const bridge = fakeBridge(calls);
    const r = refiner(calls, bridge, texts);
    await r.tokensFor('q', ['a'], 1);
    texts.a = 'alpha, edited';
    calls.length = 0;
    const out = await r.tokensFor('q', ['a'], 1);
    expect(calls).toEqual([{ texts: ['alpha, edited'], idsOnly: false }]);
    expect(Array.from(out!.memories.a.vectors)).toEqual([13]);
    expect(textHash('alpha')).not.toBe(textHash('alpha, edited'));
  });

  it('rejects ABORTED when a newer query aborts it, and caches nothing from the aborted call', async () => {
    const calls: Call[] = [];
    let release!: () => void;
    const wait = new Promise<void>((r) => (release = r));
    const r = refiner(calls, fakeBridge(calls, { wait }));
    const ac = new AbortController();
    const p = r.tokensFor('q', ['a', 'b'], 2, ac.signal);
    ac.abort();
    release();
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
    expect(r.size()).toBe(0);
  });

  it('USE-lite (no token outputs: null) and a bridge without tokens give null; a worker failure rejects', async () => {
    const calls: Call[] = [];
    expect(await refiner(calls, fakeBridge(calls, { none: true })).tokensFor('q', ['a'], 1)).toBeNull();
    const noTokens = createLateRefiner({ featurizer: () => ({}), encoderId: () => 'use-lite-en/v1', textsOf: async () => [] });
    expect(await noTokens.tokensFor('q', ['a'], 1)).toBeNull();
    await expect(refiner(calls, fakeBridge(calls, { fail: true })).tokensFor('q', ['a'], 1)).rejects.toMatchObject({ code: 'WORKER_CRASHED' });
  });

  it('keeps at most `capacity` matrices, dropping the least recently used', async () => {
    const calls: Call[] = [];
    const bridge = fakeBridge(calls);
    const r = createLateRefiner({ featurizer: () => bridge, encoderId: () => 'm', textsOf: async (ids) => ids.map((id) => TEXTS[id]), capacity: 3 });
    await r.tokensFor('q', ['a', 'b'], 2); // q, a, b
    await r.tokensFor('q', ['a'], 1); // touches q and a: b is the oldest
    await r.tokensFor('q', ['c'], 1); // c in, b out
    calls.length = 0;
    await r.tokensFor('q', ['a', 'b'], 2);
    expect(calls).toEqual([{ texts: ['bb'], idsOnly: false }]);
    expect(r.size()).toBe(3);
  });
});
