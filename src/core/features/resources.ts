// Lexical resources of the featurizers, parsed from the files scripts/build-resources.mjs
// writes to public/generated/. Parsing is pure; loading (fetch / fs) lives outside the core.

export const RESOURCES_VERSION = 1;
/**
 * Revision of the featurizers' OUTPUT (not of the storage format or the resources): bumped when a
 * featurizer changes what it stores, so rows computed before are found stale and recomputed
 * (it is part of the lexical producer id, LEXICAL_ID / LEXICAL_FEATURES_ID).
 * 2: E7 structural code features (sparse cosine), E11 without clock times / durations.
 */
export const FEATURIZER_REVISION = 2;
export const WORD_VECTORS_FILE = 'word-vectors.bin';
export const LEXICON_FILE = 'lexicon.json';

export interface WordVectors {
  /** Words in descending corpus frequency: the row index is the frequency rank. */
  words: string[];
  index: Map<string, number>;
  dim: number;
  /** count x dim int8, each row an L2-normalised vector x 127. */
  data: Int8Array;
}

export interface LexicalResources {
  vectors: WordVectors;
  vader: Map<string, number>;
  afinn: Map<string, number>;
  /** word -> related words with a weight in (0, 1] (WordNet synonyms / hypernyms). */
  synonyms: Map<string, ReadonlyArray<readonly [string, number]>>;
}

export class ResourceFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResourceFormatError';
  }
}

export function parseWordVectors(buffer: ArrayBuffer): WordVectors {
  if (buffer.byteLength < 20) throw new ResourceFormatError('word-vectors.bin is truncated');
  const view = new DataView(buffer);
  const magic = String.fromCharCode(view.getUint8(0), view.getUint8(1), view.getUint8(2), view.getUint8(3));
  if (magic !== 'MGWV') throw new ResourceFormatError('word-vectors.bin has the wrong format (bad magic)');
  const version = view.getUint32(4, true);
  if (version !== RESOURCES_VERSION) {
    throw new ResourceFormatError(`word-vectors.bin is version ${version}, expected ${RESOURCES_VERSION}; rebuild resources`);
  }
  const count = view.getUint32(8, true);
  const dim = view.getUint32(12, true);
  const vocabBytes = view.getUint32(16, true);
  const dataOffset = 20 + ((vocabBytes + 3) & ~3);
  if (buffer.byteLength < dataOffset + count * dim) throw new ResourceFormatError('word-vectors.bin is truncated');
  const words = new TextDecoder().decode(new Uint8Array(buffer, 20, vocabBytes)).split('\n');
  if (words.length !== count) throw new ResourceFormatError(`word-vectors.bin lists ${words.length} words, header says ${count}`);
  const index = new Map<string, number>();
  words.forEach((w, i) => index.set(w, i));
  return { words, index, dim, data: new Int8Array(buffer, dataOffset, count * dim) };
}

interface LexiconJson {
  version: number;
  vader: Record<string, number>;
  afinn: Record<string, number>;
  synonyms: Record<string, [string, number][]>;
}

export function parseLexicon(json: unknown): Omit<LexicalResources, 'vectors'> {
  const l = json as LexiconJson;
  if (!l || typeof l !== 'object' || l.version !== RESOURCES_VERSION || !l.vader || !l.afinn || !l.synonyms) {
    throw new ResourceFormatError(`lexicon.json is missing or not version ${RESOURCES_VERSION}; rebuild resources`);
  }
  return {
    vader: new Map(Object.entries(l.vader)),
    afinn: new Map(Object.entries(l.afinn)),
    synonyms: new Map(Object.entries(l.synonyms)),
  };
}

/** Word's frequency rank, or undefined when not in the vocabulary. */
export function wordRank(r: WordVectors, word: string): number | undefined {
  return r.index.get(word);
}

/** Float copy of a word's unit vector, or undefined. */
export function wordVector(r: WordVectors, word: string): Float32Array | undefined {
  const i = r.index.get(word);
  if (i === undefined) return undefined;
  const out = new Float32Array(r.dim);
  const base = i * r.dim;
  for (let k = 0; k < r.dim; k++) out[k] = r.data[base + k] / 127;
  return out;
}
