// Hostile Markdown / HTML / SVG / links through every importer, at the data level: nothing is
// kept as a live link in a source, bookmark markup is reduced to its text with script bodies and
// attributes gone, and everything else is kept as literal text for the UI's sanitiser (the e2e
// tests render these same fixtures and check that nothing runs).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importBookmarks } from './bookmarks';
import { importChatGpt } from './chatgpt';
import { importCsv } from './csv';
import { importMarkdown } from './markdown-import';
import type { ImportResult } from './result';
import { isDangerousLink, safeUrl } from './safe-url';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', 'hostile', name), 'utf8');

function noLiveSource(res: ImportResult) {
  for (const i of res.items) if (i.draft.source !== undefined) expect(isDangerousLink(i.draft.source)).toBe(false);
}

describe('hostile fixtures', () => {
  it('Markdown: the note is kept as literal text; the script source is dropped', () => {
    const text = fixture('hostile.md');
    const res = importMarkdown([{ path: 'hostile.md', text }]);
    expect(res.items).toHaveLength(1);
    const body = res.items[0].draft.text;
    expect(body.startsWith("# Hostile note <script>alert('h1')</script>")).toBe(true);
    expect(body).toContain('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(\'svg\')">');
    expect(res.items[0].draft.source).toBeUndefined();
    expect(res.errors.map((e) => e.message)).toEqual(['A script or inline-data link was dropped from the source.']);
    expect(res.links).toEqual([{ from: 'hostile.md', to: null, target: "<script>alert('wikilink')</script>" }]);
  });

  it('bookmarks: only text is kept, no script body, no attribute, no script or data link', () => {
    const res = importBookmarks(fixture('hostile-bookmarks.html'));
    noLiveSource(res);
    expect(res.items.map((i) => [i.draft.text, i.draft.source, i.draft.tags])).toEqual([
      ['Bookmarklet bold', undefined, ['folder']],
      ['Data URL', undefined, ['folder']],
      ['Entity-encoded scheme', undefined, ['folder']],
      ["Safe link\n\nDescription <script>alert('escaped')</script>", 'https://example.org/ok', ['folder']],
    ]);
    const all = JSON.stringify(res.items);
    for (const gone of ['onerror', 'onclick', 'onmouseover', 'onload', "alert('top')", "alert('inner')", "alert('dd')", 'svg']) expect(all).not.toContain(gone);
    expect(res.errors.filter((e) => e.severity === 'note')).toHaveLength(3);
  });

  it('CSV: text kept literally, script and data sources dropped', () => {
    const res = importCsv(fixture('hostile.csv'), { mapping: { text: 'text', source: 'source' } });
    noLiveSource(res);
    expect(res.items.map((i) => [i.draft.text, i.draft.source])).toEqual([
      ["<script>alert('csv')</script>", undefined],
      ['=HYPERLINK("javascript:alert(1)","click")', undefined],
      ["<svg onload=alert('svg')>", 'https://example.org/fine'],
    ]);
  });

  it('ChatGPT: markup in questions, answers and titles is literal text', () => {
    const res = importChatGpt(fixture('hostile-conversations.json'));
    expect(res.items.map((i) => [i.draft.text, i.draft.source])).toEqual([
      ["You: <script>alert('q')</script> [x](javascript:alert('md'))\n\nChatGPT: <svg onload=alert('a')></svg>", "ChatGPT: <img src=x onerror=alert('title')>"],
    ]);
    expect(safeUrl(res.items[0].draft.source)).toBeNull();
  });
});
