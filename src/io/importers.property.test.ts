// Property tests: every importer over hostile input (fast-check). See property-helpers.ts for the
// invariants; each test adds the count that must hold: every input item is either returned whole
// or reported as skipped, never both, never neither.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importBookmarks } from './bookmarks';
import { importChatGpt } from './chatgpt';
import { importCsv, parseCsv, previewCsv } from './csv';
import { importMarkdown } from './markdown-import';
import { importPlainText } from './plain-text';
import { holdsInvariants, hostileDate, hostileText, skipped } from './property-helpers';

const bytes = fc.uint8Array({ maxLength: 300 });
const anyInput = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), bytes);
const HUGE = 'x'.repeat(5_000_000);

describe('plain text', () => {
  it('one item per line with text, nothing else, whatever the lines hold', () => {
    const line = hostileText.map((s) => s.replace(/[\r\n]/g, ' '));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const res = holdsInvariants(() => importPlainText(lines.join('\n'), { split: 'line', source: 'javascript:x' }));
        expect(res.items.map((i) => i.draft.text)).toEqual(lines.filter((l) => l.trim() !== ''));
        expect(skipped(res)).toEqual([]);
      }),
    );
  });
  it('never throws on bytes, in either mode', () => {
    fc.assert(
      fc.property(anyInput, fc.constantFrom('line', 'paragraph') as fc.Arbitrary<'line' | 'paragraph'>, (input, split) => {
        holdsInvariants(() => importPlainText(input, { split }));
      }),
    );
  });
  it('takes a 5 MB line whole', () => {
    expect(importPlainText(HUGE, { split: 'paragraph' }).items[0].draft.text).toHaveLength(5_000_000);
  });
});

