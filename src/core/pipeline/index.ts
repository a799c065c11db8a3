// The one ranking pipeline (hybrid + thirteen spaces + lateral + associative), shared by the
// engine worker and the LoCoMo eval. Pure: no DOM, storage or model runtime.
export { SpaceIndex, CANDIDATE_SPACES, type SpaceCandidateHit, type SpaceCandidateOptions } from './space-index';
export { runPipeline, pipelineOptions, divergenceAlerts, type RecentMemory } from './pipeline';
export { DEFAULT_RANKING, DEFAULT_PIPELINE_OPTIONS, resolveRanking, scoringSpaces, blendWeight } from './ranking';
export { gatherCandidates, type Candidates, type CandidateRow } from './candidates';
export { blend, blendScores } from './blend';
export { standardPool, type PooledHit } from './standard';
export { lateralPass, type LateralSource, type LateralOutcome } from './lateral-pass';
export { mergeAssociative, type AssociativeSource } from './associative';
export { annotate } from './annotate';
export { applyTime, decayFactor, DAY_MS, SUPERSEDED_FACTOR, type TimeOptions } from './temporal';
export type { RankingConfig, PipelineContext, PipelineQuery, PipelineResult } from './types';
export { CALIBRATIONS, calibrationFor, MINILM_CALIBRATION_ID, MPNET_JUDGE_CALIBRATION_ID, NEUTRAL_CALIBRATION, USE_LITE_CALIBRATION_ID, type EncoderCalibration, type JudgeSpec } from './calibration';
export { lexicalEvidence } from './blend';
export { wantsExtraLists, queryLists, expansionList, fuseExtraLists, DEEP_RRF_K, EXPANSION_SEEDS, EXPANSION_LIMIT, DEFAULT_DEEP_FUSION, type DeepFusion, type ExtraList, type ExtraListName } from './deep';
export { sessionContext, sessionNeighbours, type NeighboursOf } from './session-context';
export { SessionOrder } from './session-order';
export { lateInteraction, maxSim, tokenIdf, speakerLabel, namesLabel, speakerMatch, type TokenMatrix, type TokensOf } from './late-interaction';
export { judgeRerank, cosine as judgeCosine, DEFAULT_JUDGE, type JudgeOptions } from './judge';
