// LoCoMo (Maharana et al., ACL 2024) loader for the retrieval protocol of
// /work/shared/data/README.md. Evaluation data only: never bundled into the app.
//
// Per conversation: one memory per dialog turn, text "<speaker>: <text>" plus
// " [image: <blip_caption>]" when the turn has one; time = the session's date_time plus the
// turn's 0-based index within its session, in seconds (keeps order). Queries: qa items of
// category 1-4 with a non-empty evidence list; evidence strings are split on ';' and ',',
// trimmed, and ids not among the turns dropped. A query left with no known evidence id is
// skipped (and counted in `skippedQueries`), since recall over zero relevant turns is undefined.
import { readFile } from 'node:fs/promises';

export interface LocomoTurn {
  speaker: string;
  dia_id: string;
  text: string;
  img_url?: string[] | string;
  blip_caption?: string;
}

export interface LocomoQa {
  question: string;
  answer?: unknown;
  evidence?: string[];
  category: number;
}

export interface LocomoSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: LocomoQa[];
}

export interface ConvMemory {
  /** The turn's dia_id ("D3:7"): unique within a conversation. */
  id: string;
  text: string;
  /** Epoch ms. */
  time: number;
  session: number;
  speaker: string;
}

export interface ConvQuery {
  question: string;
  category: number;
  /** Known dia_ids, unique, in the order given. */
  evidence: string[];
}

export interface Conversation {
  sampleId: string;
  memories: ConvMemory[];
  queries: ConvQuery[];
  /** Queries with category 1-4 and non-empty evidence whose ids were all unknown. */
  skippedQueries: number;
}

const MONTHS = [
  'january', 'february', 'march', 'april', 'may', 'june',
  'july', 'august', 'september', 'october', 'november', 'december',
];

/** Parse LoCoMo's "1:56 pm on 8 May, 2023" as UTC epoch ms. Throws on anything else. */
export function parseLocomoDate(s: string): number {
  const m = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$/i.exec(s);
  if (!m) throw new Error(`Unrecognised LoCoMo date_time: ${JSON.stringify(s)}`);
  let hour = Number(m[1]) % 12;
  if (m[3].toLowerCase() === 'pm') hour += 12;
  const month = MONTHS.indexOf(m[5].toLowerCase());
  if (month < 0) throw new Error(`Unknown month in LoCoMo date_time: ${JSON.stringify(s)}`);
  return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
}

export function memoryText(turn: LocomoTurn): string {
  const base = `${turn.speaker}: ${turn.text}`;
  return turn.blip_caption ? `${base} [image: ${turn.blip_caption}]` : base;
}

export function splitEvidence(evidence: readonly string[]): string[] {
  const out: string[] = [];
  for (const e of evidence) {
    for (const part of String(e).split(/[;,]/)) {
      const id = part.trim();
      if (id) out.push(id);
    }
  }
  return out;
}

export const QUERY_CATEGORIES: readonly number[] = [1, 2, 3, 4];

export function toConversation(sample: LocomoSample): Conversation {
  const conv = sample.conversation;
  const sessions = Object.keys(conv)
    .map((k) => /^session_(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  const memories: ConvMemory[] = [];
  for (const n of sessions) {
    const turns = conv[`session_${n}`] as LocomoTurn[];
    const dateTime = conv[`session_${n}_date_time`];
    if (typeof dateTime !== 'string') throw new Error(`${sample.sample_id}: session_${n} has no date_time`);
    const start = parseLocomoDate(dateTime);
    turns.forEach((turn, i) => {
      memories.push({ id: turn.dia_id, text: memoryText(turn), time: start + i * 1000, session: n, speaker: turn.speaker });
    });
  }
  const known = new Set(memories.map((m) => m.id));
  const queries: ConvQuery[] = [];
  let skippedQueries = 0;
  for (const qa of sample.qa) {
    if (!QUERY_CATEGORIES.includes(qa.category) || !qa.evidence || qa.evidence.length === 0) continue;
    const evidence = [...new Set(splitEvidence(qa.evidence).filter((id) => known.has(id)))];
    if (evidence.length === 0) {
      skippedQueries++;
      continue;
    }
    queries.push({ question: qa.question, category: qa.category, evidence });
  }
  return { sampleId: sample.sample_id, memories, queries, skippedQueries };
}

export async function loadLocomo(path: string): Promise<Conversation[]> {
  const raw = JSON.parse(await readFile(path, 'utf8')) as LocomoSample[];
  if (!Array.isArray(raw)) throw new Error(`${path}: expected a JSON array of LoCoMo samples`);
  return raw.map(toConversation);
}
