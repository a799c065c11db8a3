// E7: code in a memory: fenced blocks, inline `code`, and lines that look like code. Features
// are identifier- and token-aware: whole identifiers, their camelCase / snake_case parts,
// keywords, operators and identifier bigrams, as a weighted term vector. Absent without code.

import { sparseFromEntries, type SparseVector } from '../spaces/vectors';
import { termId } from './hash';

const FENCE = /```[^\n]*\n([\s\S]*?)```/g;
const INLINE = /`([^`\n]+)`/g;
const CODE_LINE = [
  /[;{}]\s*$/,
  /=>|::|->|\+\+|--|===|!==|&&|\|\|/,
  /^\s*(def|class|function|const|let|var|import|from|return|if|for|while|#include|public|private|fn|func|package|SELECT|select)\b.*[(:={;]/,
  /\b[a-z]+[A-Z][A-Za-z0-9]*\s*\(/, // camelCase call
  /\b[a-z0-9]+_[a-z0-9_]+\s*[(=]/, // snake_case call / assignment
  /<\/?[a-z][\w-]*(\s[^>]*)?>/, // markup tags
];

const KEYWORDS = new Set(
  'if else for while do return function const let var class def import from export async await try catch finally throw new this self null undefined true false none int float string bool void public private static struct enum fn func package select where insert update delete join lambda yield match case switch break continue in of not and or is interface type extends implements'.split(' '),
);

/** The code segments of a text (fenced blocks first, then inline code, then code-like lines). */
export function extractCode(text: string): string[] {
  const segments: string[] = [];
  let rest = text.replace(FENCE, (_m, body: string) => {
    if (body.trim()) segments.push(body);
    return '\n';
  });
  rest = rest.replace(INLINE, (_m, body: string) => {
    if (/[A-Za-z_]/.test(body)) segments.push(body);
    return ' ';
  });
  for (const line of rest.split('\n')) {
    const hits = CODE_LINE.filter((re) => re.test(line)).length;
    if (hits >= 1 && /[A-Za-z_]/.test(line) && (hits >= 2 || /[(){};=<>]/.test(line))) segments.push(line);
  }
  return segments;
}

/** "parseHTTPResponse_v2" -> ["parse", "http", "response", "v2"]. */
export function splitIdentifier(id: string): string[] {
  return id
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[_\s$]+/)
    .map((s) => s.toLowerCase())
    .filter((s) => s.length > 1);
}

const CODE_TOKEN = /[A-Za-z_$][A-Za-z0-9_$]*|\d+(?:\.\d+)?|=>|===|!==|==|!=|<=|>=|&&|\|\||\+\+|--|::|->|[{}()[\];.,=<>+\-*/%!&|^~?:]/g;

export function codeTokens(code: string): string[] {
  return code.match(CODE_TOKEN) ?? [];
}

/**
 * Static informativeness of each feature kind (no corpus statistics at ingest: a stored vector
 * must not change when other memories arrive, as for E6). Structure (keywords, API / member
 * names, token shingles) outweighs the names a programmer chose, so the same pattern with
 * renamed variables still matches; punctuation is everywhere and weighs least.
 */
export const CODE_KIND_WEIGHTS = {
  /** a whole identifier ("getUserById") */
  id: 0.4,
  /** a camelCase / snake_case part of an identifier ("user") */
  part: 0.2,
  /** a keyword ("return") */
  kw: 1,
  /** a called function or accessed member (".price", "fetch(") : the API the code uses */
  api: 1.5,
  /** an operator / punctuation token */
  op: 0.25,
  /** a 3-gram of the abstracted token stream (identifiers -> ID, numbers -> NUM) */
  sh: 1,
} as const;

/** One abstracted token: identifiers become ID unless they are keywords or API / member names. */
function abstractTokens(toks: string[]): { abs: string[]; kinds: ('kw' | 'api' | 'id' | 'op' | 'num')[] } {
  const abs: string[] = [];
  const kinds: ('kw' | 'api' | 'id' | 'op' | 'num')[] = [];
  toks.forEach((tok, i) => {
    if (/^[A-Za-z_$]/.test(tok)) {
      const lower = tok.toLowerCase();
      if (KEYWORDS.has(lower)) {
        abs.push(lower);
        kinds.push('kw');
      } else if (toks[i - 1] === '.' || toks[i + 1] === '(') {
        abs.push(tok);
        kinds.push('api');
      } else {
        abs.push('ID');
        kinds.push('id');
      }
    } else if (/^\d/.test(tok)) {
      abs.push('NUM');
      kinds.push('num');
    } else {
      abs.push(tok);
      kinds.push('op');
    }
  });
  return { abs, kinds };
}

/**
 * E7 features, compared by cosine (registry): per segment, identifiers (whole and split),
 * keywords, operators, API / member names and 3-gram shingles of the abstracted token stream
 * ("for ( const", "ID . price", "+= ID ."). Term frequency is sublinear (1 + ln tf), times the
 * kind's weight; a shingle of punctuation and IDs only weighs half a shingle (it says little
 * beyond "this is code"). Absent (undefined) without code.
 */
export function codeFeatures(text: string): SparseVector | undefined {
  const segments = extractCode(text);
  if (!segments.length) return undefined;
  const tf = new Map<string, number>();
  const add = (kind: keyof typeof CODE_KIND_WEIGHTS, term: string) => {
    const key = `${kind}\u0000${term}`;
    tf.set(key, (tf.get(key) ?? 0) + 1);
  };
  const shingleWeight = new Map<string, number>();
  for (const seg of segments) {
    const toks = codeTokens(seg);
    const { abs, kinds } = abstractTokens(toks);
    toks.forEach((tok, i) => {
      const k = kinds[i];
      if (k === 'kw') add('kw', abs[i]);
      else if (k === 'op') add('op', tok);
      else if (k === 'api' || k === 'id') {
        if (k === 'api') add('api', tok);
        add('id', tok);
        const parts = splitIdentifier(tok);
        if (parts.length > 1 || parts[0] !== tok) for (const p of parts) add('part', p);
      }
    });
    for (let i = 0; i + 3 <= abs.length; i++) {
      const sh = abs.slice(i, i + 3).join(' ');
      add('sh', sh);
      const generic = kinds.slice(i, i + 3).every((k) => k === 'op' || k === 'id' || k === 'num');
      shingleWeight.set(sh, generic ? 0.5 : 1);
    }
    if (abs.length > 0 && abs.length < 3) add('sh', abs.join(' ')); // a tiny snippet: one whole shingle
  }
  const entries: [number, number][] = [];
  for (const [key, f] of tf) {
    const cut = key.indexOf('\u0000');
    const kind = key.slice(0, cut) as keyof typeof CODE_KIND_WEIGHTS;
    const term = key.slice(cut + 1);
    const w = CODE_KIND_WEIGHTS[kind] * (kind === 'sh' ? (shingleWeight.get(term) ?? 1) : 1);
    entries.push([termId(`E7:${kind}`, term), (1 + Math.log(f)) * w]);
  }
  return sparseFromEntries(entries);
}
