// A query's own computations reused for the same text (query-cache.ts) through the services: a
// search asked again does not embed the query again, a recall asked again does not featurize it
// again, and after an encoder switch the new encoder computes the query (the old one's vector,
// another width, would be refused by the index).
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createFakeEmbedder, type FakeEmbedder } from '../testing/encoder';
import { createChannelEngine } from '../testing/engine';
import { createLocalParser } from '../testing/io';
import { freshDbName, initTestServices } from '../testing/services';
import { DEFAULT_ENCODER_ID } from '../embed/catalogue';
import { USE_LITE_ID } from '../embed/types';
import { runtimeOf, type EncoderFactory } from './active-encoder';
import { disposeServices } from './index';

describe('a query asked again', () => {
  it('is embedded once per encoder: again after a switch, with the new encoder', async () => {
    const made: Record<string, FakeEmbedder> = {};
    const factory: EncoderFactory = (entry) => runtimeOf((made[entry.id] = createFakeEmbedder(entry.dim, entry.id)));
    const dbName = freshDbName();
    const first = await initTestServices({ dbName, embedder: createFakeEmbedder(512, USE_LITE_ID), engine: createChannelEngine().factory, parser: createLocalParser() });
    const a = await first.addMemory({ text: 'violin practice scales' });
    await first.addMemory({ text: 'replaced the timing belt on the car' });
    disposeServices();
    const s = await initTestServices({ dbName, encoders: factory, engine: createChannelEngine().factory, parser: createLocalParser() });
    const old = made[USE_LITE_ID]!;
    const asked = (e: FakeEmbedder, text: string) => e.calls.filter((t) => t === text).length;

    expect((await s.search('violin scales'))[0].memory.id).toBe(a.id);
    expect((await s.search('violin scales'))[0].memory.id).toBe(a.id);
    expect(asked(old, 'violin scales')).toBe(1);
    // a recall and its refinement: the query's features computed once (the fake featurizer embeds the text for E1)
    const before = asked(old, 'timing belt');
    await s.recall('timing belt');
    await s.recall('timing belt', { refine: true });
    expect(asked(old, 'timing belt') - before).toBe(1);

    expect(await s.upgradeToDefaultEncoder(DEFAULT_ENCODER_ID)).toBe(true);
    await s.whenEncoderSwitchSettled();
    expect((await s.engineStats()).dim).toBe(384);
    const hits = await s.search('violin scales');
    expect(hits[0].memory.id).toBe(a.id);
    expect(hits[0].hit.why.cosine).toBeGreaterThan(0.5);
    expect(asked(made[DEFAULT_ENCODER_ID]!, 'violin scales')).toBe(1);
    expect(asked(old, 'violin scales')).toBe(1);
    disposeServices();
  });
});
