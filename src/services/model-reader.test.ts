// The model reader against a local OpenAI-compatible server the test starts: scripted answers,
// malformed JSON, a slow reply for the timeout, 429.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModelReader } from './model-reader';

let server: Server;
let base = '';
let answer: { status: number; body: string; delayMs?: number } = { status: 200, body: '' };
const seen: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      seen.push((JSON.parse(data) as { messages: { content: string }[] }).messages[1].content);
      const send = () => {
        res.writeHead(answer.status, { 'Content-Type': 'application/json' });
        res.end(answer.body);
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const chat = (content: string) => JSON.stringify({ choices: [{ message: { content } }] });
const pool = [
  { id: 'm1', text: 'Lunch with Marta', createdAt: 0 },
  { id: 'm2', text: 'Sailing past the lighthouse', createdAt: 0 },
];
const q = { text: 'where did we sail?', features: {} };

describe('model reader', () => {
  it('sends the numbered pool and parses the ranking', async () => {
    answer = { status: 200, body: chat('[{"n": 2, "score": 0.95, "reason": "sailing"}, {"n": 1, "score": 0.1, "reason": "no"}]') };
    const r = createModelReader({ baseUrl: base, model: 'm' });
    expect(await r.read(q, pool)).toEqual([
      { id: 'm2', score: 0.95, reasons: ['sailing'] },
      { id: 'm1', score: 0.1, reasons: ['no'] },
    ]);
    expect(seen.at(-1)).toContain('[2] Sailing past the lighthouse');
  });
  it('a malformed answer is LANGUAGE_MODEL_FAILED; 429 says busy; a slow one is TIMEOUT', async () => {
    const r = createModelReader({ baseUrl: base, model: 'm' }, { timeoutMs: 100 });
    answer = { status: 200, body: chat('sorry, no idea') };
    await expect(r.read(q, pool)).rejects.toMatchObject({ code: 'LANGUAGE_MODEL_FAILED' });
    answer = { status: 200, body: '{"choices": [' };
    await expect(r.read(q, pool)).rejects.toMatchObject({ code: 'LANGUAGE_MODEL_FAILED' });
    answer = { status: 429, body: '{}' };
    await expect(r.read(q, pool)).rejects.toMatchObject({ code: 'LANGUAGE_MODEL_FAILED', message: expect.stringContaining('busy') });
    answer = { status: 200, body: chat('[]'), delayMs: 400 };
    await expect(r.read(q, pool)).rejects.toMatchObject({ code: 'TIMEOUT' });
  });
  it('an empty pool makes no call', async () => {
    const before = seen.length;
    expect(await createModelReader({ baseUrl: base, model: 'm' }).read(q, [])).toEqual([]);
    expect(seen.length).toBe(before);
  });
});
