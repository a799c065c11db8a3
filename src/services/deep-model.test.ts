// Deep search with the language model on this computer as its reader, through the services and the
// real engine over a MessageChannel (the model function crosses as a Comlink proxy), against a
// local OpenAI-compatible server the test starts: off or no model -> byte-identical to today and no
// call; on -> one call per escalation with the numbered pool, the model's scores merged and its
// reasons on the deep hit; malformed or 429 -> the offline reader's answer, a plain message logged;
// a partial answer is read as far as it goes; slow -> the primary results, marked timeout; shadow
// -> its scores logged, the results unchanged.
import 'fake-indexeddb/auto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServices } from '../testing/services';
import { services } from './index';
import type { RecallOutcomeView } from './types';

const Q = 'garden shed';
const SEEDLINGS = 'bought tomato seedlings at the market';
const TEXTS = ['the garden shed roof leaks again', 'garden hose is cracked', SEEDLINGS, 'car needs new tyres'];
const ESCALATE = { topK: 2, deepSearch: { mode: 'active' as const, threshold: 1 } };
const REASON = 'seedlings go in the garden';

let server: Server;
let base = '';
/** What the model answers: a function of the numbered pool it was sent (the user message). */
let reply: (prompt: string) => { status: number; body: string; delayMs?: number } = () => ({ status: 500, body: '' });
const prompts: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const prompt = (JSON.parse(data) as { messages: { content: string }[] }).messages[1].content;
      prompts.push(prompt);
      const a = reply(prompt);
      const send = () => {
        res.writeHead(a.status, { 'Content-Type': 'application/json' });
        res.end(a.body);
      };
      if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const chat = (content: string) => ({ status: 200, body: JSON.stringify({ choices: [{ message: { content } }] }) });
/** The number the pool gave the seedlings' memory ("[3] bought tomato seedlings ..."). */
const seedlingsN = (prompt: string) => Number(/\[(\d+)\] bought tomato seedlings/.exec(prompt)?.[1]);
/** The scripted ranking: the seedlings at 0.9 with REASON, the shed at 0.3. */
const ranking = (prompt: string) => {
  const shed = Number(/\[(\d+)\] the garden shed/.exec(prompt)?.[1]);
  return chat(`Here you go:\n\`\`\`json\n[{"n": ${seedlingsN(prompt)}, "score": 0.9, "reason": "${REASON}"}, {"n": ${shed}, "score": "3", "reason": "a shed"}]\n\`\`\``);
};

async function setup() {
  await startServices();
  for (const text of TEXTS) await services().addMemory({ text });
}
const useModel = (deepReader: boolean) => services().saveLanguageModel({ enabled: true, baseUrl: base, model: 'tiny', deepReader });
const answer = (o: RecallOutcomeView) => JSON.stringify(o.results.map((r) => r.result));

