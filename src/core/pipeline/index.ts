// The one ranking pipeline (hybrid + thirteen spaces + lateral + associative), shared by the
// engine worker and the LoCoMo eval. Pure: no DOM, storage or model runtime.
export { SpaceIndex, CANDIDATE_SPACES, type SpaceCandidateHit, type SpaceCandidateOptions } from './space-index';
export {
  runPipeline,
  divergenceAlerts,
  resolveRanking,
  DEFAULT_RANKING,
  DEFAULT_PIPELINE_OPTIONS,
  type RankingConfig,
  type PipelineContext,
  type PipelineQuery,
  type PipelineResult,
  type RecentMemory,
} from './pipeline';
