// E11: named entities and the relations between them. Mentions come from two sources, merged:
// an NER pass (wink-nlp in src/features: dates, times, money, e-mails, hashtags ...) and the
// capitalised-phrase heuristic below for names of people, places, organisations and products,
// which the lite NER model does not tag. Relations are subject-relation-object triples from a
// simple pattern: two mentions in one sentence with a short verb phrase between them.
// TransE-style vectors: each entity gets a seeded random unit vector (identity, not meaning:
// "Paris" must not match "London"); a stored triple's relation is the translation t - h.

import type { EntityFeatures } from '../spaces/vectors';
import { fnv1a, mulberry32 } from './hash';
import { isStopword } from './tokens';

export interface EntityMention {
  text: string;
  type: string; // PERSON_OR_NAME (heuristic), DATE, TIME, MONEY, ... (NER)
  /** Character offset in the text, when known (orders mentions for relation patterns). */
  start?: number;
}

export interface RelationTriple {
  head: string;
  relation: string;
  tail: string;
}

const NOT_NAMES = new Set(
  'i im ive id ill the a an and but or so if then when what where who why how this that these those my your our their his her its we you he she they it there here yes no ok okay oh hey hi hello thanks thank please sure well also just really wow yeah great good nice maybe today tomorrow yesterday'.split(' '),
);
const WEEKDAYS_MONTHS =
  /^(monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|june|july|august|september|october|november|december)$/i;

/** Normalised key of a mention: lowercase, inner whitespace collapsed, leading "the" dropped. */
export function normalizeEntity(text: string): string {
  return text.toLowerCase().replace(/['’]s$/, '').replace(/^the\s+/, '').replace(/\s+/g, ' ').trim();
}

/**
 * Runs of Capitalised words ("Golden Gate Bridge", "Caroline", "LGBTQ"), allowing "of", "de",
 * "van" inside. A single capitalised word at a sentence start counts only if it is not a
 * common word (NOT_NAMES); weekday / month names are left to the date recogniser.
 */
export function capitalisedPhrases(text: string): EntityMention[] {
  const out: EntityMention[] = [];
  const re = /(?<![\p{L}\p{N}_$])[A-Z][\p{L}\p{M}'’-]*(?:[ \t]+(?:(?:of|de|van|von|la|del|the)[ \t]+)?[A-Z][\p{L}\p{M}'’-]*)*/gu;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    if (/^[\p{L}\p{N}_$(]/u.test(text.slice(m.index + m[0].length, m.index + m[0].length + 1))) continue; // inside an identifier
    let phrase = m[0].replace(/['’]s$/, '').replace(/['’-]+$/, '');
    const words = phrase.split(/\s+/);
    const before = text.slice(0, m.index).trimEnd();
    const sentenceStart = before === '' || /[.!?:"“]$/.test(before) || /\n$/.test(text.slice(0, m.index));
    const plain = (w: string) => w.toLowerCase().replace(/['’]/g, '');
    if (words.length > 1 && sentenceStart && NOT_NAMES.has(plain(words[0]))) {
      words.shift();
      phrase = words.join(' ');
    }
    if (words.length === 1) {
      const w = plain(words[0]);
      if (NOT_NAMES.has(w) || WEEKDAYS_MONTHS.test(w) || w.length < 2) continue;
      if (sentenceStart && isStopword(w)) continue;
    }
    out.push({ text: phrase, type: 'NAME', start: m.index + m[0].indexOf(words[0]) });
  }
  return out;
}

/** Union of mentions by normalised key (first spelling / type wins), in text order. */
export function mergeMentions(...lists: EntityMention[][]): EntityMention[] {
  const seen = new Map<string, EntityMention>();
  for (const list of lists) {
    for (const m of list) {
      const key = normalizeEntity(m.text);
      if (key && !seen.has(key)) seen.set(key, m);
    }
  }
  return [...seen.values()].sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
}

/**
 * Triples from "<mention> <1-4 words, at least one not a stopword> <mention>" within a sentence.
 * The relation is the content words between, lowercased ("visited", "works at" -> "works").
 */
export function extractRelations(text: string, mentions: EntityMention[], max = 4): RelationTriple[] {
  const located = mentions
    .map((m) => ({ m, start: m.start ?? text.indexOf(m.text) }))
    .filter((x) => x.start >= 0)
    .sort((a, b) => a.start - b.start);
  const out: RelationTriple[] = [];
  for (let i = 0; i + 1 < located.length && out.length < max; i++) {
    const a = located[i];
    const b = located[i + 1];
    const between = text.slice(a.start + a.m.text.length, b.start);
    if (/[.!?\n;]/.test(between)) continue;
    const ws = between.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    const content = ws.filter((w) => !isStopword(w));
    if (ws.length === 0 || ws.length > 4 || content.length === 0) continue;
    out.push({ head: normalizeEntity(a.m.text), relation: content.join(' '), tail: normalizeEntity(b.m.text) });
  }
  return out;
}

export const ENTITY_VECTOR_DIM = 32;

/** Seeded random unit vector for an entity key. */
export function entityVector(key: string, dim = ENTITY_VECTOR_DIM): Float32Array {
  const rnd = mulberry32(fnv1a(key, 0x2545f491));
  const v = new Float32Array(dim);
  let n = 0;
  for (let i = 0; i < dim; i++) {
    // sum of two uniforms: cheap, symmetric, good enough for near-orthogonal random vectors
    v[i] = rnd() / 4294967296 + rnd() / 4294967296 - 1;
    n += v[i] * v[i];
  }
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < dim; i++) v[i] /= n;
  return v;
}

/** Absent (undefined) when there is no entity. */
export function entityFeatures(mentions: EntityMention[], triples: RelationTriple[]): EntityFeatures | undefined {
  const keys = [...new Set(mentions.map((m) => normalizeEntity(m.text)).filter(Boolean))];
  if (!keys.length) return undefined;
  const entities = Uint32Array.from(new Set(keys.map((k) => fnv1a(k)))).sort();
  const dim = ENTITY_VECTOR_DIM;
  const heads = new Float32Array(triples.length * dim);
  const tails = new Float32Array(triples.length * dim);
  const relations = new Uint32Array(triples.length);
  triples.forEach((t, i) => {
    heads.set(entityVector(t.head), i * dim);
    tails.set(entityVector(t.tail), i * dim);
    relations[i] = fnv1a(t.relation);
  });
  return { entities, triples: { count: triples.length, dim, heads, tails, relations } };
}
