// SpaceFeatures: everything a memory (or query) holds in the thirteen spaces; absent = undefined.
// spaceSimilarities compares two of them space by space through the registry's dispatcher.

import type { SpaceId } from '../types';
import { SPACE_IDS } from './registry';
import type { SpaceSims } from './relevance';
import { similarity } from './similarity';
import type { BinaryVector, DenseVector, EntityFeatures, SparseVector, SpaceVector, TokenMatrix } from './vectors';

export interface SpaceFeatures {
  E1?: DenseVector; // sentence encoder
  E2?: DenseVector; // recency encoding
  E3?: DenseVector; // periodic time
  E4?: DenseVector; // session position
  E5?: DenseVector; // causal clauses, encoded
  E6?: SparseVector; // BM25 terms
  E7?: SparseVector; // code features
  E8?: DenseVector; // emotion
  E9?: BinaryVector; // hyperdimensional
  E10?: DenseVector; // media captions, encoded
  E11?: EntityFeatures; // entities + relations
  E12?: TokenMatrix; // per-token vectors
  E13?: SparseVector; // expanded terms
}

export interface SpaceSimilarityOptions {
  /** Only these spaces (default: all thirteen). */
  spaces?: readonly SpaceId[];
  warn?: (message: string) => void;
}

/** Similarity per space present on both sides; a space missing on either side is left out. */
export function spaceSimilarities(
  query: SpaceFeatures,
  memory: SpaceFeatures,
  options: SpaceSimilarityOptions = {},
): SpaceSims {
  const out: SpaceSims = {};
  for (const id of options.spaces ?? SPACE_IDS) {
    const s = similarity(query[id] as SpaceVector | undefined, memory[id] as SpaceVector | undefined, id, options.warn);
    if (s !== undefined) out[id] = s;
  }
  return out;
}
