// Non-core glue of the thirteen spaces: resource loading, NER, and featurize().
export { loadResources, getResources, ResourceLoadError, DEFAULT_RESOURCES_BASE, type FetchLike } from './resources';
export { recognizeEntities } from './ner';
export {
  featurize,
  featurizeLexical,
  featurizeQuery,
  planFeatures,
  planQueryFeatures,
  runPlan,
  MAX_FEATURE_CHARS,
  type FeaturePlan,
  type FeaturizeInput,
  type FeaturizeOptions,
  type TextEncoder,
} from './featurize';
export { serializeFeatures, deserializeFeatures, spaceSimilarities, type SpaceFeatures } from '../core/spaces';
