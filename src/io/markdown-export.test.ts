import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Memory } from '../core/types';
import { exportMarkdownArchive, memoryToMarkdown } from './markdown-export';
import { markdownFileName, slugOf } from './file-names';
import { importMarkdown } from './markdown-import';

const T = Date.UTC(2024, 4, 1, 8);
const mem = (id: string, text: string, over: Partial<Memory> = {}): Memory => ({
  id,
  text,
  tags: ['garden'],
  suggestedTags: [],
  importance: 0.7,
  source: 'https://example.org/a',
  createdAt: T,
  updatedAt: T + 1000,
  validFrom: T,
  validTo: null,
  sessionId: 's',
  status: 'active',
  deletedAt: null,
  embedTruncated: false,
  ...over,
});

describe('memoryToMarkdown', () => {
  it('writes the front matter the brief lists, then the text', () => {
    expect(memoryToMarkdown(mem('0190-aaaa', 'Tomatoes: "San Marzano"\nsecond line'))).toBe(
      [
        '---',
        'id: "0190-aaaa"',
        'tags: ["garden"]',
        'createdAt: "2024-05-01T08:00:00.000Z"',
        'updatedAt: "2024-05-01T08:00:01.000Z"',
        'importance: 0.7',
        'source: "https://example.org/a"',
        'validFrom: "2024-05-01T08:00:00.000Z"',
        'validTo: null',
        '---',
        '',
        'Tomatoes: "San Marzano"',
        'second line',
        '',
      ].join('\n'),
    );
  });
});

describe('file names', () => {
  it('slugs the first line, keeps letters of any script, never leaves a separator or ".."', () => {
    expect(slugOf('## Café au lait: 2 cups!\nmore')).toBe('café-au-lait-2-cups');
    expect(slugOf('../../etc/passwd')).toBe('etc-passwd');
    expect(slugOf('C:\\Windows\\system32')).toBe('c-windows-system32');
    expect(slugOf('東京 タワー')).toBe('東京-タワー');
    expect(slugOf('   \n  \n')).toBe('memory');
    expect(slugOf('```js\nconst x = 1;\n```')).toBe('const-x-1'); // a snippet by its code, not "js"
    expect(slugOf('```\n```')).toBe('memory');
    expect(slugOf('x'.repeat(300))).toHaveLength(50);
  });
  it('is unique, and never a reserved device name', () => {
    const used = new Set<string>();
    expect(markdownFileName('Same', 'id-0001', used)).toBe('same-id0001.md');
    expect(markdownFileName('same', 'ID-0001', used)).toBe('same-id0001-2.md');
    expect(markdownFileName('CON', '', used)).toBe('memory-con.md');
    expect(markdownFileName('nul', '../..', used)).toBe('memory-nul.md');
  });
});

describe('exportMarkdownArchive', () => {
  const memories = [
    mem('0190c2a0-0000-7000-8000-00000000000a', '# Plant tomatoes\nafter the frost', { tags: ['garden', 'spring'] }),
    mem('0190c2a0-0000-7000-8000-00000000000b', '<script>alert(1)</script> stays text', { source: undefined, validTo: T + 5000, status: 'quarantined' }),
    mem('0190c2a0-0000-7000-8000-00000000000c', 'in the trash', { deletedAt: T }),
  ];
  const { zip, files } = exportMarkdownArchive(memories, { folder: 'mnemograph 2024/../x' });

  it('writes one file per memory not in the trash, in a safe folder', () => {
    const unzipped = unzipSync(zip);
    expect(Object.keys(unzipped).sort()).toEqual(['mnemograph-2024-x/plant-tomatoes-0000000a.md', 'mnemograph-2024-x/script-alert-1-script-stays-text-0000000b.md']);
    expect(files.map((f) => f.id)).toEqual([memories[0].id, memories[1].id]);
    expect(strFromU8(unzipped[files[1].name])).toContain('status: "quarantined"');
  });

  it('reads back through importMarkdown with the same text, tags, dates, importance and source', () => {
    const unzipped = unzipSync(zip);
    const res = importMarkdown(Object.entries(unzipped).map(([path, bytes]) => ({ path, text: bytes })));
    expect(res.errors).toEqual([]);
    expect(res.items.map((i) => i.draft)).toEqual(
      memories.slice(0, 2).map((m) => ({
        text: m.text,
        tags: m.tags,
        importance: m.importance,
        source: m.source,
        createdAt: m.createdAt,
        validFrom: m.validFrom,
        validTo: m.validTo,
        media: undefined,
        sessionId: undefined,
      })),
    );
  });
});

describe('pictures in the Markdown archive', () => {
  it('writes each picture once under images/, names it in its note, and the note reads back to the same text', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const withPicture = mem('0190-pppp', 'The red door', { media: [{ caption: 'door, freshly painted', imageId: '0190-img1', mime: 'image/png' }] });
    const trashed = mem('0190-tttt', 'Gone', { deletedAt: T, media: [{ caption: 'x', imageId: '0190-img2', mime: 'image/png' }] });
    const { zip } = exportMarkdownArchive([withPicture, trashed], {
      folder: 'out',
      pictures: [
        { id: '0190-img1', mime: 'image/png', data: png },
        { id: '0190-img2', mime: 'image/png', data: png }, // only a trashed note shows it: left out
        { id: '../../etc/passwd', mime: 'image/png', data: png }, // shown by no note: left out
      ],
    });
    const files = unzipSync(zip);
    const names = Object.keys(files).sort();
    expect(names).toEqual(['out/images/0190-img1.png', `out/${markdownFileName('The red door', '0190-pppp', new Set())}`]);
    expect([...files['out/images/0190-img1.png']]).toEqual([...png]);
    const note = strFromU8(files[names[1]]);
    expect(note).toContain('pictures: ["images/0190-img1.png"]\ncaptions: ["door, freshly painted"]\n---\n\nThe red door\n');
    const back = importMarkdown([{ path: names[1], text: note }]);
    expect(back.items.map((i) => i.draft.text)).toEqual(['The red door']);
  });
});
