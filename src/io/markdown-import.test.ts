import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importMarkdown, inlineTags, wikilinkTargets, type MarkdownFile } from './markdown-import';
import { splitFrontMatter } from './front-matter';

const VAULT = join(__dirname, 'fixtures', 'vault');
const MTIME = Date.UTC(2023, 6, 1, 12);

function vault(dir = VAULT): MarkdownFile[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? vault(p) : [{ path: relative(VAULT, p), text: readFileSync(p), mtime: MTIME }];
    });
}

describe('importMarkdown: an Obsidian vault', () => {
  const res = importMarkdown(vault(), { tags: ['vault'] });
  const byPath = Object.fromEntries(res.items.map((i) => [i.ref, i.draft]));

  it('imports each note with its front matter, inline tags and dates', () => {
    expect(Object.keys(byPath).sort()).toEqual(['Broken.md', 'Garden.md', 'Projects/Compost.md', 'Seed list.md']);
    expect(byPath['Garden.md']).toMatchObject({
      tags: ['vault', 'garden', 'outdoors', 'spring'],
      createdAt: Date.UTC(2023, 3, 1),
      source: 'https://example.org/seeds',
      importance: 0.8,
    });
    expect(byPath['Garden.md'].text).toMatch(/^# Garden\n\nPlant the tomatoes/);
    expect(byPath['Projects/Compost.md']).toMatchObject({
      text: '# Compost\n\nTurn it every two weeks. ![[heap.jpg]]',
      tags: ['vault', 'compost', 'projects'],
      validFrom: Date.UTC(2023, 4, 1),
      validTo: Date.UTC(2023, 8, 30),
      createdAt: MTIME,
      source: undefined,
    });
    expect(byPath['Seed list.md']).toMatchObject({ tags: ['vault', 'herbs'], createdAt: MTIME });
    expect(byPath['Seed list.md'].text).toBe('# Seed list\n\n- Tomatoes (San Marzano)\n- Basil #herbs\n- Links back to [[Garden#When]] and to [[Missing note]]');
  });

  it('keeps [[wikilinks]] as links between the notes, by file name or path, alias and heading dropped', () => {
    expect(res.links).toEqual([
      { from: 'Garden.md', to: 'Seed list.md', target: 'Seed list' },
      { from: 'Garden.md', to: 'Projects/Compost.md', target: 'Projects/Compost' },
      { from: 'Seed list.md', to: 'Garden.md', target: 'Garden' },
      { from: 'Seed list.md', to: null, target: 'Missing note' },
    ]);
  });

  it('reports the broken front matter, the dropped script link, the empty note and the non-notes', () => {
    expect(res.errors.map((e) => [e.file, e.severity, e.message])).toEqual([
      ['Broken.md', 'note', expect.stringMatching(/^The front matter could not be read \(.+\); the note was imported without it\.$/)],
      ['Empty.md', 'skipped', 'A memory needs some text. Type something, then save.'],
      ['Projects/Compost.md', 'note', 'A script or inline-data link was dropped from the source.'],
      [undefined, 'note', '1 file(s) that are not Markdown notes were left out (".obsidian/app.json").'],
    ]);
    expect(byPath['Broken.md'].text).toBe('# Broken\n\nA note whose front matter is not YAML.');
  });

  it('uses the default importance for one that is not a number from 0 to 1, and counts tags once normalised', () => {
    const tags = Array.from({ length: 70 }, (_, i) => `T${i % 64} `).join(', ');
    const r = importMarkdown([{ path: 'n.md', text: `---\nimportance: .nan\ntags: [${tags}]\n---\nbody` }]);
    expect(r.items[0].draft.importance).toBe(0.5);
    expect(r.items[0].draft.tags).toHaveLength(64);
    expect(r.errors.map((e) => e.message)).toEqual(['importance: NaN is not a number from 0 to 1; the default was used.']);
  });

  it('skips a repeated path and notes a date out of range', () => {
    const r = importMarkdown([
      { path: 'a.md', text: '---\ncreated: 12000-01-01\n---\nhello' },
      { path: 'a.md', text: 'again' },
    ]);
    expect(r.items.map((i) => [i.ref, i.draft.createdAt])).toEqual([['a.md', undefined]]);
    expect(r.errors.map((e) => e.message)).toEqual([
      'created: "12000-01-01" is not a date from year 1 to 9999; it was left out.',
      'The same path was given twice; the first file was kept.',
    ]);
  });
});

describe('the pieces', () => {
  it('finds inline tags the way Obsidian does', () => {
    expect(inlineTags('#start and a#b, (#in-paren) #123 #a/b #ü\n# Heading\n`#code`')).toEqual(['start', 'in-paren', 'a/b', 'ü']);
  });
  it('finds wikilink targets, embeds of notes included, of images not', () => {
    expect(wikilinkTargets('[[A]] [[B|b]] [[C#h]] [[D^blk]] ![[E]] ![[f.png]] [[]] [[G.md]]')).toEqual(['A', 'B', 'C', 'D', 'E', 'G.md']);
  });
  it('splits front matter and counts the body line', () => {
    expect(splitFrontMatter('---\na: 1\n---\nbody')).toEqual({ yaml: 'a: 1\n', body: 'body', bodyLine: 4 });
    expect(splitFrontMatter('---\n---\nbody')).toEqual({ yaml: '', body: 'body', bodyLine: 3 });
    expect(splitFrontMatter('---\nno close')).toEqual({ yaml: null, body: '---\nno close', bodyLine: 1 });
    expect(splitFrontMatter('text\n---\n')).toEqual({ yaml: null, body: 'text\n---\n', bodyLine: 1 });
  });
});
