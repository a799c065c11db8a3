export { confidenceOf, shouldEscalate, sigmoid, CONFIDENCE_WEIGHTS, type Confidence, type ConfidenceModel } from './trigger';
export { DEEP_SEARCH_DEFAULTS, resolveDeepSearch, type DeepSearchMode, type DeepSearchOptions, type DeepSearchOptionsInput } from './options';
export { expandPool, inScope, type ExpansionSource, type ExpansionStrategy, type PoolDoc, type PoolEntry, type Scope, type ExpandPoolOptions } from './expand';
export { OfflineReader, readOffline, timeMentions, OFFLINE_READER_WEIGHTS, type Reader, type ReaderCandidate, type ReaderQuery, type ReaderScore, type ReadContext } from './reader';
export { mergeDeep, CONSTRAINT_TAG, CONSTRAINT_FLOOR, type MergedHit, type MergeOptions } from './merge';
export { estimateTokens, trimToBudget, SessionRateLimiter, withTimeout, TIMED_OUT, type Timers } from './bounds';
export { deepSearch, type DeepReport, type DeepReportView, type DeepSearchInput, type DeepSearchOutput, type DeepStatus } from './run';
export { searchIterative, clampIterations, DEFAULT_MAX_ITERATIONS, type IterativeDeps, type IterativeOptions, type IterativePass, type IterativeResult, type IterativeStop, type RetrievedHit } from './iterative';
export { parseReaderAnswer, readerPrompt } from './model-answer';
