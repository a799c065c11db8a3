// E12: late interaction. One word vector per content token (unique, stopwords dropped, in the
// word-vector vocabulary), compared by MaxSim. Unknown words are skipped: they carry no vector.

import type { TokenMatrix } from '../spaces/vectors';
import type { WordVectors } from './resources';
import { isStopword, tokenize } from './tokens';

export const MAX_LATE_TOKENS = 48;

export function lateFeatures(text: string, vectors: WordVectors, maxTokens = MAX_LATE_TOKENS): TokenMatrix | undefined {
  const rows: number[] = [];
  const seen = new Set<string>();
  for (const t of tokenize(text)) {
    if (seen.has(t) || isStopword(t)) continue;
    seen.add(t);
    const r = vectors.index.get(t);
    if (r !== undefined) rows.push(r);
    if (rows.length >= maxTokens) break;
  }
  if (!rows.length) return undefined;
  const dim = vectors.dim;
  const data = new Float32Array(rows.length * dim);
  rows.forEach((r, i) => {
    for (let k = 0; k < dim; k++) data[i * dim + k] = vectors.data[r * dim + k] / 127;
  });
  return { rows: rows.length, dim, data };
}
