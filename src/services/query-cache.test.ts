// The query's vector and features kept for the same text and encoder (query-cache.ts).
import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import { createQueryCache } from './query-cache';

/** A compute that counts its calls and answers [n, text length] as a vector. */
function counter() {
  const c = { calls: 0, fn: (text: string) => async () => (c.calls++, Float32Array.from([c.calls, text.length])) };
  return c;
}

describe('the query cache', () => {
  it('computes a text once and answers copies of it after', async () => {
    const cache = createQueryCache(() => 'enc-a');
    const c = counter();
    const first = await cache.vector('dog park', c.fn('dog park'));
    expect(Array.from(first)).toEqual([1, 8]);
    first[0] = 99; // the caller's copy: changing it changes nothing kept
    const again = await cache.vector('dog park', c.fn('dog park'));
    expect(Array.from(again)).toEqual([1, 8]);
    again[1] = 77;
    expect(Array.from(await cache.vector('dog park', c.fn('dog park')))).toEqual([1, 8]);
    expect(c.calls).toBe(1);
    expect(cache.stats).toEqual({ hits: 2, misses: 1 });
    // another text is another query (no normalising here: the caller decides what is the same text)
    expect(Array.from(await cache.vector('dog park ', c.fn('dog park ')))).toEqual([2, 9]);
  });

  it('computes again once the encoder changed, and after clear()', async () => {
    let encoder = 'use-lite';
    const cache = createQueryCache(() => encoder);
    const c = counter();
    await cache.vector('violin', c.fn('violin'));
    encoder = 'minilm';
    expect(Array.from(await cache.vector('violin', c.fn('violin')))).toEqual([2, 6]);
    expect(Array.from(await cache.vector('violin', c.fn('violin')))).toEqual([2, 6]); // the new encoder's, kept
    encoder = 'use-lite'; // and back: the first encoder's vector was dropped with the change
    expect(Array.from(await cache.vector('violin', c.fn('violin')))).toEqual([3, 6]);
    cache.clear();
    expect(Array.from(await cache.vector('violin', c.fn('violin')))).toEqual([4, 6]);
    expect(c.calls).toBe(4);
  });

  it('keeps nothing computed across a change or a clear(), nor a failed computation', async () => {
    let encoder = 'a';
    const cache = createQueryCache(() => encoder);
    const c = counter();
    // the encoder changes while the query is being embedded: answered, not kept
    await cache.vector('q', async () => {
      encoder = 'b';
      return c.fn('q')();
    });
    expect(Array.from(await cache.vector('q', c.fn('q')))).toEqual([2, 1]);
    // cleared meanwhile (a switch to the same model again): not kept either
    await cache.vector('r', async () => {
      cache.clear();
      return c.fn('r')();
    });
    expect(Array.from(await cache.vector('r', c.fn('r')))).toEqual([4, 1]);
    // aborted: rejected, nothing kept, the next call computes
    await expect(cache.vector('s', async () => Promise.reject(new AppError('ABORTED')))).rejects.toMatchObject({ code: 'ABORTED' });
    expect(Array.from(await cache.vector('s', c.fn('s')))).toEqual([5, 1]);
  });

  it('keeps the most recently used texts up to its size', async () => {
    const cache = createQueryCache(() => 'e', 2);
    const c = counter();
    await cache.vector('a', c.fn('a')); // 1
    await cache.vector('b', c.fn('b')); // 2
    await cache.vector('a', c.fn('a')); // kept; now the most recent
    await cache.vector('c', c.fn('c')); // 3: b goes
    expect(Array.from(await cache.vector('a', c.fn('a')))).toEqual([1, 1]);
    expect(Array.from(await cache.vector('b', c.fn('b')))).toEqual([4, 1]);
  });

  it('keeps features as copies of every buffer', async () => {
    const cache = createQueryCache(() => 'e');
    let calls = 0;
    const compute = async () => (calls++, { E1: Float32Array.from([0.6, 0.8]).buffer, E5: new Uint8Array([1, 2, 3]).buffer });
    const first = await cache.features('lake', compute);
    new Float32Array(first.E1!)[0] = 0; // as if transferred or changed by its user
    const again = await cache.features('lake', compute);
    expect(Array.from(new Float32Array(again.E1!))).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(Array.from(new Uint8Array(again.E5!))).toEqual([1, 2, 3]);
    expect(calls).toBe(1);
  });
});
