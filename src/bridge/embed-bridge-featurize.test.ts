// The bridge's featurize / featurizeQuery against a fake embed worker on a MessageChannel that
// runs the worker's real featurize code (workers/featurize-core.ts) over a hashed fake encoder
// and the lexical resources from public/generated/.
import * as Comlink from 'comlink';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import type { LexicalResources } from '../core/features';
import { deserializeFeatures } from '../core/spaces';
import { loadNodeResources } from '../../scripts/lib/resources-node';
import { buffersOf, featurizeItems, featurizeQueryText, resourcesOrFail, RESOURCES_MISSING_MESSAGE } from '../../workers/featurize-core';
import type { FeaturizeItem } from '../protocol/embed';
import { channelWorkers } from '../testing/channel-worker';
import { createFakeEmbedder } from '../testing/encoder';
import { gate } from '../testing/gate';
import { createEmbedBridge } from './embed-bridge';

let resources: LexicalResources;
beforeAll(async () => {
  resources = await loadNodeResources();
});

/** Embed workers running the worker's featurize code; `calls` logs each featurize's item count. */
function fakeWorkers(calls: number[], held?: Promise<void>) {
  return channelWorkers(() => {
    const enc = createFakeEmbedder(8, 'use-lite-en/v1');
    return {
      init: async () => enc.info(),
      embed: async (t: string[]) => enc.embed(t),
      async featurize(items: FeaturizeItem[]) {
        calls.push(items.length);
        await held;
        const out = await featurizeItems(items, enc, resources);
        return Comlink.transfer(out, buffersOf(out.map((o) => o.spaces)));
      },
      async featurizeQuery(text: string) {
        const out = await featurizeQueryText(text, enc, resources);
        return Comlink.transfer(out, buffersOf([out]));
      },
      cancel: () => undefined,
      info: () => enc.info(),
    };
  });
}

describe('embed bridge featurize', () => {
  it('splits items into chunks, keeps their order and returns readable features', async () => {
    const calls: number[] = [];
    const bridge = createEmbedBridge({ spawn: fakeWorkers(calls).spawn, featurizeChunkSize: 2 });
    const items = ['one', 'two `fooBar()`', 'three', 'four', 'five'].map((text, i) => ({ text, createdAt: 1000 * i, sessionPosition: i }));
    const out = await bridge.featurize(items);
    expect(calls).toEqual([2, 2, 1]);
    expect(out.length).toBe(5);
    const f = out.map((o) => deserializeFeatures(o.spaces));
    expect(f.map((x) => x.E7 !== undefined)).toEqual([false, true, false, false, false]);
    for (const x of f) expect((x.E1 as Float32Array).length).toBe(8);
    const q = deserializeFeatures(await bridge.featurizeQuery('two'));
    expect(q.E2).toBeUndefined(); // no temporal spaces for a query
    expect(Array.from(q.E10 as Float32Array)).toEqual(Array.from(q.E1 as Float32Array));
    expect(bridge.lexicalId()).toMatch(/^spaces\/f\d+-r\d+-v\d+$/);
    bridge.dispose();
  });

  it('an aborted featurize rejects ABORTED; bad input INVALID_OPTION', async () => {
    const held = gate();
    const bridge = createEmbedBridge({ spawn: fakeWorkers([], held.opened).spawn });
    const ac = new AbortController();
    const p = bridge.featurize([{ text: 'x', createdAt: 0, sessionPosition: 0 }], ac.signal);
    ac.abort();
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
    held.open();
    await expect(bridge.featurize('nope' as never)).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    bridge.dispose();
  });

  it('missing resources become MODEL_LOAD_FAILED with the fix in the message', async () => {
    const e = await resourcesOrFail(() => Promise.reject(new Error('Could not load /generated/lexicon.json (HTTP 404)'))).catch((x) => x);
    expect(e).toBeInstanceOf(AppError);
    expect(e).toMatchObject({ code: 'MODEL_LOAD_FAILED', message: RESOURCES_MISSING_MESSAGE, detail: 'Error: Could not load /generated/lexicon.json (HTTP 404)' });
  });
});
