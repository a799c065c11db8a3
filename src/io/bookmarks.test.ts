import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importBookmarks } from './bookmarks';
import { decodeEntities, tokenizeHtml } from './html-tokens';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');

describe('importBookmarks: a Chrome export', () => {
  const res = importBookmarks(fixture('bookmarks-chrome.html'), { file: 'bookmarks.html', tags: ['bookmark'] });
  it('takes title, URL, ADD_DATE and the folder path as tags', () => {
    expect(res.items.map((i) => [i.where.line, i.draft.text, i.draft.source, i.draft.createdAt, i.draft.tags])).toEqual([
      [11, 'Sourdough & rye &mdash; a guide', 'https://example.org/bread', 1_700_000_200_000, ['bookmark', 'bookmarks-bar']],
      [14, 'Winter soup', 'https://example.org/soup?a=1&b=2', 1_700_000_400_000, ['bookmark', 'bookmarks-bar', 'recipes']],
      [15, 'Save to list', undefined, 1_700_000_500_000, ['bookmark', 'bookmarks-bar', 'recipes']],
      [18, 'Broken date', 'https://example.org/x', undefined, ['bookmark', 'bookmarks-bar']],
      [20, 'Top level bold title', 'https://example.org/top', 1_700_000_600_000, ['bookmark']],
    ]);
  });
  it('drops the bookmarklet code, skips the untitled one, notes the bad date', () => {
    expect(res.errors.map((e) => [e.line, e.severity, e.message])).toEqual([
      [15, 'note', 'A script or inline-data link was dropped from the source.'],
      [16, 'note', 'A script or inline-data link was dropped from the source.'],
      [16, 'skipped', 'A script link with no title was skipped.'],
      [18, 'note', 'ADD_DATE is not a date from year 1 to 9999; the import time is used.'],
    ]);
    expect(JSON.stringify(res.items)).not.toMatch(/alert|script/i);
  });
});

describe('importBookmarks: a Firefox export', () => {
  const res = importBookmarks(fixture('bookmarks-firefox.html'));
  it('keeps the TAGS attribute, the description and a link without a date', () => {
    expect(res.items.map((i) => [i.draft.text, i.draft.tags, i.draft.createdAt])).toEqual([
      ['An essay on attention\n\nWorth re-reading <every> spring', ['reading', 'essays', 'long-read'], 1_690_000_100_000],
      ['Data link', ['reading'], 1_690_000_200_000],
      ['Safari-style link without a date', [], undefined],
    ]);
    expect(res.items[1].draft.source).toBeUndefined();
    expect(res.errors.map((e) => e.message)).toEqual(['A script or inline-data link was dropped from the source.']);
  });
});

describe('importBookmarks: what is not a bookmark file', () => {
  it('says so and imports nothing', () => {
    const res = importBookmarks('just some words');
    expect(res.items).toEqual([]);
    expect(res.errors.map((e) => e.message)).toEqual(['This file is not a browser bookmarks export (no links found). Nothing was imported.']);
  });
  it('puts a URL too long for a source into the text', () => {
    const url = `https://example.org/${'a'.repeat(600)}`;
    const res = importBookmarks(`<DL><DT><A HREF="${url}">Long</A></DL>`);
    expect(res.items[0].draft.text).toBe(`Long\n${url}`);
    expect(res.items[0].draft.source).toBeUndefined();
  });
});

describe('tokenizeHtml', () => {
  it('yields tags, attributes (quoted or not, with > inside quotes) and decoded text; skips comments and script bodies', () => {
    const toks = [...tokenizeHtml('<!-- c --><A HREF="a>b" x=1 Y>t&amp;u</a><script>alert(1)</script>v<')].map(({ offset: _o, ...t }) => t);
    expect(toks).toEqual([
      { kind: 'start', name: 'a', attrs: Object.assign(Object.create(null), { href: 'a>b', x: '1', y: '' }) },
      { kind: 'text', text: 't&u' },
      { kind: 'end', name: 'a' },
      { kind: 'start', name: 'script', attrs: Object.create(null) },
      { kind: 'end', name: 'script' },
      { kind: 'text', text: 'v' },
      { kind: 'text', text: '<' },
    ]);
  });
  it('decodes numeric references and replaces impossible code points', () => {
    expect(decodeEntities('&#65;&#x1F600;&#0;&#xD800;&#x110000;&bogus;')).toBe('A😀\ufffd\ufffd\ufffd&bogus;');
  });
});

describe('importBookmarks: tag soup and long script links', () => {
  it('keeps the title of an <A> left open, and notes a long javascript: link it drops', () => {
    const res = importBookmarks(`<DL><DT><A HREF="https://e.org/1">Open title<DT><A HREF="javascript:${'x'.repeat(600)}">Long script</A></DL>`);
    expect(res.items.map((i) => [i.draft.text, i.draft.source])).toEqual([
      ['Open title', 'https://e.org/1'],
      ['Long script', undefined],
    ]);
    expect(res.errors.map((e) => e.message)).toEqual(['A script or inline-data link was dropped from the source.']);
  });
});
