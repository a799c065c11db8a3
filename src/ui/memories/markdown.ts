// A small Markdown reader for showing a memory: text in, a plain tree out. Nothing here makes
// markup: Markdown.tsx builds React elements from the tree (React escapes every string), and a
// link's address is only ever used through safeUrl. Covers what notes use: headings, paragraphs
// (a single newline is kept as a line break), fenced code with its language, block quotes, lists
// (nested, ordered, task boxes), rules, tables, and inline code, strong, emphasis, strikethrough,
// links, <autolinks> and bare http(s) addresses. Images are never loaded: they become a link.

export type Inline =
  | { t: 'text'; v: string }
  | { t: 'code'; v: string }
  | { t: 'strong' | 'em' | 'del'; c: Inline[] }
  | { t: 'link'; href: string; c: Inline[] }
  | { t: 'image'; href: string; alt: string }
  | { t: 'br' };

export interface ListItem {
  /** null: not a task; true / false: "- [x]" / "- [ ]". */
  task: boolean | null;
  c: Block[];
}

export type Align = 'left' | 'center' | 'right' | null;

export type Block =
  | { t: 'p'; c: Inline[] }
  | { t: 'h'; level: 1 | 2 | 3 | 4 | 5 | 6; c: Inline[] }
  | { t: 'code'; lang: string; v: string }
  | { t: 'quote'; c: Block[] }
  | { t: 'list'; ordered: boolean; start: number; items: ListItem[] }
  | { t: 'table'; align: Align[]; head: Inline[][]; rows: Inline[][][] }
  | { t: 'hr' };

/** Nesting deeper than this (quotes in lists in quotes…) is read as plain text. */
const MAX_DEPTH = 12;
/** A link's text or address longer than this is not a link (bounds the search for "]" and ")"). */
const MAX_LINK = 2000;

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const BULLET = /^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+|$)(.*)$/;
const TABLE_SEP = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/** The code language a fence names, reduced to a safe label ("ts", "c++", "objective-c"). */
export function fenceLanguage(info: string): string {
  return info.toLowerCase().replace(/[^a-z0-9+#._-]/g, '').slice(0, 32);
}

export function parseMarkdown(text: string): Block[] {
  return blocks(text.replace(/\r\n?/g, '\n').split('\n'), 0);
}

function isBlank(line: string): boolean {
  return line.trim() === '';
}

/** Does this line start a block other than a paragraph (so it ends a paragraph)? */
function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || BULLET.test(line);
}

function blocks(lines: string[], depth: number): Block[] {
  if (depth > MAX_DEPTH) return lines.some((l) => !isBlank(l)) ? [{ t: 'p', c: inlines(lines.join('\n'), 0) }] : [];
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const mark = fence[1]!;
      const close = new RegExp(`^ {0,3}${mark[0] === '`' ? '`' : '~'}{${mark.length},}\\s*$`);
      const body: string[] = [];
      i++;
      while (i < lines.length && !close.test(lines[i]!)) body.push(lines[i++]!);
      i++; // the closing fence (or the end)
      out.push({ t: 'code', lang: fenceLanguage(fence[2] ?? ''), v: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      out.push({ t: 'h', level: heading[1]!.length as 1 | 2 | 3 | 4 | 5 | 6, c: inlines(heading[2] ?? '', 0) });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      out.push({ t: 'hr' });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && !isBlank(lines[i]!)) {
        const q = QUOTE.exec(lines[i]!);
        inner.push(q ? q[1]! : lines[i]!); // a lazy line continues the quote
        i++;
      }
      out.push({ t: 'quote', c: blocks(inner, depth + 1) });
      continue;
    }
    if (BULLET.test(line)) {
      i = list(lines, i, depth, out);
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1]!) && lines[i + 1]!.includes('-')) {
      i = table(lines, i, out);
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && !isBlank(lines[i]!) && (para.length === 0 || !startsBlock(lines[i]!))) para.push(lines[i++]!);
    out.push({ t: 'p', c: inlines(para.map((l) => l.trim()).join('\n'), 0) });
  }
  return out;
}

