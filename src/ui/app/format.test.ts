import { describe, expect, it } from 'vitest';
import { formatBytes, highlight, preview } from './format';

describe('formatBytes', () => {
  it('uses binary units with one decimal under ten', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB'); // 1536 / 1024 = 1.5
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
    expect(formatBytes(20 * 1024 * 1024)).toBe('20 MB');
    expect(formatBytes(null)).toBe('—');
  });
});

describe('highlight', () => {
  it('marks words starting with a matched stem, case-insensitively', () => {
    expect(highlight('Repaired the Engine today', ['repair', 'engin'])).toEqual([
      { text: 'Repaired', hit: true },
      { text: ' the ', hit: false },
      { text: 'Engine', hit: true },
      { text: ' today', hit: false },
    ]);
  });
  it('leaves text whole with no terms and ignores regex characters', () => {
    expect(highlight('a+b', [])).toEqual([{ text: 'a+b', hit: false }]);
    expect(highlight('a (b) c', ['(b'])).toEqual([{ text: 'a (b) c', hit: false }]);
  });
});

describe('preview', () => {
  it('cuts long text and says so', () => {
    expect(preview('abcdef', 3)).toEqual({ text: 'abc…', cut: true });
    expect(preview('abc', 3)).toEqual({ text: 'abc', cut: false });
  });
});
