import { describe, expect, it } from 'vitest';
import { createTokenizer, preprocess, type Vocabulary } from './sentencepiece';

const reserved: Vocabulary = [
  ['\ufffd', 0], ['<s>', 0], ['</s>', 0], ['x1', 0], ['x2', 0], ['x3', 0],
];

// ids:        6          7         8            9          10
const pieces: Vocabulary = [['▁a', -1], ['b', -2], ['▁ab', -2.5], ['▁', -3], ['a', -1.5]];
const tok = createTokenizer([...reserved, ...pieces]);
const enc = (s: string) => Array.from(tok.encode(s));

describe('preprocess', () => {
  it('applies NFKC and marks the start and every ASCII space', () => {
    expect(preprocess('\ufb01 x')).toBe('▁fi▁x'); // the "fi" ligature decomposes under NFKC
    expect(preprocess('a\tb')).toBe('▁a\tb'); // only U+0020 becomes the separator
    expect(preprocess('')).toBe('');
  });
});

describe('createTokenizer (hand-worked Viterbi)', () => {
  it('takes the best-scoring split', () => {
    // ▁ab: -2.5 beats ▁a + b = -3 and ▁ + a + b = -6.5
    expect(enc('ab')).toEqual([8]);
    // no ▁b piece: ▁ (-3) + b (-2) + a (-1.5)
    expect(enc('ba')).toEqual([9, 7, 10]);
  });

  it('emits id 0 for unknown code points and merges runs of them', () => {
    // ▁ | x y (unknown, merged) | ▁a
    expect(enc('xy a')).toEqual([9, 0, 6]);
    // an astral code point is one symbol, so one unknown
    expect(enc('😀')).toEqual([9, 0]);
  });

  it('encodes the empty string as nothing and spaces as separators', () => {
    expect(enc('')).toEqual([]);
    expect(enc('  ')).toEqual([9, 9, 9]);
  });

  it('lets a later candidate win a tie (reference order)', () => {
    const t = createTokenizer([...reserved, ['▁a', -2], ['▁', -1], ['a', -1]]);
    // ▁a = -2 and ▁ + a = -2: the later start (▁ then a) wins
    expect(Array.from(t.encode('a'))).toEqual([7, 8]);
  });

  it('never matches reserved rows and counts a null score as 0', () => {
    const t = createTokenizer([...reserved.slice(0, 5), ['q', -9], ['▁', -1], ['q', null]]);
    // row 5 ("q", reserved) is skipped; row 7 ("q", null score) matches
    expect(Array.from(t.encode('q'))).toEqual([6, 7]);
  });
});
