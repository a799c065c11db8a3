// The USE-lite tokenizer: SentencePiece-style unigram pieces found with a trie, best split by
// Viterbi. It reproduces the tfjs-models universal-sentence-encoder tokenizer id for id,
// including its quirks, because the model was exported with that tokenizer in front of it:
//  - NFKC, then "\u2581" before the text and in place of every ASCII space (only U+0020);
//  - the first `reservedSymbolsCount` vocabulary rows are never matched;
//  - a position with no matching piece emits one code point as id 0 (score 0), and runs of
//    id 0 collapse into one;
//  - a candidate replaces the best split ending at a position when that best is exactly 0
//    (unset, or reached only through unknowns) or when its score is >= the best (later wins
//    ties); candidates are visited by end position, then start position ascending;
//  - back-tracking steps by the vocabulary string's UTF-16 length (code points elsewhere);
//  - a null score (a handful of rows in the shipped vocab.json) counts as 0, as in JS `null + x`;
//  - a duplicated piece keeps the last row's id and score.
// Unlike the reference (which slices the symbol array at every position, O(n^2)), matching
// walks the trie from each position, so a text costs O(n * longest piece).

/** One vocabulary row: [piece, log-probability score]. */
export type VocabularyEntry = readonly [string, number | null];
export type Vocabulary = ReadonlyArray<VocabularyEntry>;

export const SEPARATOR = '\u2581';
export const RESERVED_SYMBOLS_COUNT = 6;
export const UNKNOWN_ID = 0;

export interface SentencePieceTokenizer {
  /** Token ids of `text`, in order. The empty string gives an empty array. */
  encode(text: string): Int32Array;
  readonly vocabularySize: number;
}

/** NFKC, then the separator before the text and in place of every space (reference behaviour). */
export function preprocess(text: string): string {
  const normalized = text.normalize('NFKC');
  return normalized.length > 0 ? SEPARATOR + normalized.replace(/ /g, SEPARATOR) : normalized;
}

function toCodePoints(s: string): Uint32Array {
  const out = new Uint32Array(s.length);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out[n++] = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
        continue;
      }
    }
    out[n++] = c;
  }
  return out.subarray(0, n);
}

// Edges of the trie live in one Map keyed by parent * 2^21 + code point (code points < 2^21),
// which keeps the structure flat and the lookups monomorphic.
const CP_SPAN = 0x200000;

export function createTokenizer(
  vocabulary: Vocabulary,
  reservedSymbolsCount: number = RESERVED_SYMBOLS_COUNT,
): SentencePieceTokenizer {
  const edges = new Map<number, number>();
  const nodeId: number[] = [-1]; // vocabulary id ending at a node, -1 when none
  const nodeScore: number[] = [0];
  for (let id = reservedSymbolsCount; id < vocabulary.length; id++) {
    const [piece, score] = vocabulary[id];
    const cps = toCodePoints(piece);
    let node = 0;
    for (let k = 0; k < cps.length; k++) {
      const key = node * CP_SPAN + cps[k];
      let next = edges.get(key);
      if (next === undefined) {
        next = nodeId.length;
        nodeId.push(-1);
        nodeScore.push(0);
        edges.set(key, next);
      }
      node = next;
    }
    if (cps.length > 0) {
      nodeId[node] = id;
      nodeScore[node] = score ?? 0;
    }
  }
  const ids = Int32Array.from(nodeId);
  const scores = Float64Array.from(nodeScore);
  // UTF-16 length of each vocabulary string, used (as in the reference) when back-tracking.
  const pieceLength = new Int32Array(vocabulary.length);
  for (let i = 0; i < vocabulary.length; i++) pieceLength[i] = vocabulary[i][0].length;

  function encode(text: string): Int32Array {
    const symbols = toCodePoints(preprocess(text));
    const n = symbols.length;
    if (n === 0) return new Int32Array(0);
    const best = new Float64Array(n + 1);
    const words = new Int32Array(n + 1);
    // A forward pass over start positions visits, for every end position, its candidates in
    // ascending start order, and best[start] is final when used: the reference's order exactly.
    for (let i = 0; i < n; i++) {
      const base = best[i];
      let matched = false;
      let node = edges.get(symbols[i]); // root is node 0, so the key is the code point itself
      for (let j = i; node !== undefined; ) {
        const id = ids[node];
        if (id >= 0) {
          matched = true;
          const end = j + 1;
          const score = scores[node] + base;
          if (best[end] === 0 || score >= best[end]) {
            best[end] = score;
            words[end] = id;
          }
        }
        j++;
        if (j >= n) break;
        node = edges.get(node * CP_SPAN + symbols[j]);
      }
      if (!matched) {
        const end = i + 1;
        if (best[end] === 0 || base >= best[end]) {
          best[end] = base;
          words[end] = UNKNOWN_ID;
        }
      }
    }
    const reversed: number[] = [];
    for (let iter = n; iter > 0; ) {
      const id = words[iter];
      reversed.push(id);
      iter -= pieceLength[id];
    }
    const out: number[] = [];
    let previousUnknown = false;
    for (const id of reversed) {
      if (!(previousUnknown && id === UNKNOWN_ID)) out.push(id);
      previousUnknown = id === UNKNOWN_ID;
    }
    out.reverse();
    return Int32Array.from(out);
  }

  return { encode, vocabularySize: vocabulary.length };
}
