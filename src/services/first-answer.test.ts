// Issue 13: a recall made while the engine's staged start is still attaching the stored features
// is answered by words at once (keyword results, partial), whether or not the search model is
// ready; the same recall is answered in full once the engine is warm.
import 'fake-indexeddb/auto';
import { expect, it } from 'vitest';
import { createEngineBridge, type EngineClient, type EngineLoadProgress, type EngineSnapshot } from '../bridge/engine-bridge';
import { createFakeEmbedder } from '../testing/encoder';
import { engineWorkers } from '../testing/engine';
import { gate } from '../testing/gate';
import { createLocalParser } from '../testing/io';
import { disposeServices } from './index';
import { initTestServices, startServices } from '../testing/services';

it('a recall before the engine is warm answers by words at once, without waiting for the encoder; in full once warm', async () => {
  const { s, dbName } = await startServices();
  const tulips = await s.addMemory({ text: 'Planted tulip bulbs along the fence' });
  for (const text of ['Bulb catalogue arrived', 'Fence post needs a new coat', 'Spring garden plans', 'Watered the lawn'])
    await s.addMemory({ text });
  disposeServices();

  // the reload: a staged start that stays at 'features' (the stored features still attaching)
  // until the test lets it be warm, and an encoder that holds every call meanwhile
  let told: EngineLoadProgress = { stage: 'features', done: 1, total: 9, ms: 5 };
  const factory = (source: () => Promise<EngineSnapshot>): EngineClient => {
    const client = createEngineBridge({ source, spawn: engineWorkers().spawn });
    return { ...client, loadProgress: () => told };
  };
  const embedder = createFakeEmbedder();
  const held = gate();
  const embed = embedder.embed.bind(embedder);
  embedder.embed = async (texts, signal) => {
    await held.opened;
    return embed(texts, signal);
  };
  const s2 = await initTestServices({ dbName, embedder, engine: factory, parser: createLocalParser() });

  const first = await s2.recall('tulip bulbs fence');
  expect(first.partial).toBe(true);
  expect(first.results[0]?.memory.id).toBe(tulips.id); // the one memory with all three words
  expect(first.results[0]?.result.why?.matchedTerms.length).toBeGreaterThan(0);
  expect(embedder.calls).toEqual([]); // the query was not featurized: no wait on the encoder

  // warm (and the encoder free): the same recall in full
  await expect.poll(async () => (await s2.engineStats()).warm).toBe(true); // the real engine's own start is quick here
  told = { stage: 'warm', done: 9, total: 9, ms: 9 };
  held.open();
  const full = await s2.recall('tulip bulbs fence');
  expect(full.partial).toBeUndefined();
  expect(full.results[0]?.memory.id).toBe(tulips.id);
  expect(embedder.calls).toContain('tulip bulbs fence');
});
