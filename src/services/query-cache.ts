// The query's own computations, kept for the same text (issue 13): a plain search's query vector
// (the encoder's query embedding) and a recall's query features (every content space, computed in
// the embed worker). A refinement asks the same text again, Recall and Search may ask the text the
// other asked, a person retypes a query: none of those waits for the encoder twice. Keyed by the
// text and by who computed it (the encoder's id and the lexical featurizers' id): when either
// changes, or the services are told the encoder changed (`clear`), nothing kept is answered again.
// Only finished results are kept (a call aborted or failed keeps nothing); each answer is a copy,
// so a caller that transfers or changes what it got cannot change what is kept.
import { copyFeatures, type SerializedFeatures } from './featurizer';

/** Queries kept per kind: the few a person moves between (the newest replaces the least recently used). */
export const QUERY_CACHE_SIZE = 16;

export interface QueryCache {
  /** The query vector of `text`: kept, or `compute`d and kept. */
  vector(text: string, compute: () => Promise<Float32Array>): Promise<Float32Array>;
  /** The query features of `text`: kept, or `compute`d and kept. */
  features(text: string, compute: () => Promise<SerializedFeatures>): Promise<SerializedFeatures>;
  /** Forgets everything (the encoder changed). */
  clear(): void;
  /** Answers from what was kept / computed, since the start (tests, diagnostics). */
  readonly stats: { hits: number; misses: number };
}

/** `identity`: who computes a query's vector and features now (encoder id + lexical id); a change empties the cache. */
export function createQueryCache(identity: () => string, size = QUERY_CACHE_SIZE): QueryCache {
  const vectors = new Map<string, Float32Array>();
  const features = new Map<string, SerializedFeatures>();
  let kept = identity();
  let generation = 0; // bumped by clear(): a computation that began before it is answered, not kept
  const stats = { hits: 0, misses: 0 };

  function forget(who: string): void {
    vectors.clear();
    features.clear();
    kept = who;
    generation++;
  }

  async function through<T>(map: Map<string, T>, text: string, compute: () => Promise<T>, copy: (v: T) => T): Promise<T> {
    const who = identity();
    if (who !== kept) forget(who);
    const got = map.get(text);
    if (got !== undefined) {
      stats.hits++;
      map.delete(text); // most recently used last
      map.set(text, got);
      return copy(got);
    }
    stats.misses++;
    const began = generation;
    const value = await compute();
    // computed by an encoder that was replaced meanwhile: answered, not kept
    if (generation === began && identity() === who && kept === who) {
      map.set(text, copy(value));
      if (map.size > size) map.delete(map.keys().next().value as string);
    }
    return value;
  }

  return {
    vector: (text, compute) => through(vectors, text, compute, (v) => v.slice()),
    features: (text, compute) => through(features, text, compute, copyFeatures),
    clear: () => forget(identity()),
    stats,
  };
}
