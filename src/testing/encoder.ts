// Test doubles for the encoder: a deterministic hashed-bag-of-words embedder, and the embed
// worker's featurizer run in-process over it.

import { AppError } from '../core/errors';
import { fnv1a, type LexicalResources } from '../core/features';
import { MAX_EMBED_CHARS, type Embedder, type EmbedderInfo } from '../embed/types';
import { LEXICAL_ID, type FeaturizeItem, type SpaceFeaturizer } from '../protocol/embed';
import { entitiesOfTexts, featurizeItems, featurizeQueryText, queryVariantsOf } from '../../workers/featurize-core';

export interface FakeEmbedder extends Embedder {
  /** Texts passed to embed(), in order. */
  calls: string[];
  failNext?: AppError;
}

/** Each lowercase word adds 1 to bucket hash(word) % dim; the sum is L2-normalised. */
export function createFakeEmbedder(dim = 32, id = 'fake-hash/v1'): FakeEmbedder {
  const info: EmbedderInfo = { id, name: 'fake hashed bag of words', dim, backend: 'cpu', maxInputChars: MAX_EMBED_CHARS };
  const e: FakeEmbedder = {
    calls: [],
    info: () => info,
    async embed(texts, signal) {
      if (signal?.aborted) throw new AppError('ABORTED');
      if (e.failNext) {
        const f = e.failNext;
        e.failNext = undefined;
        throw f;
      }
      return texts.map((t) => {
        e.calls.push(t);
        const v = new Float32Array(dim);
        for (const w of t.toLowerCase().match(/[a-z0-9]+/g) ?? []) v[fnv1a(w) % dim] += 1;
        let n = 0;
        for (const x of v) n += x * x;
        n = Math.sqrt(n) || 1;
        for (let i = 0; i < dim; i++) v[i] /= n;
        return v;
      });
    },
  };
  return e;
}

/**
 * The embed worker's featurizer run in-process over `embedder` (e.g. the fake) and lexical
 * resources loaded from disk (scripts/lib/resources-node.ts): the same code as the worker.
 */
export function createLocalFeaturizer(embedder: Embedder, resources: LexicalResources): SpaceFeaturizer & { calls: number } {
  const f = {
    calls: 0,
    lexicalId: () => LEXICAL_ID,
    async featurize(items: FeaturizeItem[], signal?: AbortSignal) {
      f.calls++;
      return featurizeItems(items, embedder, resources, signal);
    },
    async featurizeQuery(text: string, signal?: AbortSignal) {
      f.calls++;
      return featurizeQueryText(text, embedder, resources, signal);
    },
    async entities(texts: string[]) {
      return entitiesOfTexts(texts, resources);
    },
    async queryVariants(query: string, count: number, feedback: string[], signal?: AbortSignal) {
      return queryVariantsOf(query, count, feedback, embedder, resources, signal);
    },
  };
  return f;
}
