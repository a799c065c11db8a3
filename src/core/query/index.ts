export { cleanVariants, type QueryTransformer, type TransformContext } from './transformer';
export { OfflineTransformer, feedbackTerms, related, neighbours, PRF_DOCS, PRF_TERMS } from './offline';
export { checkModelEndpoint, isLoopbackHost, type ModelEndpoint } from './endpoint';