const csvField = (s: string) => (/[",\r\n]/.test(s) || s === '' ? `"${s.replace(/"/g, '""')}"` : s);

describe('CSV', () => {
  it('parseCsv reads back what RFC 4180 quoting wrote', () => {
    const row = fc.array(hostileText, { minLength: 2, maxLength: 5 });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 20 }), fc.constantFrom('\n', '\r\n'), (rows, eol) => {
        const text = rows.map((r) => r.map(csvField).join(',')).join(eol);
        expect(parseCsv(text, ',').records.map((r) => r.fields)).toEqual(rows);
      }),
    );
  });
  it('each row is an item or one skipped report, with hostile text, dates, importance and links', () => {
    const row = fc.tuple(hostileText, hostileDate, fc.oneof(fc.double().map(String), fc.constantFrom('', '0.5', '1', 'high')), hostileText);
    fc.assert(
      fc.property(fc.array(row, { maxLength: 25 }), (rows) => {
        const text = ['text,when,imp,link', ...rows.map((r) => r.map(csvField).join(','))].join('\n');
        const res = holdsInvariants(() => importCsv(text, { mapping: { text: 'text', createdAt: 'when', importance: 'imp', source: 'link' } }));
        const lines = skipped(res).map((e) => e.line);
        expect(new Set(lines).size).toBe(lines.length);
        expect(res.items.length + lines.length).toBe(rows.length);
        for (const it of res.items) expect(lines).not.toContain(it.where.line);
      }),
    );
  });
  it('never throws on bytes, in preview or import', () => {
    fc.assert(
      fc.property(anyInput, fc.oneof(fc.string(), fc.integer({ min: -2, max: 5 })), (input, col) => {
        expect(() => previewCsv(input)).not.toThrow();
        holdsInvariants(() => importCsv(input, { mapping: { text: col, tags: 0 } }));
      }),
    );
  });
  it('takes a 5 MB quoted field whole', () => {
    expect(importCsv(`t\n"${HUGE}"`, { mapping: { text: 't' } }).items[0].draft.text).toHaveLength(5_000_000);
  });
});

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

describe('bookmarks', () => {
  interface Node {
    folder?: string;
    children?: Node[];
    title?: string;
    href?: string;
    date?: string;
  }
  const tree = fc.letrec<{ node: Node; list: Node[] }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.record({ title: hostileText, href: fc.oneof(fc.webUrl(), hostileText), date: hostileDate }),
      fc.record({ folder: hostileText, children: tie('list') as fc.Arbitrary<Node[]> }),
    ),
    list: fc.array(tie('node') as fc.Arbitrary<Node>, { maxLength: 5 }),
  })).list;
  const html = (nodes: Node[]): string =>
    `<DL><p>\n${nodes
      .map((n) =>
        n.children
          ? `<DT><H3>${esc(n.folder!)}</H3>\n${html(n.children)}`
          : `<DT><A HREF="${esc(n.href!)}" ADD_DATE="${esc(n.date!)}">${esc(n.title!)}</A>\n`,
      )
      .join('')}</DL><p>\n`;
  const links = (nodes: Node[]): number => nodes.reduce((s, n) => s + (n.children ? links(n.children) : 1), 0);

  it('each link is an item or one skipped report; no script link survives', () => {
    fc.assert(
      fc.property(tree, (nodes) => {
        const text = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n${html(nodes)}`;
        const res = holdsInvariants(() => importBookmarks(text));
        expect(res.items.length + skipped(res).length).toBe(links(nodes));
      }),
    );
  });
  it('never throws on bytes or on tag soup', () => {
    const soup = fc.array(fc.constantFrom('<DL>', '</DL>', '<DT>', '<A HREF="x">', '</A>', '<H3>', '</H3>', '<DD>', '<script>', '"', "'", '<!--', 'text', '&#x0;'), { maxLength: 60 });
    fc.assert(fc.property(fc.oneof(anyInput, soup.map((s) => `<a ${s.join('')}`)), (input) => void holdsInvariants(() => importBookmarks(input))));
  });
  it('survives 100k nested folders and a 5 MB title', () => {
    const folders = Array.from({ length: 100_000 }, (_, i) => `<DT><H3>f${i}</H3><DL>`).join('');
    const deep = `${folders}<DT><A HREF="https://e.org">deep</A>${'</DL>'.repeat(100_000)}`;
    const res = holdsInvariants(() => importBookmarks(deep));
    expect(res.items[0].draft.tags).toEqual(Array.from({ length: 64 }, (_, i) => `f${i}`));
    expect(res.errors.map((e) => e.message)).toEqual(['Only the first 64 folder names were kept as tags.']);
    expect(importBookmarks(`<A HREF="https://e.org">${HUGE}</A>`).items[0].draft.text).toHaveLength(5_000_000);
  });
});

describe('Markdown', () => {
  const fmValue = fc.oneof(hostileText, hostileDate, fc.double().map(String), fc.constantFrom('[a, b', '{', '*anchor', '!!js/function x', '- [[[', '&a [*a, *a]'));
  const note = fc.record({
    path: fc.oneof(fc.constantFrom('a.md', 'b.md', 'dir/a.md', '../x.md', '.hidden/n.md', 'pic.png', 'CON.md'), hostileText.map((s) => `${s}.md`)),
    fm: fc.option(fc.dictionary(fc.constantFrom('tags', 'created', 'date', 'importance', 'source', 'validFrom', 'validTo', 'id', 'x'), fmValue, { maxKeys: 5 })),
    body: hostileText,
    mtime: fc.option(fc.oneof(fc.integer(), fc.double()), { nil: undefined }),
  });
  it('each note is an item or one skipped report; repeated paths are reported', () => {
    fc.assert(
      fc.property(fc.array(note, { maxLength: 12 }), (notes) => {
        const files = notes.map((n) => ({
          path: n.path,
          mtime: n.mtime,
          text: n.fm ? `---\n${Object.entries(n.fm).map(([k, v]) => `${k}: ${v}`).join('\n')}\n---\n${n.body}` : n.body,
        }));
        const res = holdsInvariants(() => importMarkdown(files));
        const notesIn = new Set(files.map((f) => f.path).filter((p) => /\.md$/i.test(p) && !p.split('/').some((s) => s.startsWith('.'))));
        const refs = res.items.map((i) => i.ref);
        expect(new Set(refs).size).toBe(refs.length);
        const perFile = skipped(res).filter((e) => e.file !== undefined && !/given twice/.test(e.message));
        expect(res.items.length + perFile.length).toBe(notesIn.size);
        for (const l of res.links ?? []) {
          expect(refs).toContain(l.from);
          if (l.to !== null) expect(refs).toContain(l.to);
        }
      }),
    );
  });
  it('never throws on bytes, deep YAML nesting, alias bombs or a 5 MB body', () => {
    fc.assert(fc.property(bytes, (b) => void holdsInvariants(() => importMarkdown([{ path: 'n.md', text: b }]))));
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...'bcdefghij'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghij'[i]}`).join(',')}]`)].join('\n');
    for (const text of [`---\na: ${'['.repeat(50_000)}\n---\nbody`, `---\n${bomb}\n---\nbody`, `---\n---\n${HUGE}`]) {
      const res = holdsInvariants(() => importMarkdown([{ path: 'n.md', text }]));
      expect(res.items.length + skipped(res).length).toBe(1);
    }
  });
});

