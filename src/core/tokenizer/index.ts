export {
  createTokenizer,
  preprocess,
  SEPARATOR,
  RESERVED_SYMBOLS_COUNT,
  UNKNOWN_ID,
  type SentencePieceTokenizer,
  type Vocabulary,
  type VocabularyEntry,
} from './sentencepiece';
