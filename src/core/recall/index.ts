// Recall's mechanisms (options and profiles, lateral retrieval, the lateral evaluator, feedback,
// associative hops, grouping); src/core/pipeline composes them into the one read path.
export type { RecallDoc, RecallResult, ChainLink } from './types';
export { CognitiveProfile, PROFILES, PROFILE_NAMES, isCognitiveProfile, type ProfilePreset, type GroupBy } from './profiles';
export {
  RecallOptions,
  RecallOptionsBuilder,
  resolveRecallOptions,
  defaultLateralMaxResults,
  BASE_DEFAULTS,
  MAX_ASSOC_HOPS,
  MAX_DECAY_TAU_DAYS,
  MIN_AS_OF,
  MAX_AS_OF,
  OPTION_NAMES,
  type RecallOptionsInput,
} from './options';
export {
  DEEP_DEFAULTS,
  DEEP_OPTION_NAMES,
  MAX_MULTI_QUERY,
  hybridPatch,
  resolveDeepOptions,
  type DeepRecallOptions,
  type DeepRecallOptionsInput,
  type FusionOption,
} from './options-deep';
export {
  lateralScore,
  lateralSimilarity,
  l2FromCosine,
  recencyDecay,
  tagOverlap,
  deriveQueryTags,
  recallWithLateral,
  weightByCounts,
  isDerivedProfile,
  QUERY_TAG_SOURCE_RESULTS,
  SUGGESTED_TAG_WEIGHT,
  type WeightedTag,
  type LateralCandidate,
  type LateralPassOptions,
  type LateralHooks,
} from './lateral';
export {
  LateralEvaluator,
  formatLateralStatus,
  formatReinforce,
  LUR_DISABLE_BELOW,
  LUR_TIGHTEN_BELOW,
  LUR_HEALTHY_ABOVE,
  TIGHTEN_FACTOR,
  TUNING_TABLE,
  tuningDecision,
  tuningRuleInEffect,
  type LateralEvaluatorState,
  type LateralStatus,
  type TuningAction,
  type TuningDecision,
  type TuningRuleInEffect,
  type TuningRuleName,
} from './evaluator';
export {
  FeedbackState,
  applyFeedback,
  feedbackFactor,
  validateValence,
  validateFeedbackReason,
  MAX_REASON_LENGTH,
  SUPPRESSED_FACTOR,
  BOOST_CAP,
  VALENCE_SCALE,
  type FeedbackEvent,
  type MemoryFeedback,
} from './feedback';
export { associate, CROSS_SCOPE_PENALTY, type AssocOptions, type AssocSource, type AssocOutcome } from './assoc';
export { buildNeighbourMatrix, matrixFromStore, normalised, rowDot, type NeighbourMatrix } from './matrix';
export { liveMatrix } from './live-matrix';
export { assignGroups, groupResults, UNTAGGED_GROUP, type ResultGroup } from './group';
export { TopKHeap, compareRanked, ranksBefore, type Ranked } from './heap';
