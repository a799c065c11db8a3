// Tags derived at ingest (offered as suggestions, never forced on the memory). Deterministic.
// Sources, in priority order (a source's tags all come before the next source's):
//   1. hashtags the person typed (#deploy -> "deploy"), in order of appearance;
//   2. programming languages of code in the text (``` fences with a language, else identifier /
//      keyword heuristics), in a fixed order;
//   3. capitalised entities (runs of Capitalised words not opening a sentence, e.g. "Alice Johnson"
//      -> "alice-johnson"), by occurrences desc then first appearance;
//   4. key phrases by RAKE (phrases split at stopwords and punctuation, word score = degree /
//      frequency, phrase score = sum of word scores, times the phrase's occurrences (TF); a run of
//      more than 3 words is too long for a tag, so its words compete singly), by score desc then
//      first appearance; a phrase sharing a word with an already chosen tag is skipped (diversity).
// Normalised like user tags (normaliseTag: lowercase, whitespace -> '-'), deduplicated, capped.
// Only the first MAX_ANALYSED_CHARS characters are analysed, so a huge paste stays cheap.

import { normaliseTag } from '../validate';
import { isStopword, isWeakWord } from './stopwords';

export const DEFAULT_TAG_LIMIT = 5;
export const MAX_ANALYSED_CHARS = 50_000;
const MAX_PHRASE_WORDS = 3;
const MAX_ENTITY_WORDS = 4;

export interface DeriveTagsOptions {
  /** Maximum tags returned (default 5). */
  limit?: number;
  /** Tags the memory already has: never suggested again. */
  exclude?: readonly string[];
}

const LANG_ALIASES: Record<string, string> = {
  js: 'javascript', jsx: 'javascript', javascript: 'javascript', mjs: 'javascript',
  ts: 'typescript', tsx: 'typescript', typescript: 'typescript',
  py: 'python', python: 'python', python3: 'python',
  rs: 'rust', rust: 'rust', go: 'go', golang: 'go',
  sh: 'shell', bash: 'shell', zsh: 'shell', shell: 'shell', console: 'shell',
  sql: 'sql', java: 'java', kotlin: 'kotlin', kt: 'kotlin', swift: 'swift', ruby: 'ruby', rb: 'ruby',
  c: 'c', h: 'c', cpp: 'cpp', 'c++': 'cpp', cc: 'cpp', hpp: 'cpp', cs: 'csharp', csharp: 'csharp',
  html: 'html', css: 'css', scss: 'css', json: 'json', yaml: 'yaml', yml: 'yaml', toml: 'toml', php: 'php',
};

