// The offline query transformer: deterministic rewording from the bundled lexical resources.
//   variant 1  the query + each content word's WordNet synonyms (weight >= 0.5, at most 2 a word)
//   variant 2  the query + RM3-style feedback terms: the words of the first pass's best results,
//              weighted by term frequency x the result's rank weight, the query's own words and
//              stopwords left out (Lavrenko & Croft's relevance model, one round, no re-weighting)
//   variant 3+ the query + nearest word-vector neighbours (cosine >= 0.6), then hypernyms
// Each variant keeps the query's own words so its lexical list stays anchored on them.

import type { LexicalResources, WordVectors } from '../features';
import { isStopword } from '../text/stopwords';
import { tokenize } from '../text/tokenize';
import { cleanVariants, type QueryTransformer, type TransformContext } from './transformer';

export const PRF_DOCS = 5;
export const PRF_TERMS = 6;
const NEIGHBOUR_RANK_LIMIT = 20_000;

const content = (q: string): string[] => [...new Set(tokenize(q).filter((w) => w.length > 2 && !isStopword(w) && !/^\d+$/.test(w)))];

/** RM3-style feedback terms: sum over docs d (rank r) of tf(w, d) / |d| / (r + 1); query words and stopwords excluded. */
export function feedbackTerms(query: string, docs: readonly string[], k = PRF_TERMS, maxDocs = PRF_DOCS): string[] {
  const q = new Set(tokenize(query));
  const weight = new Map<string, number>();
  docs.slice(0, maxDocs).forEach((d, r) => {
    const words = tokenize(d).filter((w) => w.length > 2 && !isStopword(w) && !/^\d+$/.test(w));
    if (words.length === 0) return;
    for (const w of words) {
      if (q.has(w)) continue;
      weight.set(w, (weight.get(w) ?? 0) + 1 / words.length / (r + 1));
    }
  });
  return [...weight].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, k).map(([w]) => w);
}

/** WordNet relations of `word` with weight >= min (most related first, then alphabetical). */
export function related(res: Pick<LexicalResources, 'synonyms'>, word: string, min: number, max: number): string[] {
  const list = res.synonyms.get(word) ?? [];
  return [...list]
    .filter(([w, s]) => s >= min && w !== word && !w.includes('_'))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, max)
    .map(([w]) => w);
}

/** The `max` nearest words to `word` in the word vectors (cosine >= min, among the most frequent words). */
export function neighbours(v: WordVectors, word: string, min: number, max: number): string[] {
  const i = v.index.get(word);
  if (i === undefined) return [];
  const rows = Math.min(v.words.length, NEIGHBOUR_RANK_LIMIT);
  const base = i * v.dim;
  const best: [string, number][] = [];
  for (let r = 0; r < rows; r++) {
    if (r === i) continue;
    let dot = 0;
    const o = r * v.dim;
    for (let k = 0; k < v.dim; k++) dot += v.data[base + k] * v.data[o + k];
    const cos = dot / (127 * 127);
    if (cos < min || isStopword(v.words[r])) continue;
    best.push([v.words[r], cos]);
  }
  return best.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, max).map(([w]) => w);
}

export class OfflineTransformer implements QueryTransformer {
  readonly kind = 'offline' as const;
  constructor(private readonly res: LexicalResources) {}

  /** The variants, synchronously (the eval and the worker call this). */
  variantsSync(query: string, count: number, feedback: readonly string[] = []): string[] {
    if (count <= 0) return [];
    const words = content(query);
    const raw: string[] = [];
    const extend = (extra: string[]) => (extra.length ? `${query} ${[...new Set(extra)].join(' ')}` : '');
    raw.push(extend(words.flatMap((w) => related(this.res, w, 0.5, 2))));
    raw.push(extend(feedbackTerms(query, feedback)));
    raw.push(extend(words.flatMap((w) => neighbours(this.res.vectors, w, 0.6, 2))));
    raw.push(extend(words.flatMap((w) => related(this.res, w, 0.3, 3))));
    return cleanVariants(query, raw, count);
  }

  variants(query: string, count: number, ctx: TransformContext = {}): Promise<string[]> {
    return Promise.resolve(this.variantsSync(query, count, ctx.feedback ?? []));
  }

  /** The offline provider writes no hypothetical answers: HyDE needs the model. */
  hypothetical(): Promise<string | null> {
    return Promise.resolve(null);
  }
}
