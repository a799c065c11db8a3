// An import through the embed bridge with a helper encoder (encoderWorkers: 2): two fake embed
// workers on MessageChannels running the worker's real featurize code over a hashed encoder. The
// memories come out whole and in the file's order with the features of their own text, the
// helper takes part, and a cancel still stops between batches.
import 'fake-indexeddb/auto';
import * as Comlink from 'comlink';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LexicalResources } from '../core/features';
import { deserializeSpace } from '../core/spaces';
import { createEmbedBridge } from '../bridge/embed-bridge';
import type { FeaturizeItem } from '../protocol/embed';
import { loadNodeResources } from '../../scripts/lib/resources-node';
import { buffersOf, entitiesOfTexts, featurizeItems } from '../../workers/featurize-core';
import { channelWorkers } from '../testing/channel-worker';
import { storedVectors } from '../testing/db';
import { createFakeEmbedder } from '../testing/encoder';
import { createChannelEngine } from '../testing/engine';
import { createLocalParser } from '../testing/io';
import { initTestServices } from '../testing/services';

let resources: LexicalResources;
beforeAll(async () => {
  resources = await loadNodeResources();
});

async function servicesOnPool() {
  /** Items each worker featurized (0 = main, 1 = helper). */
  const byWorker: number[] = [];
  let started = 0;
  const workers = channelWorkers(() => {
    const k = started++;
    byWorker[k] = 0;
    const enc = createFakeEmbedder(8, 'minilm-l6-v2/int8');
    const info = { ...enc.info(), backend: 'wasm' as const };
    return {
      init: async () => info,
      embed: async (t: string[]) => enc.embed(t),
      async featurize(items: FeaturizeItem[]) {
        byWorker[k] += items.length;
        const out = await featurizeItems(items, enc, resources);
        return Comlink.transfer(out, buffersOf(out.map((o) => o.spaces)));
      },
      entities: async (texts: string[]) => entitiesOfTexts(texts, resources),
      cancel: () => undefined,
      info: () => info,
      lexicalId: () => 'x',
    };
  });
  const bridge = createEmbedBridge({ spawn: workers.spawn, featurizeChunkSize: 4, init: { encoderWorkers: 2, sortChunks: true } });
  await bridge.ready(); // the engine starts for the encoder that runs (8-d), not the provisional MiniLM
  const engine = createChannelEngine();
  const s = await initTestServices({ embedder: bridge, featurizer: bridge, engine: engine.factory, parser: createLocalParser() });
  return { s, byWorker, bridge };
}

const file = (n: number) => ({
  name: 'lines.txt',
  // lengths vary, so sorted chunks differ from the file's order
  bytes: new TextEncoder().encode(Array.from({ length: n }, (_, i) => `line ${i + 1} ${'word '.repeat((i * 7) % 11)}`.trim()).join('\n')),
});

describe('an import on two encoder workers', () => {
  it('writes every line in order with its own features, the helper taking part', async () => {
    const { s, byWorker, bridge } = await servicesOnPool();
    const preview = await s.previewImport({ files: [file(30)], format: 'text', text: { mode: 'line' } });
    expect(await s.runImport(preview.planId, { batchSize: 15 })).toEqual({ written: 30, skipped: 0, batches: 2, cancelled: false });
    const rows = (await s.db.memories.toArray()).sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(rows.map((r) => r.text.split(' ').slice(0, 2).join(' '))).toEqual(Array.from({ length: 30 }, (_, i) => `line ${i + 1}`));
    // each memory's E1 is its own text's vector (the pool put the results back in order)
    const enc = createFakeEmbedder(8, 'minilm-l6-v2/int8');
    const want = await enc.embed(rows.map((r) => r.text));
    for (const [i, r] of rows.entries()) {
      const row = (await storedVectors.get(s.db, r.id, 'E1'))!;
      expect(Array.from(deserializeSpace('E1', row.data) as Float32Array)).toEqual(Array.from(want[i]!));
    }
    expect(byWorker[0]! + byWorker[1]!).toBe(30);
    expect(byWorker[1]).toBeGreaterThan(0);
    bridge.dispose();
  });

  it('a cancel after the first batch leaves exactly that batch; a re-run writes the rest', async () => {
    const { s, bridge } = await servicesOnPool();
    const preview = await s.previewImport({ files: [file(30)], format: 'text', text: { mode: 'line' } });
    const ctl = new AbortController();
    expect(await s.runImport(preview.planId, { batchSize: 15, signal: ctl.signal, onProgress: () => ctl.abort() })).toEqual({
      written: 15,
      skipped: 0,
      batches: 1,
      cancelled: true,
    });
    expect(await s.db.memories.count()).toBe(15);
    expect(await s.runImport(preview.planId, { batchSize: 15 })).toEqual({ written: 15, skipped: 15, batches: 1, cancelled: false });
    expect(await s.db.memories.count()).toBe(30);
    bridge.dispose();
  });
});
