// Public API of the thirteen embedding spaces: registry, config, similarity functions,
// multi-space relevance (similar in ANY non-temporal space), divergence (below a low threshold
// against every recent memory) and the window of recent work.
export {
  SPACES,
  SPACE_IDS,
  NON_TEMPORAL_SPACES,
  TEMPORAL_SPACES,
  isSpaceId,
  spaceLabel,
  type SpaceDef,
  type SpaceCategory,
  type SimilarityKind,
} from './registry';
export {
  DEFAULT_SIMILARITY_CONFIG,
  validateSimilarityConfig,
  assertValidSimilarityConfig,
  loadSimilarityConfig,
  isExcluded,
  activeEmbedders,
  activeEmbedderCount,
  type SimilarityConfig,
  type SimilarityConfigInput,
} from './config';
export {
  cosine,
  cosineSparse,
  containmentSparse,
  setContainment,
  jaccard,
  hamming,
  maxsim,
  transe,
  entitySimilarity,
  similarity,
  type SimilarityContext,
  type TermWeights,
} from './similarity';
export {
  relevanceScore,
  isRelevant,
  isHighlyRelevant,
  relevanceTier,
  HIGHLY_RELEVANT_MIN_SPACES,
  type RelevanceResult,
  type RelevanceTier,
  type SpaceSims,
} from './relevance';
export {
  detectDivergence,
  formatDivergenceAlert,
  summarizeRecent,
  formatSpaceRanges,
  NO_RECENT_MESSAGE,
  type DivergenceAlert,
  type DivergenceOptions,
} from './divergence';
export { selectRecentWindow, type RecentCandidate } from './recent';
export {
  sparseFromEntries,
  tokenMatrix,
  type DenseVector,
  type SparseVector,
  type BinaryVector,
  type TokenMatrix,
  type EntityFeatures,
  type SpaceVector,
} from './vectors';
export { spaceSimilarities, type SpaceFeatures, type SpaceSimilarityOptions } from './features';
export { serializeFeatures, deserializeFeatures, serializeSpace, deserializeSpace, stepsOf, tokensFromSteps, FEATURE_FORMAT_VERSION, type SerializedFeatures } from './serialize';
export { weightedSimilarity } from './relevance';
export { detectFeatureDivergence, divergenceSimilarities, bestSimilarities } from './divergence';
export {
  divergenceVerdict,
  DIVERGENCE_GATE,
  SAME_TOPIC_COSINE,
  topicCentroid,
  sameTopic,
  topicWords,
  firstWords,
  type DivergenceGateRule,
  type DivergenceReason,
  type DivergenceVerdict,
  type DivergenceEvidence,
} from './divergence-gate';
export { blendSpaceScores, spaceSubsetConfig, BLEND_PRESETS, type SpaceCandidate, type BlendOptions, type BlendedHit } from './rank';
