// Reading a language model's ranking of the pool (the model reader, seed 003 C). The pool is sent
// numbered ([1] text, [2] text, ...); the model is asked for a JSON array of
// { "n": number, "score": 0..1, "reason": "..." }. Local models are loose, so this accepts:
// a code fence or prose around the array; `n`, `id` or `index` for the number; scores as numbers or
// numeric strings, on 0..1, 0..10 or 0..100; `reason` or `reasons`; and a partial answer (cut off
// mid-array): each complete {...} object is read on its own. Numbers outside the pool and repeats
// are dropped. Nothing readable -> null (the caller reports a malformed answer).

import type { MemoryId } from '../types';
import type { ReaderScore } from './reader';

function scoreOf(v: unknown): number | null {
  const x = typeof v === 'string' ? Number(v.trim()) : v;
  if (typeof x !== 'number' || !Number.isFinite(x) || x < 0) return null;
  if (x <= 1) return x;
  if (x <= 10) return x / 10;
  if (x <= 100) return x / 100;
  return null;
}

function itemOf(o: unknown, ids: readonly MemoryId[]): ReaderScore | null {
  if (!o || typeof o !== 'object') return null;
  const r = o as Record<string, unknown>;
  const raw = r.n ?? r.index ?? r.id;
  const n = typeof raw === 'string' ? Number(raw.replace(/^\[|\]$/g, '')) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > ids.length) return null;
  const score = scoreOf(r.score ?? r.relevance);
  if (score === null) return null;
  const why = r.reasons ?? r.reason;
  const reasons = (Array.isArray(why) ? why : [why]).filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim().slice(0, 200));
  return { id: ids[n - 1], score, reasons };
}

/** The scores in a model's answer for a pool numbered 1..ids.length, or null when none is readable. */
export function parseReaderAnswer(content: string, ids: readonly MemoryId[]): ReaderScore[] | null {
  const text = content.replace(/```(?:json)?/gi, '');
  let items: unknown[] = [];
  const start = text.indexOf('[');
  const end = text.lastIndexOf(']');
  if (start >= 0 && end > start) {
    try {
      const arr: unknown = JSON.parse(text.slice(start, end + 1));
      if (Array.isArray(arr)) items = arr;
    } catch {
      /* partial or loose: objects one by one below */
    }
  }
  if (items.length === 0)
    for (const m of text.matchAll(/\{[^{}]*\}/g)) {
      try {
        items.push(JSON.parse(m[0]));
      } catch {
        /* skip an unreadable object */
      }
    }
  const seen = new Set<MemoryId>();
  const out: ReaderScore[] = [];
  for (const it of items) {
    const s = itemOf(it, ids);
    if (s && !seen.has(s.id)) {
      seen.add(s.id);
      out.push(s);
    }
  }
  return out.length ? out : null;
}

/** The user message: the question and the numbered pool (texts cut to `maxChars`). */
export function readerPrompt(query: string, pool: readonly { text: string }[], maxChars = 600): string {
  const lines = pool.map((c, i) => `[${i + 1}] ${c.text.replace(/\s+/g, ' ').trim().slice(0, maxChars)}`);
  return `Question: ${JSON.stringify(query)}\n\nNotes:\n${lines.join('\n')}\n\nFor each note that helps answer the question, give its number, a relevance score from 0 to 1 and a short reason. Answer with a JSON array only, like [{"n": 2, "score": 0.9, "reason": "..."}].`;
}
