// The language-model provider against a local OpenAI-compatible server started here on loopback:
// scripted answers, malformed JSON, a slow reply (timeout), 429 (rate limit), the loopback rule.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import { createModelTransformer, parseVariantList } from './model-transformer';

type Handler = (body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse) => void;
let handler: Handler = () => {};
const seen: { body: Record<string, unknown>; auth?: string; url?: string }[] = [];
let server: Server;
let base = '';

const answer = (content: unknown) => (_b: Record<string, unknown>, _q: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const body = JSON.parse(data || '{}') as Record<string, unknown>;
      seen.push({ body, auth: req.headers.authorization, url: req.url });
      handler(body, req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return { code: (e as AppError).code, message: (e as AppError).message };
  }
  return null;
};

describe('model query transformer', () => {
  it('asks /chat/completions with the model and key, reads a JSON array of variants', async () => {
    handler = answer('["where did I travel last summer", "summer trip destination", "Where did I go on holiday?", "where did I go on holiday?"]');
    const t = createModelTransformer({ baseUrl: `${base}/`, model: 'llama3.2', apiKey: 'k-1' });
    const v = await t.variants('Where did I go on holiday?', 2);
    expect(v).toEqual(['where did I travel last summer', 'summer trip destination']);
    const last = seen.at(-1)!;
    expect(last.url).toBe('/v1/chat/completions');
    expect(last.auth).toBe('Bearer k-1');
    expect(last.body.model).toBe('llama3.2');
    expect(last.body.stream).toBe(false);
    expect(t.kind).toBe('model');
  });

  it('reads a list in prose or a code fence line by line', async () => {
    expect(parseVariantList('Here you go:\n1. first one\n2) second one\n- third')).toEqual(['first one', 'second one', 'third']);
    expect(parseVariantList('```json\n["a", "b"]\n```')).toEqual(['a', 'b']);
    handler = answer('Sure! Here are rewordings:\n* trip last July\n* summer vacation place');
    expect(await createModelTransformer({ baseUrl: base, model: 'm' }).variants('holiday', 3)).toEqual(['trip last July', 'summer vacation place']);
  });

  it('HyDE: the hypothetical answer, trimmed', async () => {
    handler = answer('  I went to   Lisbon in July.  ');
    expect(await createModelTransformer({ baseUrl: base, model: 'm' }).hypothetical('Where did I go?')).toBe('I went to Lisbon in July.');
    handler = answer('   ');
    expect(await createModelTransformer({ baseUrl: base, model: 'm' }).hypothetical('Where did I go?')).toBeNull();
  });

  it('malformed JSON, no content, a server error: LANGUAGE_MODEL_FAILED saying so', async () => {
    handler = (_b, _q, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"choices": [ {"message": ');
    };
    const t = createModelTransformer({ baseUrl: base, model: 'm' });
    expect(await codeOf(t.variants('q', 2))).toEqual({
      code: 'LANGUAGE_MODEL_FAILED',
      message: 'The language model on this computer sent an answer that could not be read. Recall used your memories alone.',
    });
    handler = (_b, _q, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"choices": []}');
    };
    expect((await codeOf(t.hypothetical('q')))?.message).toContain('sent an answer without text');
    handler = (_b, _q, res) => {
      res.writeHead(500);
      res.end('boom');
    };
    expect((await codeOf(t.variants('q', 2)))?.message).toContain('answered with an error (HTTP 500)');
  });

  it('429: busy, try again', async () => {
    handler = (_b, _q, res) => {
      res.writeHead(429, { 'Retry-After': '1' });
      res.end();
    };
    expect(await codeOf(createModelTransformer({ baseUrl: base, model: 'm' }).variants('q', 2))).toEqual({
      code: 'LANGUAGE_MODEL_FAILED',
      message: 'The language model on this computer is busy (too many requests); try again in a moment. Recall used your memories alone.',
    });
  });

  it('a slow reply times out with TIMEOUT; an abort is ABORTED', async () => {
    const pending: (() => void)[] = [];
    const release = () => pending.splice(0).forEach((f) => f());
    handler = (_b, _q, res) => {
      pending.push(() => answer('["late"]')({}, _q, res));
    };
    const t = createModelTransformer({ baseUrl: base, model: 'm' }, { timeoutMs: 150 });
    expect(await codeOf(t.variants('q', 2))).toEqual({
      code: 'TIMEOUT',
      message: 'The language model on this computer took longer than 1 s to answer. Recall used your memories alone.',
    });
    release();
    const c = new AbortController();
    const p = createModelTransformer({ baseUrl: base, model: 'm' }, { timeoutMs: 5000 }).variants('q', 2, { signal: c.signal });
    c.abort();
    expect((await codeOf(p))?.code).toBe('ABORTED');
    release();
  });

  it('an unreachable model fails with a message; a non-loopback address is refused before any call', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    expect((await codeOf(createModelTransformer({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' }).variants('q', 2)))?.message).toContain(
      'could not be reached; check that it is running',
    );
    const before = seen.length;
    expect(() => createModelTransformer({ baseUrl: 'http://192.168.1.20:11434/v1', model: 'm' })).toThrow(/"192.168.1.20" is another machine/);
    expect(seen.length).toBe(before);
  });
});
