import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importChatGpt } from './chatgpt';

const FIXTURE = readFileSync(join(__dirname, 'fixtures', 'conversations.json'));

describe('importChatGpt', () => {
  const res = importChatGpt(FIXTURE, { file: 'conversations.json' });

  it('makes each exchange on the shown branch a memory, one session per conversation', () => {
    expect(res.items.map((i) => [i.where.path, i.draft.text, i.draft.createdAt, i.draft.sessionId, i.draft.source])).toEqual([
      ['[0].mapping.n2', 'You: Why is my loaf dense?\n\nChatGPT: Probably under-proofed. Let it rise longer.', 1_700_000_100_250, 'chatgpt:conv-bread', 'ChatGPT: Sourdough troubleshooting'],
      ['[0].mapping.n4', 'You: And this photo?\n\nChatGPT: The crumb looks <b>tight</b>: more water.', 1_700_000_300_000, 'chatgpt:conv-bread', 'ChatGPT: Sourdough troubleshooting'],
      ['[1].mapping.a', 'You: Three days in Porto?\n\nChatGPT: Ribeira, Livraria Lello, a port cellar.', 1_710_000_000_000, 'chatgpt:conv-trip', 'ChatGPT: Trip ideas'],
      ['[1].mapping.c', 'You: Unanswered follow-up', 1_710_000_000_000, 'chatgpt:conv-trip', 'ChatGPT: Trip ideas'],
    ]);
    expect(res.items.every((i) => i.draft.tags.includes('chatgpt'))).toBe(true);
  });

  it('reports each conversation it could not read', () => {
    expect(res.errors.map((e) => [e.index, e.message])).toEqual([
      [1, 'The question\'s time is not a date from year 1 to 9999; the conversation\'s time is used.'],
      [2, 'Conversation 3 has no message tree ("mapping"); skipped.'],
      [3, 'Conversation 4 repeats the id "conv-bread" of an earlier one; skipped.'],
      [4, 'Conversation 5 is not an object ("not a conversation"); skipped.'],
    ]);
  });

  it('follows the newest leaf when current_node is missing, and survives a cycle', () => {
    const mapping = {
      x: { parent: 'y', message: { author: { role: 'user' }, create_time: 5, content: { parts: ['q'] } }, children: ['y'] },
      y: { parent: 'x', message: { author: { role: 'assistant' }, create_time: 6, content: { parts: ['a'] } }, children: [] },
    };
    const r = importChatGpt(JSON.stringify([{ id: 'c', mapping }]));
    expect(r.items.map((i) => i.draft.text)).toEqual(['You: q\n\nChatGPT: a']);
  });

  it('refuses what is not a conversations.json', () => {
    expect(importChatGpt('{"a":1}').errors[0].message).toBe('This is not a ChatGPT conversations.json: it holds no list of conversations. Nothing was imported.');
    expect(importChatGpt('[').errors[0].message).toMatch(/^This is not a ChatGPT conversations.json: it is not JSON/);
  });
});
