// A small tolerant tokenizer for HTML-like text (the Netscape bookmark format), written for a
// worker where there is no DOMParser. It yields start tags with their attributes, end tags and
// entity-decoded text; comments, doctypes and the contents of script / style are skipped, never
// kept. It never builds a tree and never recurses, so no nesting depth can break it.

export type HtmlToken =
  | { kind: 'start'; name: string; attrs: Record<string, string>; offset: number }
  | { kind: 'end'; name: string; offset: number }
  | { kind: 'text'; text: string; offset: number };

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', '#39': "'" };

/** Character references: the common named ones and every numeric one (bad code points -> U+FFFD). */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});?/gi, (all, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? all;
    const cp = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    if (cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return '\ufffd';
    return String.fromCodePoint(cp);
  });
}

const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noscript', 'noembed', 'template']);
const ATTR = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?/g;

function parseAttrs(s: string): Record<string, string> {
  // A null prototype: an attribute named __proto__ is just a key.
  const attrs = Object.create(null) as Record<string, string>;
  ATTR.lastIndex = 0;
  for (let m = ATTR.exec(s); m; m = ATTR.exec(s)) {
    const name = m[1].toLowerCase();
    if (!(name in attrs)) attrs[name] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

/** The end of a tag starting at `i` ('<'), skipping '>' inside quoted attribute values. */
function tagEnd(text: string, i: number): number {
  let quote = 0;
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === 62) return j;
  }
  return -1;
}

export function* tokenizeHtml(text: string): Generator<HtmlToken> {
  let i = 0;
  const n = text.length;
  while (i < n) {
    const lt = text.indexOf('<', i);
    const stop = lt < 0 ? n : lt;
    if (stop > i) yield { kind: 'text', text: decodeEntities(text.slice(i, stop)), offset: i };
    if (lt < 0) return;
    if (text.startsWith('<!--', lt)) {
      const e = text.indexOf('-->', lt + 4);
      i = e < 0 ? n : e + 3;
      continue;
    }
    const m = /^<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)/.exec(text.slice(lt, lt + 64));
    if (!m) {
      if (text[lt + 1] === '!' || text[lt + 1] === '?') {
        const e = text.indexOf('>', lt);
        i = e < 0 ? n : e + 1;
      } else {
        yield { kind: 'text', text: '<', offset: lt }; // a lone '<' is text
        i = lt + 1;
      }
      continue;
    }
    const end = tagEnd(text, lt);
    if (end < 0) return; // an unfinished tag at the end: nothing more to read
    const name = m[2].toLowerCase();
    if (m[1]) {
      yield { kind: 'end', name, offset: lt };
      i = end + 1;
      continue;
    }
    yield { kind: 'start', name, attrs: parseAttrs(text.slice(lt + m[0].length, end)), offset: lt };
    i = end + 1;
    if (RAW_TEXT.has(name)) {
      // Raw text runs to its own end tag; a script's body is skipped, never yielded.
      const re = new RegExp(`</${name}`, 'gi');
      re.lastIndex = i;
      const close = re.exec(text)?.index ?? -1;
      const body = close < 0 ? text.slice(i) : text.slice(i, close);
      if (name === 'title' || name === 'textarea') yield { kind: 'text', text: decodeEntities(body), offset: i };
      i = close < 0 ? n : close;
    }
  }
}
