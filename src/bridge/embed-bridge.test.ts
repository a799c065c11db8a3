// The bridge against a fake embed worker speaking the same Comlink API over a MessageChannel.
import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import type { EmbedderInfo, EmbedLoadProgress } from '../embed/types';
import type { EmbedWorkerApi } from '../../workers/embed.worker';
import { channelWorkers } from '../testing/channel-worker';
import { createEmbedBridge } from './embed-bridge';

/** Embed workers whose encoder gives each text the vector [its length, 0, 0, 0]; `calls` logs [requestId, texts]. */
function fakeWorkers(calls: number[][] = []) {
  const info: EmbedderInfo = { id: 'use-lite-en/v1', name: 'x', dim: 4, backend: 'webgpu', maxInputChars: 2000 };
  const api: Pick<EmbedWorkerApi, 'cancel' | 'info'> & {
    init: (o: unknown, p?: (x: EmbedLoadProgress) => void) => Promise<EmbedderInfo>;
    embed: (t: string[], id: number) => Promise<Float32Array[]>;
    embedQueries: (t: string[], id: number) => Promise<Float32Array[]>;
    tokens: EmbedWorkerApi['tokens'];
  } = {
    async init(_o, onProgress) {
      await onProgress?.({ phase: 'fetching-model', loaded: 5, total: 10 });
      await onProgress?.({ phase: 'warming-up', backend: 'webgpu' });
      return info;
    },
    async embed(texts, requestId) {
      calls.push([requestId, texts.length]);
      const vs = texts.map((t) => Float32Array.of(t.length, 0, 0, 0));
      return Comlink.transfer(vs, vs.map((v) => v.buffer));
    },
    // queries: [length, 1, 0, 0], so a test can tell which the bridge asked for
    async embedQueries(texts, requestId) {
      calls.push([requestId, texts.length]);
      const vs = texts.map((t) => Float32Array.of(t.length, 1, 0, 0));
      return Comlink.transfer(vs, vs.map((v) => v.buffer));
    },
    // one token per text: id = its length, vector [its length] (ids only: none); USE-lite's id: null
    async tokens(texts, requestId, idsOnly = false) {
      calls.push([requestId, texts.length]);
      if (texts[0] === 'use-lite') return null;
      const ms = texts.map((t) => ({ ids: Int32Array.of(t.length), vectors: idsOnly ? new Float32Array(0) : Float32Array.of(t.length), dim: 1 }));
      return Comlink.transfer(ms, ms.flatMap((m) => [m.ids.buffer, m.vectors.buffer]));
    },
    cancel: () => undefined,
    info: () => info,
  };
  return channelWorkers(() => api);
}

describe('createEmbedBridge', () => {
  it('loads lazily, replays progress, splits long inputs into chunks and keeps order', async () => {
    const calls: number[][] = [];
    const bridge = createEmbedBridge({ spawn: fakeWorkers(calls).spawn, chunkSize: 3 });
    expect(bridge.info().backend).toBe('wasm'); // provisional until loaded
    const seen: string[] = [];
    bridge.onProgress((p) => seen.push(p.phase));
    const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee', 'ffffff', 'g'];
    const vs = await bridge.embed(texts);
    expect(vs.map((v) => v[0])).toEqual([1, 2, 3, 4, 5, 6, 1]);
    expect(calls.map((c) => c[1])).toEqual([3, 3, 1]);
    expect(seen).toEqual(['fetching-model', 'warming-up']);
    expect(bridge.info().backend).toBe('webgpu');
    const late: string[] = [];
    bridge.onProgress((p) => late.push(`${p.phase}:${p.backend}`));
    expect(late).toEqual(['warming-up:webgpu']); // the last state, at once
    bridge.dispose();
  });

  it('tokens(): one worker call for the batch, matrices in order; null passed through (no token outputs)', async () => {
    const calls: number[][] = [];
    const bridge = createEmbedBridge({ spawn: fakeWorkers(calls).spawn });
    const ms = await bridge.tokens(['ab', 'c']);
    expect(ms?.map((m) => [Array.from(m.ids), Array.from(m.vectors)])).toEqual([[[2], [2]], [[1], [1]]]);
    const ids = await bridge.tokens(['ab'], undefined, true);
    expect(ids?.[0].vectors.length).toBe(0);
    expect(await bridge.tokens(['use-lite'])).toBeNull();
    expect(await bridge.tokens([])).toEqual([]);
    expect(calls.map((c) => c[1])).toEqual([2, 1, 1]);
    bridge.dispose();
  });

  it('embeds search queries through the worker\'s query path, in chunks', async () => {
    const calls: number[][] = [];
    const bridge = createEmbedBridge({ spawn: fakeWorkers(calls).spawn, chunkSize: 2 });
    const vs = await bridge.embedQueries!(['a', 'bb', 'ccc']);
    expect(vs.map((v) => [v[0], v[1]])).toEqual([[1, 1], [2, 1], [3, 1]]);
    expect(calls.map((c) => c[1])).toEqual([2, 1]);
    expect((await bridge.embed(['a']))[0][1]).toBe(0);
    bridge.dispose();
  });

  it('rejects WORKER_CRASHED on a crash, reports it, and reloads on the next call', async () => {
    const { spawn, workers } = fakeWorkers();
    const crashed: string[] = [];
    const bridge = createEmbedBridge({ spawn, onCrash: (e) => crashed.push(e.code) });
    await bridge.ready();
    const phases: string[] = [];
    bridge.onProgress((p) => phases.push(p.phase));
    workers[0].crash('gone');
    expect(crashed).toEqual(['WORKER_CRASHED']);
    expect(bridge.progress()?.phase).toBe('error');
    const [v] = await bridge.embed(['abc']);
    expect(v[0]).toBe(3);
    expect(workers).toHaveLength(2);
    expect(phases).toEqual(['warming-up', 'error', 'fetching-model', 'warming-up']);
    bridge.dispose();
  });

  it('rejects an aborted call with ABORTED and bad input with INVALID_OPTION', async () => {
    const bridge = createEmbedBridge({ spawn: fakeWorkers().spawn });
    const ac = new AbortController();
    ac.abort();
    await expect(bridge.embed(['x'], ac.signal)).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(bridge.embed('x' as unknown as string[])).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    expect(await bridge.embed([])).toEqual([]);
    bridge.dispose();
  });
});
