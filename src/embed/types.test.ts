import { describe, expect, it } from 'vitest';
import { MAX_EMBED_CHARS, prepareForEmbedding } from './types';

describe('prepareForEmbedding', () => {
  it('keeps text up to the limit untouched', () => {
    const s = 'x'.repeat(MAX_EMBED_CHARS);
    expect(prepareForEmbedding(s)).toEqual({ text: s, truncated: false });
    expect(prepareForEmbedding('  hi  ')).toEqual({ text: '  hi  ', truncated: false });
  });

  it('cuts a long text at the last word boundary in the final 10%', () => {
    // words of 9 letters + a space: boundaries at every 10th index (9, 19, ..., 1999)
    const s = 'abcdefghi '.repeat(300);
    const r = prepareForEmbedding(s);
    expect(r.truncated).toBe(true);
    // index 2000 is 'a' (start of word 201); the last space at or before 2000 is index 1999
    expect(r.text.length).toBe(1999);
    expect(r.text.endsWith('abcdefghi')).toBe(true);
  });

  it('cuts at the limit when no boundary is near, without splitting a surrogate pair', () => {
    const s = 'a' + '😀'.repeat(MAX_EMBED_CHARS); // the pair straddles index 1999/2000
    const r = prepareForEmbedding(s);
    expect(r.truncated).toBe(true);
    // 'a' + 999 whole emoji = 1999 code units; index 1999 would be a lone high surrogate
    expect(r.text.length).toBe(1999);
    expect(r.text.at(-1)).toBe('\ude00');
  });
});
