// A ChatGPT data export's conversations.json: each question and its answer become one memory
// ("You: ... / ChatGPT: ..."), one session per conversation, the question's time as createdAt and
// the conversation's title in the source. Real exports store each conversation as a tree (a
// `mapping` of nodes with parent / children; edits and regenerations make branches): the branch
// shown last is the one from `current_node` up to the root. Missing nodes, cycles, null messages
// and non-text parts (images, tool output objects) are tolerated.

import { cleanSource, quote } from './draft';
import { admit, guard, problem, type ImportResult, type Where } from './result';
import { decodeText, INVALID_UTF8_NOTE, parseDate } from './text';

export interface ChatGptOptions {
  file?: string;
  /** Added to every memory; "chatgpt" is always there. */
  tags?: string[];
}

interface Message {
  nodeId: string;
  role: 'user' | 'assistant';
  text: string;
  time: number | null;
  /** A time was given but is not a date in range. */
  badTime: boolean;
}

const MAX_TITLE = 200;
const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

function messageText(content: unknown): string {
  if (!isObj(content)) return '';
  if (Array.isArray(content.parts)) return content.parts.filter((p): p is string => typeof p === 'string').join('\n').trim();
  return typeof content.text === 'string' ? content.text.trim() : '';
}

/** The node ids of the branch shown last: current_node up to the root, or the newest leaf's. */
function branch(mapping: Record<string, unknown>, current: unknown): string[] {
  let start = typeof current === 'string' && isObj(mapping[current]) ? current : null;
  if (!start) {
    let best = -Infinity;
    for (const [id, node] of Object.entries(mapping)) {
      if (!isObj(node)) continue;
      const kids = Array.isArray(node.children) ? node.children.filter((c) => typeof c === 'string' && isObj(mapping[c])) : [];
      const t = isObj(node.message) && typeof node.message.create_time === 'number' ? node.message.create_time : 0;
      if (kids.length === 0 && t >= best) [best, start] = [t, id];
    }
  }
  const path: string[] = [];
  const seen = new Set<string>();
  for (let id: unknown = start; typeof id === 'string' && isObj(mapping[id]) && !seen.has(id); id = (mapping[id] as Record<string, unknown>).parent) {
    seen.add(id);
    path.push(id);
  }
  return path.reverse();
}

function messagesOf(mapping: Record<string, unknown>, current: unknown): Message[] {
  const out: Message[] = [];
  for (const nodeId of branch(mapping, current)) {
    const msg = (mapping[nodeId] as Record<string, unknown>).message;
    if (!isObj(msg) || !isObj(msg.author)) continue;
    const role = msg.author.role;
    if (role !== 'user' && role !== 'assistant') continue; // system prompts and tool calls are not the exchange
    const text = messageText(msg.content);
    if (!text) continue;
    const time = parseDate(msg.create_time);
    out.push({ nodeId, role, text, time, badTime: time === null && msg.create_time !== null && msg.create_time !== undefined });
  }
  return out;
}

function importConversation(conv: unknown, i: number, opts: ChatGptOptions, out: ImportResult, seen: Set<string>): void {
  const where: Where = { file: opts.file, index: i, path: `[${i}]` };
  if (!isObj(conv)) {
    out.errors.push(problem(where, `Conversation ${i + 1} is not an object (${quote(conv)}); skipped.`));
    return;
  }
  if (!isObj(conv.mapping)) {
    out.errors.push(problem(where, `Conversation ${i + 1} has no message tree ("mapping"); skipped.`));
    return;
  }
  const rawId = conv.conversation_id ?? conv.id;
  const convId = typeof rawId === 'string' && rawId.trim() ? rawId.trim().slice(0, 100) : `conversation-${i + 1}`;
  if (seen.has(convId)) {
    out.errors.push(problem(where, `Conversation ${i + 1} repeats the id ${quote(convId)} of an earlier one; skipped.`));
    return;
  }
  seen.add(convId);
  const title = typeof conv.title === 'string' && conv.title.trim() ? conv.title.trim().replace(/\s+/g, ' ').slice(0, MAX_TITLE) : 'Untitled conversation';
  const convTime = parseDate(conv.create_time);
  const messages = messagesOf(conv.mapping, conv.current_node);
  let found = 0;
  for (let k = 0; k < messages.length; k++) {
    if (messages[k].role !== 'user') continue;
    const q = messages[k];
    const answers: string[] = [];
    while (k + 1 < messages.length && messages[k + 1].role === 'assistant') answers.push(messages[++k].text);
    const at: Where = { ...where, path: `[${i}].mapping.${q.nodeId.slice(0, 100)}` };
    const text = answers.length ? `You: ${q.text}\n\nChatGPT: ${answers.join('\n\n')}` : `You: ${q.text}`;
    found++;
    if (q.badTime) out.errors.push(problem(at, `The question's time is not a date from year 1 to 9999; the conversation's time is used.`, 'note'));
    admit(
      {
        text,
        tags: ['chatgpt', ...(opts.tags ?? [])],
        source: cleanSource(`ChatGPT: ${title}`, at, out),
        createdAt: q.time ?? convTime ?? undefined,
        sessionId: `chatgpt:${convId}`,
      },
      at,
      out,
    );
  }
  if (found === 0) out.errors.push(problem(where, `Conversation ${i + 1} (${quote(title)}) has no question with text; skipped.`));
}

export function importChatGpt(input: string | Uint8Array, opts: ChatGptOptions = {}): ImportResult {
  return guard({ file: opts.file }, (out) => {
    const { text, invalidUtf8 } = decodeText(input);
    if (invalidUtf8) out.errors.push(problem({ file: opts.file }, INVALID_UTF8_NOTE, 'note'));
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      out.errors.push(problem({ file: opts.file }, `This is not a ChatGPT conversations.json: it is not JSON (${e instanceof Error ? e.message : String(e)}). Nothing was imported.`));
      return;
    }
    const list = Array.isArray(data) ? data : isObj(data) && isObj(data.mapping) ? [data] : null;
    if (!list) {
      out.errors.push(problem({ file: opts.file }, 'This is not a ChatGPT conversations.json: it holds no list of conversations. Nothing was imported.'));
      return;
    }
    const seen = new Set<string>();
    list.forEach((conv, i) => importConversation(conv, i, opts, out, seen));
  });
}
