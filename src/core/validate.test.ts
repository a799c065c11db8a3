import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { MAX_TAG_LENGTH, normaliseTags, validateMemoryPatch, validateNewMemory, validateStatus } from './validate';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError ? e.code : 'NOT_APP_ERROR';
  }
  return undefined;
}

describe('validateNewMemory', () => {
  it('rejects empty and whitespace-only text with EMPTY_TEXT', () => {
    expect(codeOf(() => validateNewMemory({ text: '' }))).toBe('EMPTY_TEXT');
    expect(codeOf(() => validateNewMemory({ text: ' \n\t ' }))).toBe('EMPTY_TEXT');
    expect(codeOf(() => validateNewMemory({}))).toBe('EMPTY_TEXT');
    expect(codeOf(() => validateNewMemory(null))).toBe('EMPTY_TEXT');
  });

  it('defaults importance to 0.5 and accepts the bounds', () => {
    expect(validateNewMemory({ text: 'x' }).importance).toBe(0.5);
    expect(validateNewMemory({ text: 'x', importance: 0 }).importance).toBe(0);
    expect(validateNewMemory({ text: 'x', importance: 1 }).importance).toBe(1);
  });

  it.each([NaN, Infinity, -Infinity, -0.01, 1.01, '0.5'])('rejects importance %s', (v) => {
    expect(codeOf(() => validateNewMemory({ text: 'x', importance: v }))).toBe('INVALID_IMPORTANCE');
  });

  it('normalises tags from a comma string', () => {
    expect(validateNewMemory({ text: 'x', tags: ' Work ,  Deep   Focus,work,, ,TODO ' }).tags).toEqual([
      'work',
      'deep-focus',
      'todo',
    ]);
  });

  it('normalises tags from an array and caps their length', () => {
    const long = 'a'.repeat(100);
    expect(normaliseTags(['Foo Bar', 'foo-bar', '', '  ', long])).toEqual(['foo-bar', 'a'.repeat(MAX_TAG_LENGTH)]);
    expect(codeOf(() => normaliseTags([3 as unknown as string]))).toBe('INVALID_OPTION');
  });

  it('drops the "#" people type before a tag: "#health" is the tag health, a lone "#" is no tag', () => {
    expect(normaliseTags('#,,,  , #Health, health, ## garden')).toEqual(['health', 'garden']);
    expect(normaliseTags(['#c#'])).toEqual(['c#']); // only a leading one
  });

  it('keeps a multi-megabyte text whole', () => {
    const text = 'word '.repeat(1_000_000); // 5 MB
    const v = validateNewMemory({ text });
    expect(v.text.length).toBe(5_000_000);
    expect(v.text).toBe(text);
  });

  it('validates the valid-time interval', () => {
    expect(validateNewMemory({ text: 'x', validFrom: 10, validTo: 20 })).toMatchObject({ validFrom: 10, validTo: 20 });
    expect(validateNewMemory({ text: 'x' }).validTo).toBeNull();
    expect(codeOf(() => validateNewMemory({ text: 'x', validFrom: 20, validTo: 10 }))).toBe('INVALID_OPTION');
    expect(codeOf(() => validateNewMemory({ text: 'x', validFrom: NaN }))).toBe('INVALID_OPTION');
  });

  it('accepts a past createdAt for imports', () => {
    expect(validateNewMemory({ text: 'x', createdAt: 5 }).createdAt).toBe(5);
    expect(validateNewMemory({ text: 'x' }).createdAt).toBeUndefined();
    expect(codeOf(() => validateNewMemory({ text: 'x', createdAt: 'yesterday' }))).toBe('INVALID_OPTION');
  });

  it('trims the source and drops an empty one', () => {
    expect(validateNewMemory({ text: 'x', source: '  chat  ' }).source).toBe('chat');
    expect(validateNewMemory({ text: 'x', source: '   ' }).source).toBeUndefined();
  });
});

describe('validateMemoryPatch / validateStatus', () => {
  it('validates only present fields', () => {
    expect(validateMemoryPatch({ tags: 'A b' })).toEqual({ tags: ['a-b'] });
    expect(codeOf(() => validateMemoryPatch({ text: '  ' }))).toBe('EMPTY_TEXT');
    expect(codeOf(() => validateMemoryPatch({ importance: undefined }))).toBe('INVALID_IMPORTANCE');
  });
  it('accepts the three statuses only', () => {
    expect(validateStatus('quarantined')).toBe('quarantined');
    expect(codeOf(() => validateStatus('deleted'))).toBe('INVALID_OPTION');
  });
});
