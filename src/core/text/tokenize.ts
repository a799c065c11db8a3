// Unicode-aware word tokenizer shared by the lexical index and the query side, so both
// always agree on what a term is.
//
// Rules:
// - NFKC-normalised and lowercased (full-width digits, ligatures fold to their plain forms);
// - a word is a run of letters / marks / digits (any script), so "café", "東京", "2023" survive;
// - numbers keep an inner decimal point or thousands separator ("3.5", "1,000" -> "1000");
// - apostrophes (' and ’) inside a word: a possessive "'s" is dropped ("caroline's" -> "caroline"),
//   any other apostrophe is removed ("don't" -> "dont"), so contractions hit the stopword list;
// - hyphens and every other punctuation split words ("self-care" -> "self", "care").

import { porterStem } from './porter';
import { ENGLISH_STOPWORDS } from './stopwords';

// Numbers with separators come first so "3.5" is one token, not "3" and "5".
const TOKEN = /\p{N}+(?:[.,]\p{N}+)+(?![\p{L}\p{M}])|[\p{L}\p{M}\p{N}]+(?:['\u2019][\p{L}\p{M}]+)*/gu;
const NUMBER_WITH_SEPARATORS = /^\p{N}+(?:[.,]\p{N}+)+$/u;

function normaliseWord(raw: string): string {
  if (NUMBER_WITH_SEPARATORS.test(raw)) {
    // "1,000" -> "1000"; "3.5" stays "3.5" (a decimal), "1,000.50" -> "1000.50".
    return raw.replace(/,/g, '');
  }
  if (raw.indexOf("'") < 0 && raw.indexOf('\u2019') < 0) return raw;
  const plain = raw.replace(/\u2019/g, "'");
  const noPossessive = plain.endsWith("'s") ? plain.slice(0, -2) : plain;
  return noPossessive.replace(/'/g, '');
}

/** Split text into lowercase word tokens (no stopword removal, no stemming). */
export function tokenize(text: string): string[] {
  if (!text) return [];
  const lower = text.normalize('NFKC').toLowerCase();
  const out: string[] = [];
  for (const m of lower.matchAll(TOKEN)) {
    const w = normaliseWord(m[0]);
    if (w) out.push(w);
  }
  return out;
}

export interface AnalyzeOptions {
  /** Drop English stopwords (default true). */
  stopwords?: boolean;
  /** Porter-stem each token (default true). */
  stem?: boolean;
}

export interface AnalyzedToken {
  /** The indexed form (stemmed, lowercase). */
  term: string;
  /** The surface token it came from (lowercase), for explanations. */
  surface: string;
}

/** Tokenize, drop stopwords and stem: the analysis chain of the lexical index. */
export function analyzeWithSurface(text: string, opts: AnalyzeOptions = {}): AnalyzedToken[] {
  const dropStop = opts.stopwords ?? true;
  const stem = opts.stem ?? true;
  const out: AnalyzedToken[] = [];
  for (const tok of tokenize(text)) {
    if (dropStop && ENGLISH_STOPWORDS.has(tok)) continue;
    out.push({ term: stem ? porterStem(tok) : tok, surface: tok });
  }
  return out;
}

/** The indexed terms of `text` (see analyzeWithSurface). */
export function analyze(text: string, opts: AnalyzeOptions = {}): string[] {
  return analyzeWithSurface(text, opts).map((t) => t.term);
}
