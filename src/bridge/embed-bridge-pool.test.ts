// The bridge's helper encoder (encoderWorkers: 2): large calls run their chunks on the main embed
// worker and a second one (one WASM thread), results in order; a helper that fails is dropped and
// its chunk reruns on the main worker; an abort still stops the call; small calls and encoders
// not on WASM never start a helper; an idle helper is freed.
import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import type { EmbedderInfo } from '../embed/types';
import type { EmbedInitOptions, FeaturizedItem, FeaturizeItem } from '../protocol/embed';
import { channelWorkers, type ChannelWorker } from '../testing/channel-worker';
import { gate } from '../testing/gate';
import { createEmbedBridge } from './embed-bridge';

interface Fake {
  /** Each started worker's init options, in start order (0 = the main worker). */
  inits: EmbedInitOptions[];
  /** [worker index, first text of the chunk] per call, in the order the calls were answered. */
  ran: [number, string][];
  cancels: number[];
  spawn: ReturnType<typeof channelWorkers>['spawn'];
  workers: ChannelWorker[];
}

/**
 * Embed workers whose encoder gives each text [its length, worker index]; `hooks(k)` lets a test
 * hold or fail worker k's calls (k = start order) and its init.
 */
function fakes(hooks: (k: number, w: ChannelWorker) => { init?: () => Promise<void>; call?: (first: string) => Promise<void> } = () => ({}), backend: EmbedderInfo['backend'] = 'wasm'): Fake {
  const f: Fake = { inits: [], ran: [], cancels: [], spawn: () => undefined as never, workers: [] };
  const info: EmbedderInfo = { id: 'minilm-l6-v2/int8', name: 'MiniLM', dim: 2, backend, maxInputChars: 2000 };
  let started = 0;
  const cw = channelWorkers((w) => {
    const k = started++;
    const h = hooks(k, w);
    return {
      async init(o: EmbedInitOptions) {
        f.inits[k] = o;
        await h.init?.();
        return { ...info, backend: o.backend === 'wasm' ? 'wasm' : backend };
      },
      async embed(texts: string[]) {
        await h.call?.(texts[0]!);
        if (w.terminated) throw new Error('gone');
        f.ran.push([k, texts[0]!]);
        const vs = texts.map((t) => Float32Array.of(t.length, k));
        return Comlink.transfer(vs, vs.map((v) => v.buffer));
      },
      async featurize(items: FeaturizeItem[]): Promise<FeaturizedItem[]> {
        await h.call?.(items[0]!.text);
        f.ran.push([k, items[0]!.text]);
        return items.map((it) => ({ truncated: false, spaces: { E1: Float32Array.of(it.text.length, k).buffer } }));
      },
      cancel: (id: number) => void f.cancels.push(id),
      info: () => info,
    };
  });
  f.spawn = cw.spawn;
  f.workers = cw.workers;
  return f;
}

const texts = (n: number) => Array.from({ length: n }, (_, i) => 'x'.repeat(i + 1));
const items = (n: number): FeaturizeItem[] => texts(n).map((text, i) => ({ text, createdAt: i, sessionPosition: i }));

