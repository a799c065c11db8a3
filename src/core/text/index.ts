export { tokenize, analyze, analyzeWithSurface, type AnalyzeOptions, type AnalyzedToken } from './tokenize';
export { porterStem } from './porter';
export { ENGLISH_STOPWORDS, isStopword } from './stopwords';
