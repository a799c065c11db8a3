// The language-model query transformer: an OpenAI-compatible chat endpoint on this computer
// (Ollama, llama.cpp server, LM Studio... anything answering POST <baseUrl>/chat/completions).
// Off unless the person configures it; only loopback addresses are accepted (checkModelEndpoint),
// and the page's Content-Security-Policy allows nothing else. Robust to what a local model does:
// slow answers time out (TIMEOUT), 429 says it is busy, malformed or partial answers are
// LANGUAGE_MODEL_FAILED, and variants are read from a JSON array, or failing that, line by line.

import { AppError, isAborted } from '../core/errors';
import { checkModelEndpoint, cleanVariants, type ModelEndpoint, type QueryTransformer, type TransformContext } from '../core/query';

export const MODEL_TIMEOUT_MS = 10_000;
const MAX_ANSWER_CHARS = 1_200;

export interface ModelTransformerOptions {
  /** Per call; default 10 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const failed = (why: string, detail?: string) =>
  new AppError('LANGUAGE_MODEL_FAILED', `The language model on this computer ${why}. Recall used your memories alone.`, detail);

/** The strings of a model's answer: a JSON array (possibly inside prose or a code fence), else one per line. */
export function parseVariantList(content: string): string[] {
  const fenced = content.replace(/```(?:json)?/gi, '');
  const start = fenced.indexOf('[');
  const end = fenced.lastIndexOf(']');
  if (start >= 0 && end > start) {
    try {
      const arr: unknown = JSON.parse(fenced.slice(start, end + 1));
      if (Array.isArray(arr)) return arr.filter((x): x is string => typeof x === 'string');
    } catch {
      /* not JSON: read it line by line */
    }
  }
  return fenced
    .split('\n')
    .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').replace(/^["']|["',]+$/g, '').trim())
    .filter((l) => l && !l.endsWith(':') && l !== '[' && l !== ']');
}

/** One chat call to the configured endpoint (timeouts, 429, malformed answers as AppErrors); shared by the model reader. */
export function createModelChat(endpoint: ModelEndpoint, opts: ModelTransformerOptions = {}): (system: string, user: string, ctx?: TransformContext) => Promise<string> {
  const e = checkModelEndpoint(endpoint);
  const doFetch = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const timeoutMs = opts.timeoutMs ?? MODEL_TIMEOUT_MS;

  async function chat(system: string, user: string, ctx: TransformContext = {}): Promise<string> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const outer = ctx.signal as AbortSignal | undefined;
    const onAbort = () => controller.abort();
    outer?.addEventListener?.('abort', onAbort);
    if (outer?.aborted) controller.abort();
    try {
      const res = await doFetch(`${e.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(e.apiKey ? { Authorization: `Bearer ${e.apiKey}` } : {}) },
        body: JSON.stringify({
          model: e.model,
          temperature: 0,
          stream: false,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
        }),
        signal: controller.signal,
      });
      if (res.status === 429) throw failed('is busy (too many requests); try again in a moment', 'HTTP 429');
      if (!res.ok) throw failed(`answered with an error (HTTP ${res.status})`, `HTTP ${res.status}`);
      let body: unknown;
      try {
        body = await res.json();
      } catch (err) {
        if (timedOut) throw err;
        throw failed('sent an answer that could not be read', 'malformed JSON');
      }
      const content = (body as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw failed('sent an answer without text', 'no choices[0].message.content');
      return content.slice(0, 20_000);
    } catch (err) {
      if (timedOut) throw new AppError('TIMEOUT', `The language model on this computer took longer than ${Math.max(1, Math.round(timeoutMs / 1000))} s to answer. Recall used your memories alone.`);
      if (outer?.aborted || (isAborted(err) && !(err instanceof AppError))) throw new AppError('ABORTED');
      if (err instanceof AppError) throw err;
      throw failed('could not be reached; check that it is running', err instanceof Error ? err.message : String(err));
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener?.('abort', onAbort);
    }
  }
  return chat;
}

export function createModelTransformer(endpoint: ModelEndpoint, opts: ModelTransformerOptions = {}): QueryTransformer {
  const chat = createModelChat(endpoint, opts);
  return {
    kind: 'model',
    async variants(query, count, ctx = {}) {
      if (count <= 0 || !query.trim()) return [];
      const content = await chat(
        'You rewrite search queries for a personal notes search. Answer with a JSON array of strings only.',
        `Write ${count} different rewordings of this search query, using other words for the same meaning. Query: ${JSON.stringify(query)}`,
        ctx,
      );
      return cleanVariants(query, parseVariantList(content), count);
    },
    async hypothetical(query, ctx = {}) {
      if (!query.trim()) return null;
      const content = await chat(
        'You write short notes. Answer with the note only.',
        `Write a short note (one to three sentences) that would answer this question about the writer's own life: ${JSON.stringify(query)}`,
        ctx,
      );
      const text = content.replace(/\s+/g, ' ').trim().slice(0, MAX_ANSWER_CHARS);
      return text || null;
    },
  };
}
