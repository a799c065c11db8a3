export { deriveTags, DEFAULT_TAG_LIMIT, MAX_ANALYSED_CHARS, type DeriveTagsOptions } from './derive';
export { STOPWORDS, WEAK_WORDS, isStopword, isWeakWord } from './stopwords';
