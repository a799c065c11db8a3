import 'fake-indexeddb/auto';
import { storedVectors } from '../testing/db';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MemoryRow } from '../db/schema';
import { codeOf } from '../testing/errors';
import { openOtherTab, startServices } from '../testing/services';
import type { ImportFile } from './types';

const FIXTURES = join(__dirname, '..', 'io', 'fixtures');
const fixture = (name: string, path = name): ImportFile => ({ name: path.split('/').pop()!, path, bytes: new Uint8Array(readFileSync(join(FIXTURES, name))) });

/** Every file under a folder, as a folder pick gives them (paths relative to it, a fixed mtime). */
function folder(dir: string): ImportFile[] {
  const root = join(FIXTURES, dir);
  const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
  return walk(root)
    .sort()
    .map((f) => ({ name: f.split('/').pop()!, path: relative(root, f), bytes: new Uint8Array(readFileSync(f)), lastModified: Date.UTC(2024, 0, 1) }));
}

const lines = (n: number): ImportFile => ({
  name: 'lines.txt',
  bytes: new TextEncoder().encode(Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')),
});

describe('file imports from the fixtures', () => {
  it.each([
    // [what, files, format, fresh]: counts worked out from the fixtures (see src/io's tests)
    ['CSV, columns guessed from the header', () => [fixture('notes.csv')], 'csv', 4],
    ['bookmarks (Chrome)', () => [fixture('bookmarks-chrome.html')], 'bookmarks', 5],
    ['ChatGPT conversations.json', () => [fixture('conversations.json')], 'chatgpt', 4],
    ['an Obsidian vault', () => folder('vault'), 'markdown', 4],
  ] as const)('%s: writes what the preview promised; a re-run writes nothing', async (_what, files, format, fresh) => {
    const { s } = await startServices({ sessionId: 'tab' });
    const preview = await s.previewImport({ files: files() });
    expect(preview).toMatchObject({ format, total: fresh, fresh, existing: 0, repeated: 0 });
    expect(preview.samples.length).toBe(Math.min(5, fresh));
    const out = await s.runImport(preview.planId, { batchSize: 3 });
    expect(out).toEqual({ written: fresh, skipped: 0, batches: Math.ceil(fresh / 3), cancelled: false });
    expect(await s.db.memories.count()).toBe(fresh);
    const rows = await s.db.memories.toArray();
    expect(rows.every((m) => typeof m.importKey === 'string' && m.status === 'active')).toBe(true);
    expect((await s.engineStats()).size).toBe(fresh);

    const again = await s.previewImport({ files: files() });
    expect(again).toMatchObject({ total: fresh, fresh: 0, existing: fresh });
    expect(await s.runImport(again.planId)).toEqual({ written: 0, skipped: fresh, batches: 0, cancelled: false });
    expect(await s.db.memories.count()).toBe(fresh);
  });

  it('CSV: the header for the mapping, per-row problems with their line, and a chosen mapping', async () => {
    const { s } = await startServices();
    const guessed = await s.previewImport({ files: [fixture('notes.csv')] });
    expect(guessed.csvColumns).toEqual(['Note', 'Labels', 'When', 'Weight', 'Link']);
    // the quoted row on lines 3-4 is one record: the unreadable date, importance 7 and the empty text follow
    expect(guessed.problems.filter((p) => p.severity === 'skipped').map((p) => p.where)).toEqual(['notes.csv, line 5', 'notes.csv, line 6', 'notes.csv, line 8']);
    // text from the Labels column instead: all seven rows read, no date or source, so the three
    // "misc" rows are one memory
    const mapped = await s.previewImport({ files: [fixture('notes.csv')], csv: { mapping: { text: 'Labels' } } });
    expect(mapped).toMatchObject({ total: 7, fresh: 5, repeated: 2 });
    expect(mapped.samples.map((x) => x.text)).toEqual(['home;urgent', 'people', 'misc', '#web', 'empty']);
  });

  it('Markdown: wikilinks between imported notes become links rows; the vault notes keep their dates', async () => {
    const { s } = await startServices();
    const preview = await s.previewImport({ files: folder('vault') });
    await s.runImport(preview.planId, { batchSize: 2 });
    const rows = await s.db.memories.toArray();
    const idOf = (start: string) => rows.find((m) => m.text.startsWith(start))!.id;
    const [garden, seeds, compost] = [idOf('# Garden'), idOf('# Seed list'), idOf('# Compost')];
    const links = (await s.db.links.toArray()).map((l) => [l.fromId, l.toId, l.kind]);
    // Garden -> Seed list, Garden -> Projects/Compost, Seed list -> Garden; [[Missing note]] has no end
    expect(links.sort()).toEqual(
      [
        [garden, seeds, 'wikilink'],
        [garden, compost, 'wikilink'],
        [seeds, garden, 'wikilink'],
      ].sort(),
    );
    expect(rows.find((m) => m.id === garden)!.createdAt).toBe(Date.UTC(2023, 3, 1));
  });

  it('sessions: a ChatGPT conversation is its own session; other drafts share one session per import', async () => {
    const { s } = await startServices({ sessionId: 'tab' });
    await s.runImport((await s.previewImport({ files: [fixture('conversations.json')] })).planId);
    const text = await s.previewImport({ files: [lines(2)] });
    await s.runImport(text.planId);
    const sessions = (await s.db.memories.toArray()).map((m) => m.sessionId).sort();
    expect(sessions).toEqual(['chatgpt:conv-bread', 'chatgpt:conv-bread', 'chatgpt:conv-trip', 'chatgpt:conv-trip', `import:${text.planId}`, `import:${text.planId}`]);
  });

  it('quarantine: the imported memories land quarantined', async () => {
    const { s } = await startServices();
    const preview = await s.previewImport({ files: [lines(3)], quarantine: true });
    await s.runImport(preview.planId);
    expect((await s.db.memories.toArray()).map((m) => m.status)).toEqual(['quarantined', 'quarantined', 'quarantined']);
  });

  it('repeated lines are counted and written once; a bad batch size is refused before anything runs', async () => {
    const { s } = await startServices();
    const file = { name: 'dup.txt', bytes: new TextEncoder().encode('same\nother\nsame\n') };
    const preview = await s.previewImport({ files: [file] });
    expect(preview).toMatchObject({ format: 'text', total: 3, fresh: 2, repeated: 1 });
    expect(await codeOf(s.runImport(preview.planId, { batchSize: 0 }))).toBe('INVALID_OPTION');
    expect(await s.db.memories.count()).toBe(0);
    expect(await s.runImport(preview.planId)).toEqual({ written: 2, skipped: 1, batches: 1, cancelled: false });
  });
});

describe('batches, cancel and failure', () => {
  it('cancel after the first batch leaves exactly that batch', async () => {
    const { s, embedder } = await startServices();
    const preview = await s.previewImport({ files: [lines(5)] });
    const ctl = new AbortController();
    const out = await s.runImport(preview.planId, { batchSize: 2, signal: ctl.signal, onProgress: () => ctl.abort() });
    expect(out).toEqual({ written: 2, skipped: 0, batches: 1, cancelled: true });
    expect((await s.db.memories.toArray()).map((m) => m.text).sort()).toEqual(['line 1', 'line 2']);
    // the plan is kept: running it again writes the rest, skipping what is there
    embedder.calls.length = 0;
    const progress: [number, number][] = [];
    const rest = await s.runImport(preview.planId, { batchSize: 2, onProgress: (p) => progress.push([p.written, p.total]) });
    expect(rest).toEqual({ written: 3, skipped: 2, batches: 2, cancelled: false });
    expect(progress).toEqual([
      [2, 3],
      [3, 3],
    ]);
    expect(embedder.calls).toEqual(['line 3', 'line 4', 'line 5']); // the committed batch is not featurized again
    expect(await s.db.memories.count()).toBe(5);
  });

  it('featurizes the next batch while one is written and indexed, and writes them in order', async () => {
    const { s, embedder } = await startServices();
    const preview = await s.previewImport({ files: [lines(5)] });
    const atProgress: string[][] = [];
    const out = await s.runImport(preview.planId, { batchSize: 2, onProgress: () => atProgress.push([...embedder.calls]) });
    expect(out).toEqual({ written: 5, skipped: 0, batches: 3, cancelled: false });
    // when batch 1 (lines 1-2) was written and indexed, batch 2 had already gone to the encoder;
    // when batch 2 was, batch 3 had
    expect(atProgress).toEqual([
      ['line 1', 'line 2', 'line 3', 'line 4'],
      ['line 1', 'line 2', 'line 3', 'line 4', 'line 5'],
      ['line 1', 'line 2', 'line 3', 'line 4', 'line 5'],
    ]);
    // each line featurized once; ids (UUIDv7, by time of the batch) follow the file's order
    const rows = (await s.db.memories.toArray()).sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(rows.map((m) => m.text)).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5']);
  });

  it('a failure in the second batch transaction leaves the first batch whole and nothing of the second', async () => {
    const { s } = await startServices();
    const preview = await s.previewImport({ files: [lines(5)] });
    // the disk fails while the second batch writes its second memory
    const fail = (_key: unknown, row: MemoryRow) => {
      if (row.text === 'line 4') throw new DOMException('disk failed', 'UnknownError');
    };
    s.db.memories.hook('creating', fail);
    expect(await codeOf(s.runImport(preview.planId, { batchSize: 2 }))).toBe('DB_UNAVAILABLE');
    const rows = await s.db.memories.toArray();
    expect(rows.map((m) => m.text).sort()).toEqual(['line 1', 'line 2']);
    // no vector row of a memory that is not there (no half item)
    const owners = new Set((await storedVectors.all(s.db)).map((v) => v.memoryId));
    expect([...owners].sort()).toEqual(rows.map((m) => m.id).sort());
    s.db.memories.hook('creating').unsubscribe(fail);
    // a fresh preview of the same file: the first batch is there, the rest is new
    expect(await s.previewImport({ files: [lines(5)] })).toMatchObject({ fresh: 3, existing: 2 });
  });

  it('an abort during the preview rejects ABORTED and plans nothing', async () => {
    const { s } = await startServices();
    const ctl = new AbortController();
    ctl.abort();
    expect(await codeOf(s.previewImport({ files: [lines(2)] }, ctl.signal))).toBe('ABORTED');
    expect(await codeOf(s.runImport('no-such-plan'))).toBe('NOT_FOUND');
  });
});

describe('other tabs', () => {
  it("a second tab's engine follows an import made in this one", async () => {
    const { s, dbName } = await startServices();
    const tabB = await openOtherTab(dbName);
    await tabB.engine.start();
    const preview = await s.previewImport({ files: [{ name: 'z.txt', bytes: new TextEncoder().encode('zebras at dawn\nzebras at dusk\nlions') }] });
    await s.runImport(preview.planId, { batchSize: 2 });
    await expect.poll(async () => (await tabB.search('zebras', { semantic: false })).length).toBe(2);
    await expect.poll(async () => (await tabB.engine.stats()).size).toBe(3);
  });
});
