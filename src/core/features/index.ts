// Pure featurizers of the thirteen spaces: text (and times, positions, lexical tables) in,
// per-space vectors out. Encoder-dependent spaces (E1, E5, E10) only get their inputs here.
export { fnv1a, mulberry32, termId } from './hash';
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

/**
 * Revision of the featurizers' OUTPUT (not of the storage format or the resources): bumped when
 * a featurizer changes what it stores, so rows computed before can be found stale.
 * 2: E7 structural code features (sparse cosine), E11 without clock times / durations.
 * (To take effect it must be part of LEXICAL_ID in workers/featurize-core.ts and
 * LEXICAL_FEATURES_ID in src/bridge/embed-bridge.ts.)
 */
export const FEATURIZER_REVISION = 2;