/** Keyword / identifier heuristics, checked in this order. */
const LANG_RULES: readonly [string, RegExp][] = [
  ['typescript', /\b(interface|type)\s+[A-Z]\w*\s*(=|\{)|\b(const|let|function)\b[^\n]*:\s*(string|number|boolean|void)\b/],
  ['javascript', /\bconsole\.log\(|\b(const|let|var)\s+\w+\s*=\s*(require\(|\(?[\w\s,]*\)?\s*=>)|\bfunction\s+\w+\s*\(|\bimport\s+[\w{}\s,*]+\s+from\s+['"]/],
  ['python', /\bdef\s+\w+\s*\([^)]*\)\s*(->[^:]+)?:|^\s*from\s+[\w.]+\s+import\s+\w+|\bself\.\w+\s*=|\bprint\(f?["']/m],
  ['rust', /\bfn\s+\w+\s*(<[^>]*>)?\s*\(|\blet\s+mut\s+\w+|\bimpl(<[^>]*>)?\s+\w+|\w+::\w+!?\(/],
  ['go', /\bfunc\s+(\(\w+\s+\*?\w+\)\s*)?\w+\s*\(|^package\s+\w+\s*$|\w+\s*:=\s*/m],
  ['java', /\bpublic\s+(static\s+)?(final\s+)?(void|class|int|String)\b|\bSystem\.out\.println\(/],
  ['cpp', /#include\s*<(iostream|vector|string|map|memory)>|\bstd::\w+/],
  ['c', /#include\s*<(stdio|stdlib|string)\.h>|\bprintf\s*\(\s*"/],
  ['sql', /\bSELECT\b[\s\S]{1,200}?\bFROM\b|\bINSERT\s+INTO\b|\bCREATE\s+TABLE\b|\bUPDATE\s+\w+\s+SET\b/],
  ['shell', /^#!\/(usr\/)?bin\/(env\s+)?(ba|z)?sh\b|^\s*\$\s+(sudo|npm|git|cd|ls|apt-get|curl|docker)\b/m],
  ['html', /<(html|head|body|div|span|ul|li|table)(\s[^>]*)?>[\s\S]*<\/\1>/i],
];

const PREPROCESSOR = new Set(['include', 'define', 'undef', 'ifdef', 'ifndef', 'if', 'elif', 'else', 'endif', 'pragma', 'error', 'import']);

/** #word in prose (code fences already removed); C preprocessor lines are not hashtags. */
function hashtags(prose: string): string[] {
  const out: string[] = [];
  for (const m of prose.matchAll(/(^|[^\p{L}\p{N}&#/])#([\p{L}][\p{L}\p{N}_-]*)/gmu)) {
    const lineStart = m[1] === '' || m[1] === '\n';
    if (lineStart && PREPROCESSOR.has(m[2])) continue;
    out.push(m[2]);
  }
  return out;
}

function codeLanguages(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/```[ \t]*([\w+#.-]+)/g)) {
    const lang = LANG_ALIASES[m[1].toLowerCase()];
    if (lang) found.add(lang);
  }
  if (found.size === 0) {
    for (const [lang, re] of LANG_RULES) {
      if (re.test(text)) {
        found.add(lang);
        if (lang === 'typescript') break; // TS code also matches the JS rules
      }
    }
  }
  return [...found];
}

interface Tok {
  word: string;
  start: number;
  end: number;
  sentenceStart: boolean;
}

/** Word tokens with their offsets; a token opens a sentence after . ! ? : or a blank line / start. */
function tokens(text: string): Tok[] {
  const out: Tok[] = [];
  let last = 0;
  let opens = true;
  for (const m of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’_+#.-]*[\p{L}\p{N}+#]|[\p{L}\p{N}]/gu)) {
    const start = m.index!;
    const gap = text.slice(last, start);
    if (out.length > 0 && /[.!?:;]\s*$|\n\s*\n|\n\s*[-*•>#]+\s/.test(gap)) opens = true;
    // tokens end on a letter/digit, so "Tbilisi." leaves its dot in the next gap; "node.js" stays whole
    const word = m[0];
    out.push({ word, start, end: start + word.length, sentenceStart: opens });
    opens = false;
    last = start + word.length;
  }
  return out;
}

/** An entity's word without apostrophes; the last word also loses a possessive ending, since the
 *  entity is the owner: "Mum's" -> "Mum", "James’" -> "James", but "Gardener's Delight" -> "Gardeners Delight". */
const bare = (w: string, last: boolean): string =>
  (last ? w.replace(/['’]s$/iu, '').replace(/(?<=s)['’]$/u, '') : w).replace(/['’]/gu, '');

const isCapitalised = (w: string) => /^\p{Lu}/u.test(w) && !/^\p{Lu}$/u.test(w);

function entities(toks: Tok[], text: string): { tag: string; count: number; first: number }[] {
  // A sentence-opening capitalised word is taken only if the same word also appears capitalised
  // where no sentence opens ("Tbilisi" twice); otherwise it is probably an ordinary word.
  const midCaps = new Set(toks.filter((t) => !t.sentenceStart && isCapitalised(t.word)).map((t) => t.word));
  const found = new Map<string, { tag: string; count: number; first: number }>();
  let run: Tok[] = [];
  const flush = () => {
    if (run.length > 0) {
      const tag = normaliseTag(run.map((t, i) => bare(t.word, i === run.length - 1)).join(' '));
      const e = found.get(tag);
      if (e) e.count++;
      else if (tag) found.set(tag, { tag, count: 1, first: run[0].start });
    }
    run = [];
  };
  for (const t of toks) {
    const ok =
      isCapitalised(t.word) && !isStopword(t.word) && (!t.sentenceStart || midCaps.has(t.word)) && run.length < MAX_ENTITY_WORDS;
    const adjacent = run.length > 0 && /^[ \t]+$/.test(text.slice(run[run.length - 1].end, t.start));
    if (ok && (run.length === 0 || adjacent)) run.push(t);
    else {
      flush();
      if (ok) run.push(t);
    }
  }
  flush();
  return [...found.values()].sort((a, b) => b.count - a.count || a.first - b.first);
}

function keyPhrases(toks: Tok[], text: string): { tag: string; score: number; first: number }[] {
  // Candidate phrases: runs of non-stopword tokens not separated by punctuation / line breaks.
  const phrases: { words: string[]; first: number }[] = [];
  let cur: Tok[] = [];
  const flush = () => {
    if (cur.length > MAX_PHRASE_WORDS) {
      // too long to be a tag: its words compete on their own
      for (const t of cur) phrases.push({ words: [t.word.toLowerCase()], first: t.start });
    } else if (cur.length > 0) phrases.push({ words: cur.map((t) => t.word.toLowerCase()), first: cur[0].start });
    cur = [];
  };
  for (const t of toks) {
    const w = t.word.replace(/\.$/, '');
    const usable = w.length >= 2 && !isWeakWord(w) && !/^[\d.,_+-]+$/.test(w);
    const joined = cur.length > 0 && /^[ \t]+$/.test(text.slice(cur[cur.length - 1].end, t.start));
    if (!usable) {
      flush();
      continue;
    }
    if (cur.length > 0 && !joined) flush();
    cur.push({ ...t, word: w });
  }
  flush();
  const freq = new Map<string, number>();
  const degree = new Map<string, number>();
  for (const p of phrases)
    for (const w of p.words) {
      freq.set(w, (freq.get(w) ?? 0) + 1);
      degree.set(w, (degree.get(w) ?? 0) + p.words.length);
    }
  const best = new Map<string, { tag: string; score: number; first: number }>();
  for (const p of phrases) {
    const tag = normaliseTag(p.words.join(' '));
    if (!tag || best.has(tag)) continue;
    const score = p.words.reduce((s, w) => s + degree.get(w)! / freq.get(w)!, 0);
    best.set(tag, { tag, score, first: p.first });
  }
  // a phrase seen several times is a stronger key phrase (TF): multiply by its occurrences
  const occurrences = new Map<string, number>();
  for (const p of phrases) {
    const tag = normaliseTag(p.words.join(' '));
    occurrences.set(tag, (occurrences.get(tag) ?? 0) + 1);
  }
  return [...best.values()]
    .map((p) => ({ ...p, score: p.score * occurrences.get(p.tag)! }))
    .sort((a, b) => b.score - a.score || a.first - b.first);
}

/** Derive up to `limit` suggested tags from a memory's text. */
export function deriveTags(text: string, options: DeriveTagsOptions = {}): string[] {
  const limit = options.limit ?? DEFAULT_TAG_LIMIT;
  if (typeof text !== 'string' || limit <= 0) return [];
  let t = text;
  if (t.length > MAX_ANALYSED_CHARS) {
    t = t.slice(0, MAX_ANALYSED_CHARS);
    const cut = t.search(/\s\S*$/); // do not analyse half a word
    if (cut > 0) t = t.slice(0, cut);
  }
  const out: string[] = [];
  const taken = new Set(options.exclude?.map(normaliseTag) ?? []);
  const words = new Set<string>();
  for (const x of taken) x.split('-').forEach((w) => words.add(w));
  const add = (raw: string, diverse = false): void => {
    if (out.length >= limit) return;
    const tag = normaliseTag(raw);
    if (!tag || taken.has(tag)) return;
    const parts = tag.split('-');
    if (diverse && parts.some((w) => words.has(w))) return;
    taken.add(tag);
    out.push(tag);
    parts.forEach((w) => words.add(w));
  };
  // code blocks are not prose: keep them out of hashtags, entities and key phrases
  const unfenced = t.replace(/```[\s\S]*?(```|$)/g, '\n\n').replace(/`[^`\n]*`/g, ' ');
  for (const h of hashtags(unfenced)) add(h);
  for (const l of codeLanguages(t)) add(l);
  const prose = unfenced.replace(/#[\p{L}][\p{L}\p{N}_-]*/gu, ' ');
  const toks = tokens(prose);
  for (const e of entities(toks, prose)) add(e.tag, true);
  for (const p of keyPhrases(toks, prose)) add(p.tag, true);
  return out;
}
