// Changing the default encoder (USE-lite, 512 wide -> MiniLM, 384 wide) on a store that has
// vectors of the old one, and an encoder that loads as another than the one expected (MiniLM's
// files absent: USE-lite runs). Stand-ins: hashed embedders 32 and 16 wide.
import 'fake-indexeddb/auto';
import { storedVectors } from '../testing/db';
import { describe, expect, it } from 'vitest';
import type { EmbedderInfo } from '../embed/types';
import { createFakeEmbedder } from '../testing/encoder';
import { createChannelEngine } from '../testing/engine';
import { createLocalParser } from '../testing/io';
import { freshDbName, initTestServices, startServices } from '../testing/services';
import { disposeServices, services } from './index';

describe('a new default encoder on a store of the old one', () => {
  it('re-embeds every memory in the background, keeps everything else, and never mixes widths', async () => {
    const { dbName } = await startServices({ dim: 32, model: 'old-encoder/v1' });
    const a = await services().addMemory({ text: 'violin practice scales', tags: 'music', importance: 0.8 });
    const b = await services().addMemory({ text: 'replaced the timing belt on the car' });
    const before = await services().db.memories.bulkGet([a.id, b.id]);
    disposeServices();

    await startServices({ dbName, dim: 16, model: 'new-encoder/v1' });
    expect((await services().engineStats()).dim).toBe(16);
    // found by words meanwhile; the old 32-wide vectors are not in the 16-wide index
    const meanwhile = await services().search('violin');
    expect(meanwhile.map((r) => r.memory.id)).toEqual([a.id]);
    expect(meanwhile[0].hit.why.cosine).toBe(0);

    expect(await services().featurizeMissing()).toBe(2);
    for (const id of [a.id, b.id]) {
      const e1 = (await storedVectors.get(services().db, id, 'E1'))!;
      expect(e1.model).toBe('new-encoder/v1');
    }
    // nothing of the memories changed but their vectors
    expect(await services().db.memories.bulkGet([a.id, b.id])).toEqual(before);
    const after = await services().search('violin');
    expect(after[0].memory.id).toBe(a.id);
    expect(after[0].hit.why.cosine).toBeGreaterThan(0.5);
    expect(await services().featurizeMissing()).toBe(0);
  });
});

describe('syncEncoder', () => {
  it('refills the engine when the encoder that loaded is not the one it was filled for', async () => {
    // the bridge answers for the encoder asked for (16 wide) until the model has loaded; the one
    // that loads is the fallback (32 wide)
    const fallback = createFakeEmbedder(32, 'fallback/v1');
    let loaded = false;
    const provisional: EmbedderInfo = { ...fallback.info(), id: 'wanted/v1', dim: 16 };
    const embedder = {
      info: () => (loaded ? fallback.info() : provisional),
      embed: async (texts: string[], signal?: AbortSignal) => {
        loaded = true;
        return fallback.embed(texts, signal);
      },
    };
    const engine = createChannelEngine();
    await initTestServices({ dbName: freshDbName(), embedder, engine: engine.factory, parser: createLocalParser() });
    expect((await services().engineStats()).dim).toBe(16);
    expect(await services().syncEncoder()).toBe(false); // nothing loaded yet: nothing to do

    // the first capture waits for the model and is checked against the one that loaded
    const m = await services().addMemory({ text: 'a first note about herons' }).catch((e: unknown) => e);
    expect(m).toMatchObject({ text: 'a first note about herons' });
    expect(await services().syncEncoder()).toBe(true);
    expect((await services().engineStats()).dim).toBe(32);
    // the engine now holds the capture's 32-wide vector (its own upsert into the 16-wide engine
    // was refused; the memory was saved and the refill brought it in): 1 of its 5 words, 1/sqrt(5)
    const hits = await services().search('herons');
    expect(hits[0].hit.why.cosine).toBeCloseTo(1 / Math.sqrt(5), 5);
    expect(await services().syncEncoder()).toBe(false);
  });
});
