// Recall with the deep options through the services: the no-ops change nothing, expandHops 1 names
// its entities, multiQuery uses the offline rewording, hyde calls the configured model (and
// nothing without one), and the language-model setting refuses other machines.
import 'fake-indexeddb/auto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fnv1a } from '../core/features/hash';
import { loadNodeResources } from '../../scripts/lib/resources-node';
import { startServices } from '../testing/services';
import type { RecallOutcomeView } from './types';

let server: Server;
let base = '';
const calls: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const body = JSON.parse(data) as { messages: { content: string }[] };
      calls.push(body.messages[1].content);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const content = body.messages[1].content.startsWith('Write a short note') ? 'Marta cooked paella in Valencia.' : '["paella dinner", "Valencia cooking"]';
      res.end(JSON.stringify({ choices: [{ message: { content } }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const ids = (o: RecallOutcomeView) => o.results.map((r) => [r.memory.id, r.result.score]);

async function seeded() {
  const { s } = await startServices({ resources: await loadNodeResources() });
  const m1 = await s.addMemory({ text: 'We sailed past the lighthouse with Marta in the morning.' });
  const m2 = await s.addMemory({ text: 'Marta cooked a huge dinner for everyone.' });
  const m3 = await s.addMemory({ text: 'Bought new running shoes downtown.' });
  return { s, m1, m2, m3 };
}

describe('deep recall through the services', () => {
  it('expandHops 0, multiQuery 1 and hyde without a model give the same outcome; hyde makes no call', async () => {
    const { s } = await seeded();
    const spy = vi.spyOn(globalThis, 'fetch');
    const base0 = await s.recall('lighthouse sailing', { topK: 2 });
    for (const o of [{ expandHops: 0 as const }, { multiQuery: 1 }, { hyde: true }]) {
      const got = await s.recall('lighthouse sailing', { topK: 2, ...o });
      expect(ids(got)).toEqual(ids(base0));
      expect(got.modelNotice).toBeUndefined();
    }
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it('expandHops 1 brings in the memory sharing an entity, and names the entity', async () => {
    const { s, m1, m2 } = await seeded();
    for (const text of ['Sailing lessons start next week.', 'We joined the sailing club.', 'Lighthouse tours are closed in winter.'])
      await s.addMemory({ text });
    const plain = await s.recall('lighthouse sailing', { topK: 4 });
    expect(plain.results[0].memory.id).toBe(m1.id);
    expect(plain.results.map((r) => r.memory.id)).not.toContain(m2.id);
    const got = await s.recall('lighthouse sailing', { topK: 4, expandHops: 1 });
    expect(got.results[0].memory.id).toBe(m1.id);
    const added = got.results.find((r) => r.memory.id === m2.id);
    expect(added?.result.foundBy).toEqual({ lists: ['expansion'], via: [{ seed: m1.id, entities: [fnv1a('marta')] }] });
    expect(got.entities).toEqual({ [fnv1a('marta')]: { name: 'Marta', aliases: ['Marta'], mentionCount: 2 } });
  });

  it('refuses bad deep options before any work', async () => {
    const { s } = await seeded();
    await expect(s.recall('x', { expandHops: 2 as 1 })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    await expect(s.recall('x', { multiQuery: 20 })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
  });

  it('multiQuery 3 offline works without a model; with the model configured, variants and HyDE ask it', async () => {
    const { s, m2 } = await seeded();
    const off = await s.recall('lighthouse sailing', { topK: 3, multiQuery: 3 });
    expect(off.results.length).toBeGreaterThan(0);
    expect(calls.length).toBe(0);
    await expect(s.saveLanguageModel({ enabled: true, baseUrl: 'http://10.1.2.3:11434/v1', model: 'm' })).rejects.toThrow(/"10.1.2.3" is another machine/);
    expect((await s.languageModel()).enabled).toBe(false);
    expect(await s.saveLanguageModel({ enabled: true, baseUrl: `${base}/`, model: 'llama3.2', apiKey: 'secret' })).toEqual({ enabled: true, baseUrl: base, model: 'llama3.2', hasKey: true, deepReader: false });
    const got = await s.recall('what was the meal', { topK: 3, multiQuery: 3, hyde: true });
    expect(calls.map((c) => c.slice(0, 18))).toEqual(['Write 2 different ', 'Write a short note']);
    expect(got.results.map((r) => r.memory.id)).toContain(m2.id);
    // switched off: no call
    await s.saveLanguageModel({ enabled: false, baseUrl: base, model: 'llama3.2' });
    await s.recall('what was the meal', { topK: 3, hyde: true });
    expect(calls.length).toBe(2);
  });

  it('a failing model leaves its part out and says why; the recall still answers', async () => {
    const { s } = await seeded();
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await s.saveLanguageModel({ enabled: true, baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' });
    const got = await s.recall('lighthouse sailing', { topK: 2, hyde: true });
    expect(got.results.length).toBeGreaterThan(0);
    expect(got.modelNotice).toContain('could not be reached; check that it is running');
  });
});