describe('ChatGPT', () => {
  const msg = fc.record({
    author: fc.oneof(fc.record({ role: fc.constantFrom('user', 'assistant', 'system', 'tool', 5) }), fc.constant(null)),
    create_time: fc.oneof(fc.double(), fc.integer(), fc.constant(null), hostileDate),
    content: fc.oneof(fc.record({ parts: fc.array(fc.oneof(hostileText, fc.object()), { maxLength: 3 }) }), fc.jsonValue()),
  });
  const nodeId = fc.constantFrom('a', 'b', 'c', 'd', 'e', '__proto__', 'constructor');
  const conv = fc.record({
    id: fc.oneof(fc.constantFrom('c1', 'c2', 'c1'), fc.integer()),
    title: fc.oneof(hostileText, fc.integer()),
    create_time: fc.oneof(fc.double(), hostileDate),
    current_node: fc.oneof(nodeId, fc.constant(null)),
    mapping: fc.dictionary(nodeId, fc.record({ parent: fc.oneof(nodeId, fc.constant(null)), children: fc.array(nodeId), message: fc.oneof(msg, fc.constant(null)) })),
  });
  it('each conversation gives items or one skipped report; one session per conversation', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(conv, fc.jsonValue()), { maxLength: 8 }), (list) => {
        const res = holdsInvariants(() => importChatGpt(JSON.stringify(list)));
        const sessionsByIndex = new Map<number, Set<string>>();
        for (const it of res.items) sessionsByIndex.set(it.where.index!, (sessionsByIndex.get(it.where.index!) ?? new Set()).add(it.draft.sessionId!));
        const rejected = skipped(res).map((e) => e.index);
        list.forEach((_, i) => expect(sessionsByIndex.has(i) !== rejected.includes(i)).toBe(true));
        const sessions = [...sessionsByIndex.values()].map((s) => [...s]);
        expect(sessions.every((s) => s.length === 1)).toBe(true);
        expect(new Set(sessions.flat()).size).toBe(sessions.length);
      }),
    );
  });
  it('never throws on any JSON, bytes, or 100k-deep nesting', () => {
    fc.assert(fc.property(fc.oneof(fc.jsonValue().map((j) => JSON.stringify(j)), anyInput), (input) => void holdsInvariants(() => importChatGpt(input))));
    const res = holdsInvariants(() => importChatGpt('['.repeat(100_000) + ']'.repeat(100_000)));
    expect(res.items).toEqual([]);
  });
  it('takes a 5 MB question whole', () => {
    const mapping = { q: { parent: null, message: { author: { role: 'user' }, content: { parts: [HUGE] } } } };
    const r = holdsInvariants(() => importChatGpt(JSON.stringify([{ id: 'c', title: HUGE, mapping }])));
    expect(r.items[0].draft.text).toHaveLength(5_000_000 + 'You: '.length);
    expect(r.items[0].draft.source).toHaveLength('ChatGPT: '.length + 200);
  });
});
