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

export function codeFeatures(text: string): SparseVector | undefined {
  const segments = extractCode(text);
  if (!segments.length) return undefined;
  const acc = new Map<number, number>();
  const add = (kind: string, term: string, w: number) => {
    const id = termId(`E7:${kind}`, term);
    acc.set(id, (acc.get(id) ?? 0) + w);
  };
  for (const seg of segments) {
    const toks = codeTokens(seg);
    let prevIdent: string | undefined;
    for (const tok of toks) {
      if (/^[A-Za-z_$]/.test(tok)) {
        const lower = tok.toLowerCase();
        if (KEYWORDS.has(lower)) {
          add('kw', lower, 0.5);
        } else {
          add('id', tok, 1);
          const parts = splitIdentifier(tok);
          if (parts.length > 1 || parts[0] !== tok) for (const p of parts) add('part', p, 0.5);
          if (prevIdent) add('bi', `${prevIdent} ${tok}`, 0.5);
          prevIdent = tok;
        }
      } else if (!/^\d/.test(tok)) {
        add('op', tok, 0.25);
      }
    }
  }
  // sublinear term frequency so a long paste does not drown its identifiers
  return sparseFromEntries([...acc].map(([k, v]) => [k, 1 + Math.log(v + 1) - Math.log(2)]));
}
