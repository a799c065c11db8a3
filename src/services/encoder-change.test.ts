// Changing the default encoder (USE-lite, 512 wide -> MiniLM, 384 wide) on a store that has
// vectors of the old one: the services start the store's encoder and the switch moves the store
// (the one path, issue 8); an encoder that loads as another than the one expected (MiniLM's files
// absent: USE-lite runs) leaves the stored vectors alone. Stand-ins: hashed embedders.
import 'fake-indexeddb/auto';
import { storedVectors } from '../testing/db';
import { describe, expect, it } from 'vitest';
import type { EmbedderInfo } from '../embed/types';
import { createFakeEmbedder } from '../testing/encoder';
import { createChannelEngine } from '../testing/engine';
import { createLocalParser } from '../testing/io';
import { freshDbName, initTestServices, startServices } from '../testing/services';
import { deserializeSpace } from '../core/spaces';
import { ENCODER_SETTING } from '../db/schema';
import { DEFAULT_ENCODER_ID } from '../embed/catalogue';
import { USE_LITE_ID } from '../embed/types';
import { runtimeOf, type EncoderFactory } from './active-encoder';
import { disposeServices, services } from './index';

describe('a new default encoder on a store of the old one', () => {
  it('starts the store\'s encoder, then moves the store through the switch: old vectors searched until the flip, widths never mixed', async () => {
    // a store made since v7 by the default of its day: no setting `encoder` was ever written
    const dbName = freshDbName();
    const first = await initTestServices({ dbName, embedder: createFakeEmbedder(512, USE_LITE_ID), engine: createChannelEngine().factory, parser: createLocalParser() });
    const a = await first.addMemory({ text: 'violin practice scales', tags: 'music', importance: 0.8 });
    const b = await first.addMemory({ text: 'replaced the timing belt on the car' });
    const before = await first.db.memories.bulkGet([a.id, b.id]);
    expect(await first.db.settings.get(ENCODER_SETTING)).toBeUndefined();
    disposeServices();

    // the next start: no embedder given, so the services start the encoder the vectors belong to
    const started: string[] = [];
    const factory: EncoderFactory = (entry) => {
      started.push(entry.id);
      return runtimeOf(createFakeEmbedder(entry.dim, entry.id));
    };
    const s = await initTestServices({ dbName, encoders: factory, engine: createChannelEngine().factory, parser: createLocalParser() });
    expect(s.activeEncoderId()).toBe(USE_LITE_ID);
    expect(await s.db.settings.get(ENCODER_SETTING)).toBeUndefined(); // found from the vectors, not recorded
    expect((await s.engineStats()).dim).toBe(512);
    // meanwhile search by meaning works on the old vectors (same encoder on both sides)
    const meanwhile = await s.search('violin');
    expect(meanwhile[0].memory.id).toBe(a.id);
    expect(meanwhile[0].hit.why.cosine).toBeGreaterThan(0.5);
    expect(await s.featurizeMissing()).toBe(0); // nothing stale for the store's encoder

    // the boot's one path to the new default: a switch in the background
    expect(await s.upgradeToDefaultEncoder(DEFAULT_ENCODER_ID)).toBe(true);
    await s.whenEncoderSwitchSettled();
    expect(s.activeEncoderId()).toBe(DEFAULT_ENCODER_ID);
    expect(started).toEqual([USE_LITE_ID, DEFAULT_ENCODER_ID]);
    for (const id of [a.id, b.id]) {
      const e1 = (await storedVectors.get(s.db, id, 'E1'))!;
      expect(e1.model).toBe(DEFAULT_ENCODER_ID);
      expect((deserializeSpace('E1', e1.data) as Float32Array).length).toBe(384);
    }
    expect((await s.db.settings.get(ENCODER_SETTING))?.value).toEqual({ id: DEFAULT_ENCODER_ID });
    // nothing of the memories changed but their vectors
    expect(await s.db.memories.bulkGet([a.id, b.id])).toEqual(before);
    expect((await s.engineStats()).dim).toBe(384);
    const after = await s.search('violin');
    expect(after[0].memory.id).toBe(a.id);
    expect(after[0].hit.why.cosine).toBeGreaterThan(0.5);
    expect(await s.featurizeMissing()).toBe(0);
    expect(await s.upgradeToDefaultEncoder(DEFAULT_ENCODER_ID)).toBe(false); // done: not again
  });

  it('while another encoder runs than the store\'s (a fallback), the stored vectors are left alone; the store\'s encoder fills what was captured meanwhile', async () => {
    const { dbName } = await startServices({ dim: 32, model: 'store-encoder/v1' });
    const a = await services().addMemory({ text: 'violin practice scales' });
    disposeServices();

    await startServices({ dbName, dim: 16, model: 'fallback/v1' });
    // the store's encoder is found from its vectors and, with another running, written down (so the
    // fallback's captures cannot outvote it later); the fallback does not move the store
    expect(await services().db.settings.get(ENCODER_SETTING)).toBeUndefined();
    expect(await services().featurizeMissing()).toBe(0);
    expect((await services().db.settings.get(ENCODER_SETTING))?.value).toEqual({ id: 'store-encoder/v1', recordedBy: 'upgrade' });
    expect((await storedVectors.get(services().db, a.id, 'E1'))!.model).toBe('store-encoder/v1');
    // found by words meanwhile: the 32-wide vectors are not in the 16-wide index
    const meanwhile = await services().search('violin');
    expect(meanwhile.map((r) => r.memory.id)).toEqual([a.id]);
    expect(meanwhile[0].hit.why.cosine).toBe(0);
    const b = await services().addMemory({ text: 'the mechanic replaced the timing belt' });
    expect((await storedVectors.get(services().db, b.id, 'E1'))!.model).toBe('fallback/v1');
    disposeServices();

    // the store's encoder loads again: only the memory captured meanwhile is embedded
    await startServices({ dbName, dim: 32, model: 'store-encoder/v1' });
    expect(await services().featurizeMissing()).toBe(1);
    expect((await storedVectors.get(services().db, b.id, 'E1'))!.model).toBe('store-encoder/v1');
    expect((await services().search('timing belt'))[0].hit.why.cosine).toBeGreaterThan(0.5);
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
