import { describe, expect, it } from 'vitest';
import { formatBytes, formatReinforceLine, formatSuppressLine, highlight, preview } from './format';

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

describe('feedback confirmation lines', () => {
  it('words what reinforce / suppress returned, with the lateral note only for a lateral result', () => {
    expect(formatReinforceLine('m-1', 50, true)).toBe("👍 Reinforced 'm-1' with valence=50 (lateral result — feedback recorded)");
    expect(formatReinforceLine('m-1', -30, false)).toBe("👎 Reinforced 'm-1' with valence=-30");
    expect(formatSuppressLine('m-2', 'irrelevant', true)).toBe("🚫 Suppressed 'm-2' (irrelevant) (lateral result — feedback recorded)");
    expect(formatSuppressLine('m-2', undefined, false)).toBe("🚫 Suppressed 'm-2'");
  });
});
