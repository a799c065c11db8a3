// E6 (BM25-weighted terms) and E13 (SPLADE-style expansion of those terms).
//
// BM25 needs corpus statistics a memory does not have at ingest, and a stored vector must not
// change when other memories arrive. So: the TF part is BM25's saturation with length
// normalisation against a fixed average length, and the IDF is a static prior from the word's
// corpus frequency rank in the word-vector vocabulary (Zipf: df ~ 1/rank, so idf ~ ln rank):
// "the" weighs ~0, rare words ~7. Terms are the project's stemmed, stopword-free terms.

import { sparseFromEntries, type SparseVector } from '../spaces/vectors';
import { termId } from './hash';
import type { LexicalResources } from './resources';
import { analyzeWithSurface, porterStem } from './tokens';

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/** Typical analysed length of a memory (chat turn / note) in terms. */
export const BM25_AVG_TERMS = 12;
const IDF_RANK_SCALE = 50;

/** Static IDF prior: ln(1 + (rank + 1) / 50); unknown words count as rarer than the whole vocabulary. */
export function idfPrior(surface: string, resources?: Pick<LexicalResources, 'vectors'>): number {
  if (!resources) return 1;
  const rank = resources.vectors.index.get(surface) ?? resources.vectors.words.length * 2;
  return Math.log(1 + (rank + 1) / IDF_RANK_SCALE);
}

export interface WeightedTerms {
  /** stemmed term -> weight */
  weights: Map<string, number>;
  /** stemmed term -> one surface form seen (for expansion and explanations) */
  surfaces: Map<string, string>;
}

export function bm25Terms(text: string, resources?: Pick<LexicalResources, 'vectors'>): WeightedTerms {
  const toks = analyzeWithSurface(text);
  const tf = new Map<string, number>();
  const surfaces = new Map<string, string>();
  for (const t of toks) {
    tf.set(t.term, (tf.get(t.term) ?? 0) + 1);
    if (!surfaces.has(t.term)) surfaces.set(t.term, t.surface);
  }
  const norm = 1 - BM25_B + (BM25_B * toks.length) / BM25_AVG_TERMS;
  const weights = new Map<string, number>();
  for (const [term, f] of tf) {
    const sat = (f * (BM25_K1 + 1)) / (f + BM25_K1 * norm);
    const w = sat * idfPrior(surfaces.get(term)!, resources);
    if (w > 0) weights.set(term, w);
  }
  return { weights, surfaces };
}

export function termsToSparse(namespace: string, weights: Map<string, number>): SparseVector {
  return sparseFromEntries([...weights].map(([t, w]) => [termId(namespace, t), w]));
}

/** E6: absent (undefined) when the text has no content terms. */
export function sparseFeatures(text: string, resources?: Pick<LexicalResources, 'vectors'>): SparseVector | undefined {
  const { weights } = bm25Terms(text, resources);
  return weights.size ? termsToSparse('E6', weights) : undefined;
}

/** Weight of an expansion term relative to its source term, on top of the synonym's own weight. */
export const EXPANSION_SCALE = 0.8;

/** Inflection variants to find a synonym list under: "purchased" -> "purchase", "cars" -> "car". */
export function baseForms(word: string): string[] {
  const out = [word];
  const strip = (suffix: string, add = '') => {
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) out.push(word.slice(0, -suffix.length) + add);
  };
  strip('ies', 'y');
  strip('es');
  strip('s');
  strip('ed');
  strip('ed', 'e');
  strip('d');
  strip('ing');
  strip('ing', 'e');
  return out;
}

function lookupRelated(
  synonyms: LexicalResources['synonyms'],
  surface: string,
): ReadonlyArray<readonly [string, number]> | undefined {
  for (const w of baseForms(surface)) {
    const r = synonyms.get(w);
    if (r) return r;
  }
  return undefined;
}

/**
 * E13: each E6 term plus its WordNet synonyms / hypernyms (stemmed), weighted
 * source weight x relation weight x EXPANSION_SCALE; a term reached twice keeps its max.
 */
export function expandedFeatures(
  text: string,
  resources: Pick<LexicalResources, 'vectors' | 'synonyms'>,
): SparseVector | undefined {
  const { weights, surfaces } = bm25Terms(text, resources);
  if (!weights.size) return undefined;
  const out = new Map(weights);
  for (const [term, w] of weights) {
    const related = lookupRelated(resources.synonyms, surfaces.get(term)!);
    if (!related) continue;
    for (const [word, rel] of related) {
      const stem = porterStem(word);
      const v = w * rel * EXPANSION_SCALE;
      if ((out.get(stem) ?? 0) < v) out.set(stem, v);
    }
  }
  return termsToSparse('E13', out);
}
