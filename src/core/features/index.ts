// Pure featurizers of the thirteen spaces: text (and times, positions, lexical tables) in,
// per-space vectors out. Encoder-dependent spaces (E1, E5, E10) only get their inputs here.
export { fnv1a, mulberry32, seededUniform, termId } from './hash';
export {
  RESOURCES_VERSION,
  WORD_VECTORS_FILE,
  LEXICON_FILE,
  ResourceFormatError,
  parseWordVectors,
  parseLexicon,
  wordRank,
  wordVector,
  type WordVectors,
  type LexicalResources,
} from './resources';
export { recencyFeatures, periodicFeatures, positionFeatures, RECENCY_PERIODS_MS, POSITION_DIM } from './temporal';
export { extractCausalClauses, type CausalClause } from './causal';
export { bm25Terms, sparseFeatures, expandedFeatures, idfPrior, termsToSparse, type WeightedTerms } from './sparse';
export { extractCode, splitIdentifier, codeTokens, codeFeatures } from './code';
export { emotionScores, emotionFeatures, EMOTION_DIM, type EmotionScores } from './emotion';
export { hdcFeatures, HDC_BITS } from './hdc';
export { mediaTexts, meanVector, type MediaText } from './media';
export {
  capitalisedPhrases,
  mergeMentions,
  extractRelations,
  entityFeatures,
  entityVector,
  normalizeEntity,
  ENTITY_VECTOR_DIM,
  type EntityMention,
  type RelationTriple,
} from './entities';
export { lateFeatures, MAX_LATE_TOKENS } from './late';

export { FEATURIZER_REVISION } from './resources';
