import { describe, expect, it } from 'vitest';
import { dedupeKey, dedupeMaterial } from './dedupe';

describe('dedupeKey', () => {
  const base = { text: 'Paris is the capital', createdAt: 1_700_000_000_000, source: 'https://example.org' };
  it('is 16 hex digits and the same for the same draft', () => {
    expect(dedupeKey(base)).toMatch(/^[0-9a-f]{16}$/);
    expect(dedupeKey({ ...base })).toBe(dedupeKey(base));
  });
  it('is fixed across versions: a stored key must keep its meaning', () => {
    expect(dedupeKey({ text: 'a' })).toBe(dedupeKey({ text: 'a', createdAt: undefined, source: undefined }));
    expect(dedupeMaterial({ text: 'a\r\nb\rc' })).toBe('a\nb\nc\u0000\u0000');
  });
  it('ignores line-ending style and Unicode composition, nothing else', () => {
    expect(dedupeKey({ ...base, text: 'caf\u00e9\r\nbar' })).toBe(dedupeKey({ ...base, text: 'cafe\u0301\nbar' }));
    expect(dedupeKey({ ...base, text: 'Paris is the capital ' })).not.toBe(dedupeKey(base));
    expect(dedupeKey({ ...base, createdAt: base.createdAt + 1 })).not.toBe(dedupeKey(base));
    expect(dedupeKey({ ...base, source: undefined })).not.toBe(dedupeKey(base));
  });
  it('does not collide on 50k distinct short drafts', () => {
    const keys = new Set<string>();
    for (let i = 0; i < 50_000; i++) keys.add(dedupeKey({ text: `note ${i}` }));
    expect(keys.size).toBe(50_000);
  });
});
