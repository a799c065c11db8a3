// The one place the featurizers get their words from: the project's tokenizer / stemmer in
// src/core/text, so E6 / E13 terms agree with the lexical index.
export { analyzeWithSurface, tokenize, porterStem, isStopword, type AnalyzedToken } from '../text';