/** One list (items of the same kind); returns the index after it. */
function list(lines: string[], start: number, depth: number, out: Block[]): number {
  const first = BULLET.exec(lines[start]!)!;
  const ordered = /\d/.test(first[2]!);
  const kind = (m: RegExpExecArray) => (ordered ? m[2]!.slice(-1) : m[2]!);
  const items: ListItem[] = [];
  let i = start;
  while (i < lines.length) {
    const m = BULLET.exec(lines[i]!);
    if (!m || RULE.test(lines[i]!) || /\d/.test(m[2]!) !== ordered || kind(m) !== kind(first)) break;
    const indent = m[1]!.length + m[2]!.length + Math.max(1, Math.min(m[3]!.length, 4));
    const body: string[] = [m[4]!];
    i++;
    let blankSeen = false;
    while (i < lines.length) {
      const l = lines[i]!;
      if (isBlank(l)) {
        blankSeen = true;
        body.push('');
        i++;
        continue;
      }
      const lead = l.length - l.trimStart().length;
      if (lead >= indent || (lead >= 2 && lead > m[1]!.length)) body.push(l.slice(Math.min(lead, indent)));
      else if (!blankSeen && !startsBlock(l)) body.push(l.trim()); // a lazy continuation line
      else break;
      blankSeen = false;
      i++;
    }
    while (body.length && isBlank(body[body.length - 1]!)) body.pop();
    let task: boolean | null = null;
    const box = /^\[([ xX])\][ \t]+/.exec(body[0] ?? '');
    if (box) {
      task = box[1] !== ' ';
      body[0] = body[0]!.slice(box[0].length);
    }
    items.push({ task, c: blocks(body, depth + 1) });
    // a blank line then something that is not an item of this list ends it
    if (i < lines.length && isBlank(lines[i - 1] ?? 'x') && !BULLET.test(lines[i]!)) break;
  }
  out.push({ t: 'list', ordered, start: ordered ? Math.min(Number.parseInt(first[2]!, 10), 1e9) : 1, items });
  return i;
}