describe('deep search with the language model on this computer', () => {
  it('off, or no model: byte-identical to today and no call; on: one call per escalation, its ranking merged, its reason on the hit', async () => {
    await setup();
    const today = await services().recall(Q, ESCALATE); // no model configured
    expect(today.deepSearch?.status).toBe('merged');
    expect(today.deepSearch?.model).toBeUndefined();
    await useModel(false);
    reply = ranking;
    const off = await services().recall(Q, ESCALATE); // a model, not chosen as deep search's reader
    expect(answer(off)).toBe(answer(today));
    expect(JSON.stringify(off.deepSearch!.scores)).toBe(JSON.stringify(today.deepSearch!.scores));
    expect(prompts).toHaveLength(0);

    expect(await useModel(true)).toMatchObject({ enabled: true, deepReader: true });
    await services().recall(Q, { topK: 2 }); // deep search off: no call
    expect(prompts).toHaveLength(0);
    const got = await services().recall(Q, ESCALATE);
    expect(prompts).toHaveLength(1);
    // the question and the pool trimmed to the budget, numbered
    const pool = got.deepSearch!.pool.length;
    expect(prompts[0]).toContain('Question: "garden shed"');
    expect(prompts[0]).toContain(`[${pool}] `);
    expect(prompts[0]).not.toContain(`[${pool + 1}] `);
    expect(got.deepSearch).toMatchObject({ status: 'merged', model: { read: 2, of: pool } });
    const seedlings = got.results.find((r) => r.memory.text === SEEDLINGS)!;
    expect(seedlings.result.deep).toMatchObject({ source: 'deep', readerScore: 0.9, reasons: [`the language model on this computer: ${REASON}`] });
    // the reader's best score at the merge weight 0.5 (0.5 x 0.9 / 0.9); the shed's "3" read as 0.3
    expect(seedlings.result.score).toBeCloseTo(0.5, 9);
    expect(got.deepSearch!.scores.map((s) => s.score).sort()).toEqual([0.3, 0.9]);
    // turned off again: today's answer, no call
    await useModel(false);
    const again = await services().recall(Q, ESCALATE);
    expect(answer(again)).toBe(answer(today));
    expect(prompts).toHaveLength(1);
  });

  it('malformed JSON, no ranking, or 429: the offline reader answers, a plain message logged; a partial answer is read as far as it goes', async () => {
    await setup();
    const today = await services().recall(Q, ESCALATE);
    await useModel(true);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (const [bad, says] of [
        [() => ({ status: 200, body: '{"choices": [' }), 'could not be read'],
        [() => chat('I am not sure which notes you mean.'), 'could not be read'],
        [() => ({ status: 429, body: '{}' }), 'busy'],
      ] as const) {
        reply = bad;
        logged.mockClear();
        const got = await services().recall(Q, ESCALATE);
        expect(got.deepSearch?.status).toBe('merged');
        expect(got.deepSearch?.model).toBeUndefined();
        expect(answer(got)).toBe(answer(today));
        const line = logged.mock.calls.find((c) => c.includes('deeper search read without the language model this time'));
        expect(String(line?.[3])).toContain(says);
      }
    } finally {
      logged.mockRestore();
    }
    // cut off in the middle of the array: the complete objects are read
    reply = (p) => chat(`[{"n": ${seedlingsN(p)}, "score": 0.8, "reason": "${REASON}"}, {"n": 1, "sco`);
    const partial = await services().recall(Q, ESCALATE);
    expect(partial.deepSearch).toMatchObject({ status: 'merged', model: { read: 1 } });
    expect(partial.results.find((r) => r.memory.text === SEEDLINGS)?.result.deep?.reasons).toEqual([`the language model on this computer: ${REASON}`]);
  });

  it('a model slower than the timeout: the primary results, marked timeout; the rate limit counts each escalation once', async () => {
    await setup();
    const plain = await services().recall(Q, { topK: 2 });
    await useModel(true);
    reply = () => ({ ...chat('[]'), delayMs: 2_400 });
    const timedOut = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const got = await services().recall(Q, { topK: 2, deepSearch: { mode: 'active', threshold: 1, timeoutMs: 100 } });
      expect(got.deepSearch?.status).toBe('timeout');
      expect(got.results.map((r) => r.memory.id)).toEqual(plain.results.map((r) => r.memory.id));
      // the services' own call gives up 2 s after deep search's limit, and says which limit it missed
      await vi.waitFor(() => expect(timedOut.mock.calls.some((c) => String(c[2]).includes("longer than deeper search's time limit (1 s)"))).toBe(true), { timeout: 4_000 });
    } finally {
      timedOut.mockRestore();
    }
    // one escalation used (the timed out one), a failing model falls back within the same one
    reply = () => ({ status: 429, body: '{}' });
    const n = prompts.length;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const statuses: (string | undefined)[] = [];
    try {
      for (let i = 0; i < 3; i++) statuses.push((await services().recall(Q, { topK: 2, deepSearch: { mode: 'active', threshold: 1, rateLimit: 3 } })).deepSearch?.status);
    } finally {
      logged.mockRestore();
    }
    expect(statuses).toEqual(['merged', 'merged', 'rate-limited']);
    expect(prompts.length - n).toBe(2);
  });

  it("shadow: the model's scores logged, the results unchanged", async () => {
    await setup();
    const plain = await services().recall(Q, { topK: 2 });
    await useModel(true);
    reply = ranking;
    const got = await services().recall(Q, { topK: 2, deepSearch: { mode: 'shadow', threshold: 1 } });
    expect(got.deepSearch).toMatchObject({ status: 'shadow', model: { read: 2 } });
    expect(answer(got)).toBe(answer(plain));
    const seedlings = got.deepSearch!.scores.find((s) => s.score === 0.9)!;
    expect(seedlings.reasons).toEqual([`the language model on this computer: ${REASON}`]);
  });

  it('the setting: off by default, true or false only, kept off while the model is off', async () => {
    await setup();
    expect(await services().languageModel()).toMatchObject({ enabled: false, deepReader: false });
    await expect(services().saveLanguageModel({ enabled: true, baseUrl: base, model: 'tiny', deepReader: 'yes' as unknown as boolean })).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
    });
    expect(await services().saveLanguageModel({ enabled: false, baseUrl: base, model: 'tiny', deepReader: true })).toMatchObject({ enabled: false, deepReader: false });
  });
});
