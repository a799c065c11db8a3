import { describe, expect, it } from 'vitest';
import { isDangerousLink, safeUrl } from './safe-url';

describe('safeUrl (what the UI may put in an href)', () => {
  it('keeps http, https and mailto, normalised', () => {
    expect(safeUrl('https://example.org/a b')).toBe('https://example.org/a%20b');
    expect(safeUrl('  HTTP://Example.org ')).toBe('http://example.org/');
    expect(safeUrl('mailto:me@example.org')).toBe('mailto:me@example.org');
  });
  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'java\tscript:alert(1)',
    ' \u0001javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'blob:https://example.org/x',
    '/relative/path',
    'example.org',
    '',
  ])('gives null for %j', (url) => {
    expect(safeUrl(url)).toBeNull();
  });
  it('gives null for what is not text', () => {
    expect(safeUrl(42)).toBeNull();
    expect(safeUrl(null)).toBeNull();
  });
});

describe('isDangerousLink (what importers drop from a source)', () => {
  it('sees through case, whitespace and control characters', () => {
    for (const s of ['javascript:x', ' JAVASCRIPT:x', 'java\nscript:x', 'jav\u200bascript:x', 'data:image/svg+xml;base64,AAA', 'VBScript:x'])
      expect(isDangerousLink(s)).toBe(true);
  });
  it('leaves plain words and ordinary links alone', () => {
    for (const s of ['Notebook, p. 12', 'https://example.org', 'ChatGPT: data: a talk', 'metadata: x']) expect(isDangerousLink(s)).toBe(false);
  });
});