function cells(row: string): string[] {
  let r = row.trim();
  if (r.startsWith('|')) r = r.slice(1);
  if (r.endsWith('|') && !r.endsWith('\\|')) r = r.slice(0, -1);
  const out: string[] = [];
  let cur = '';
  for (let k = 0; k < r.length; k++) {
    const ch = r[k]!;
    if (ch === '\\' && r[k + 1] === '|') {
      cur += '|';
      k++;
    } else if (ch === '|') {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

function table(lines: string[], start: number, out: Block[]): number {
  const head = cells(lines[start]!);
  const align: Align[] = cells(lines[start + 1]!).map((c) => {
    const l = c.startsWith(':');
    const r = c.endsWith(':');
    return l && r ? 'center' : r ? 'right' : l ? 'left' : null;
  });
  const width = head.length;
  const rows: Inline[][][] = [];
  let i = start + 2;
  while (i < lines.length && !isBlank(lines[i]!) && lines[i]!.includes('|') && !startsBlock(lines[i]!)) {
    const c = cells(lines[i]!);
    rows.push(Array.from({ length: width }, (_, k) => inlines(c[k] ?? '', 0)));
    i++;
  }
  out.push({ t: 'table', align: Array.from({ length: width }, (_, k) => align[k] ?? null), head: head.map((h) => inlines(h, 0)), rows });
  return i;
}

// ---- inline ------------------------------------------------------------------------------------

const ESCAPABLE = '\\`*_{}[]()#+-.!|~<>';
const BARE_URL = /^https?:\/\/[^\s<>"'`]+/i;
const AUTOLINK = /^<((?:https?:\/\/|mailto:)[^\s<>]+)>/i;

function pushText(out: Inline[], v: string): void {
  if (!v) return;
  const last = out[out.length - 1];
  if (last && last.t === 'text') last.v += v;
  else out.push({ t: 'text', v });
}

/** Index of the closing delimiter `d` after `from`, not preceded by whitespace, or -1. */
function closing(s: string, d: string, from: number): number {
  let k = s.indexOf(d, from);
  while (k > 0) {
    if (!/\s/.test(s[k - 1]!) && k > from) return k;
    k = s.indexOf(d, k + 1);
  }
  return -1;
}

/** "[text](address)" starting at i: its end, text and address, or null. */
function linkAt(s: string, i: number): { end: number; label: string; href: string } | null {
  let level = 0;
  let k = i;
  const limit = Math.min(s.length, i + MAX_LINK);
  for (; k < limit; k++) {
    const ch = s[k];
    if (ch === '\\') k++;
    else if (ch === '[') level++;
    else if (ch === ']' && --level === 0) break;
  }
  if (k >= limit || s[k + 1] !== '(') return null;
  // the address ends at the ")" that balances its "(" (so "f(1)" stays whole)
  let close = -1;
  let depth = 0;
  for (let j = k + 2; j < Math.min(s.length, k + 2 + MAX_LINK); j++) {
    const c = s[j];
    if (c === '\\') j++;
    else if (c === '(') depth++;
    else if (c === ')' && depth-- === 0) {
      close = j;
      break;
    } else if (c === '\n') break;
  }
  if (close < 0) return null;
  const inside = s.slice(k + 2, close).trim();
  const href = (inside.startsWith('<') ? inside.slice(1, inside.indexOf('>') < 0 ? undefined : inside.indexOf('>')) : inside.split(/\s+/)[0]) ?? '';
  return { end: close + 1, label: s.slice(i + 1, k), href };
}

export function inlines(s: string, depth: number): Inline[] {
  const out: Inline[] = [];
  if (depth > MAX_DEPTH) {
    pushText(out, s);
    return out;
  }
  let i = 0;
  let plain = 0; // start of the pending plain text
  const flush = (to: number) => pushText(out, s.slice(plain, to));
  while (i < s.length) {
    const ch = s[i]!;
    if (ch === '\\' && i + 1 < s.length && ESCAPABLE.includes(s[i + 1]!)) {
      flush(i);
      pushText(out, s[i + 1]!);
      i += 2;
      plain = i;
      continue;
    }
    if (ch === '\n') {
      flush(i);
      out.push({ t: 'br' });
      i++;
      plain = i;
      continue;
    }
    if (ch === '`') {
      let n = 1;
      while (s[i + n] === '`') n++;
      const fence = '`'.repeat(n);
      const end = s.indexOf(fence, i + n);
      if (end > 0) {
        flush(i);
        const v = s.slice(i + n, end).replace(/\n/g, ' ');
        out.push({ t: 'code', v: v.length > 1 && v.startsWith(' ') && v.endsWith(' ') ? v.slice(1, -1) : v });
        i = end + n;
        plain = i;
        continue;
      }
      i += n; // an unmatched run of backticks is text
      continue;
    }
    if ((ch === '*' || ch === '_' || ch === '~') && i + 1 < s.length) {
      const two = s[i + 1] === ch;
      const d = two ? ch + ch : ch;
      const inner = i + d.length;
      // "_" inside a word (snake_case) is not emphasis; a lone "~" is text; the opener needs a non-space after it
      const wordy = ch === '_' && i > 0 && /\w/.test(s[i - 1]!);
      if (!wordy && !(ch === '~' && !two) && inner < s.length && !/\s/.test(s[inner]!)) {
        const end = closing(s, d, inner);
        if (end > inner && !(ch === '_' && /\w/.test(s[end + d.length] ?? ''))) {
          flush(i);
          const t = ch === '~' ? 'del' : two ? 'strong' : 'em';
          out.push({ t, c: inlines(s.slice(inner, end), depth + 1) });
          i = end + d.length;
          plain = i;
          continue;
        }
      }
    }
    if (ch === '!' && s[i + 1] === '[') {
      const l = linkAt(s, i + 1);
      if (l) {
        flush(i);
        out.push({ t: 'image', href: l.href, alt: l.label });
        i = l.end;
        plain = i;
        continue;
      }
    }
    if (ch === '[') {
      const l = linkAt(s, i);
      if (l) {
        flush(i);
        out.push({ t: 'link', href: l.href, c: inlines(l.label, depth + 1) });
        i = l.end;
        plain = i;
        continue;
      }
    }
    if (ch === '<') {
      const a = AUTOLINK.exec(s.slice(i, i + MAX_LINK));
      if (a) {
        flush(i);
        out.push({ t: 'link', href: a[1]!, c: [{ t: 'text', v: a[1]! }] });
        i += a[0].length;
        plain = i;
        continue;
      }
    }
    if ((ch === 'h' || ch === 'H') && (i === 0 || !/\w/.test(s[i - 1]!))) {
      const u = BARE_URL.exec(s.slice(i, i + MAX_LINK));
      if (u) {
        const url = u[0].replace(/[.,:;!?)\]]+$/, ''); // "see https://x.org." ends before the dot
        flush(i);
        out.push({ t: 'link', href: url, c: [{ t: 'text', v: url }] });
        i += url.length;
        plain = i;
        continue;
      }
    }
    i++;
  }
  flush(s.length);
  return out;
}

/** The text a tree shows (tests, accessible names). */
export function plainText(nodes: readonly Inline[]): string {
  return nodes
    .map((n) => (n.t === 'text' || n.t === 'code' ? n.v : n.t === 'br' ? '\n' : n.t === 'image' ? n.alt : plainText(n.c)))
    .join('');
}