describe('embed bridge: the helper encoder', () => {
  it('runs a large call on two workers, the helper with one WASM thread, results in order', async () => {
    // the main worker's first chunk waits until the helper has answered one, so both must take part
    const helperDid = gate();
    const f = fakes((k) => ({ call: async () => (k === 0 ? helperDid.opened : helperDid.open()) }));
    const bridge = createEmbedBridge({ spawn: f.spawn, chunkSize: 2, init: { encoderWorkers: 2, wasmThreads: 2 } });
    const vs = await bridge.embed(texts(8));
    expect(vs.map((v) => v[0])).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(new Set(vs.map((v) => v[1]))).toEqual(new Set([0, 1]));
    expect(f.inits.length).toBe(2);
    expect(f.inits[0]).toMatchObject({ wasmThreads: 2 });
    expect(f.inits[1]).toMatchObject({ encoder: 'minilm-l6-v2/int8', fallbackEncoder: null, backend: 'wasm', wasmThreads: 1, encoderWorkers: 1 });
    // featurize: the same pool, chunk order kept
    const got = await bridge.featurize(items(40));
    expect(got.map((g) => new Float32Array(g.spaces.E1!)[0])).toEqual(texts(40).map((t) => t.length));
    expect(f.workers.length).toBe(2); // the helper is reused, not started again
    bridge.dispose();
    expect(f.workers.every((w) => w.terminated)).toBe(true);
  });

  it('sortChunks: chunks of similar length on the workers, results in the items order', async () => {
    const f = fakes();
    const bridge = createEmbedBridge({ spawn: f.spawn, featurizeChunkSize: 3, init: { sortChunks: true } });
    const its = ['xxxxx', 'x', 'xxx', 'xx', 'xxxxxx', 'xxxx'].map((text, i) => ({ text, createdAt: i, sessionPosition: i }));
    const got = await bridge.featurize(its);
    expect(got.map((g) => new Float32Array(g.spaces.E1!)[0])).toEqual([5, 1, 3, 2, 6, 4]);
    expect(f.ran.map((r) => r[1])).toEqual(['x', 'xxxx']); // chunks [1, 2, 3] and [4, 5, 6] chars
    bridge.dispose();
  });

  it('small calls, one worker asked for, or an encoder not on WASM: no helper', async () => {
    const f = fakes();
    const bridge = createEmbedBridge({ spawn: f.spawn, chunkSize: 2, init: { encoderWorkers: 2 } });
    await bridge.embed(texts(4)); // two chunks: below POOL_MIN_CHUNKS (3)
    expect(f.workers.length).toBe(1);
    bridge.dispose();

    const one = fakes();
    const b1 = createEmbedBridge({ spawn: one.spawn, chunkSize: 2 });
    await b1.embed(texts(10));
    expect(one.workers.length).toBe(1);
    b1.dispose();

    const gpu = fakes(undefined, 'webgpu');
    const b2 = createEmbedBridge({ spawn: gpu.spawn, chunkSize: 2, init: { encoderWorkers: 2 } });
    await b2.embed(texts(10));
    expect(gpu.workers.length).toBe(1);
    b2.dispose();
  });

  it('a helper whose model does not load is dropped: the call is answered by the main worker, and no helper starts again', async () => {
    const f = fakes((k) => ({ init: async () => (k === 1 ? Promise.reject(new AppError('MODEL_LOAD_FAILED')) : undefined) }));
    const bridge = createEmbedBridge({ spawn: f.spawn, chunkSize: 2, init: { encoderWorkers: 2 } });
    const vs = await bridge.embed(texts(6));
    expect(vs.map((v) => [v[0], v[1]])).toEqual([[1, 0], [2, 0], [3, 0], [4, 0], [5, 0], [6, 0]]);
    expect(f.workers[1]!.terminated).toBe(true);
    await bridge.embed(texts(6));
    expect(f.workers.length).toBe(2);
    bridge.dispose();
  });

  it('a helper that crashes mid-call: its chunk reruns on the main worker, the call succeeds', async () => {
    const f = fakes((k, w) => ({
      call: async () => {
        if (k === 1) {
          w.crash('out of memory');
          await new Promise(() => undefined); // never answers: the crash ends it
        }
      },
    }));
    const bridge = createEmbedBridge({ spawn: f.spawn, featurizeChunkSize: 4, init: { encoderWorkers: 2 } });
    const got = await bridge.featurize(items(24));
    expect(f.workers[1]!.terminated).toBe(true);
    expect(got.map((g) => new Float32Array(g.spaces.E1!)[0])).toEqual(texts(24).map((t) => t.length));
    expect(got.every((g) => new Float32Array(g.spaces.E1!)[1] === 0)).toBe(true);
    bridge.dispose();
  });

  it('an abort stops a pooled call (ABORTED, cancel told to the workers) and the next call works', async () => {
    const hold = gate();
    let holding = true;
    const f = fakes(() => ({ call: async () => (holding ? hold.opened : undefined) }));
    const bridge = createEmbedBridge({ spawn: f.spawn, featurizeChunkSize: 2, init: { encoderWorkers: 2 } });
    const ac = new AbortController();
    const p = bridge.featurize(items(10), ac.signal);
    await waitFor(() => f.workers[1]);
    await waitFor(() => (f.inits[1] ? true : undefined));
    ac.abort();
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
    holding = false;
    hold.open();
    await waitFor(() => (f.cancels.length > 0 ? true : undefined));
    const got = await bridge.featurize(items(10));
    expect(got.map((g) => new Float32Array(g.spaces.E1!)[0])).toEqual(texts(10).map((t) => t.length));
    bridge.dispose();
  });

  it('an idle helper is freed, and started again by the next large call', async () => {
    const f = fakes();
    const bridge = createEmbedBridge({ spawn: f.spawn, chunkSize: 1, helperIdleMs: 10, init: { encoderWorkers: 2 } });
    await bridge.embed(texts(6));
    await waitFor(() => (f.workers[1]?.terminated ? true : undefined));
    expect(f.workers[0]!.terminated).toBe(false);
    await bridge.embed(texts(6));
    expect(f.workers.length).toBe(3);
    bridge.dispose();
  });
});

/** Polls (on the event loop, no fixed sleep) until `get` returns something. */
async function waitFor<T>(get: () => T | undefined): Promise<T> {
  for (let i = 0; i < 1000; i++) {
    const v = get();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 1));
  }
  throw new Error('waited in vain');
}
