import 'fake-indexeddb/auto';
import { storedVectors } from '../testing/db';
import { describe, expect, it, vi } from 'vitest';
import type { MnemographDb } from '../db/db';
import { AppError } from '../core/errors';
import { codeOf } from '../testing/errors';
import { startServices } from '../testing/services';
import { backupStatus } from './backup';
import type { BackupStatus } from './types';
import type { Observable } from 'dexie';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 24, 12);

const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => a.id.localeCompare(b.id));
const vectorKey = (v: { memoryId: string; space: string }) => `${v.memoryId}/${v.space}`;

/** Everything a backup must bring back, in a stable order. */
async function contents(db: MnemographDb) {
  return {
    memories: byId(await db.memories.toArray()),
    feedback: byId(await db.feedback.toArray()),
    settings: (await db.settings.toArray()).sort((a, b) => a.key.localeCompare(b.key)),
    vectors: (await storedVectors.all(db)).sort((a, b) => vectorKey(a).localeCompare(vectorKey(b))),
    links: await db.links.toArray(),
  };
}

/** Three memories (one in the trash), a reinforcement and a suppression, saved recall defaults and a UI setting. */
async function fill() {
  const started = await startServices({ sessionId: 'session-a', now: () => T0 });
  const { s } = started;
  const a = await s.addMemory({ text: 'Walked the dog along the river', tags: ['outdoors'], importance: 0.8, source: 'diary' });
  const b = await s.addMemory({ text: 'Sourdough starter needs feeding twice a day' });
  const c = await s.addMemory({ text: 'An old note for the trash' });
  await s.deleteMemory(c.id);
  await s.reinforce(a.id, 60);
  await s.suppress(b.id, 'not now');
  await s.saveRecallDefaults({ topK: 7 });
  await s.setSetting('theme', 'dark');
  // as a Markdown import would have resolved a [[wikilink]]; one end in the trash
  await s.db.links.bulkAdd([
    { fromId: a.id, toId: b.id, kind: 'wikilink' },
    { fromId: b.id, toId: c.id, kind: 'wikilink' },
  ]);
  return { ...started, ids: [a.id, b.id, c.id] };
}

const fileOf = async (blob: Blob, name: string) => ({ name, bytes: new Uint8Array(await blob.arrayBuffer()) });

describe('backup round trip', () => {
  it('export -> a fresh database -> import gives the same memories, feedback, settings and vectors, re-embedding nothing', async () => {
    const first = await fill();
    const exported = await first.s.exportBackup({ vectors: true });
    expect(exported).toMatchObject({ fileName: 'mnemograph-backup-2026-11-24.json', memories: 3, kinds: { current: 2, earlier: 0, trashed: 1 } });
    const before = await contents(first.s.db);
    expect(before.links.length).toBe(2);
    // the export recorded its time, and the backup carries the same setting
    expect(before.settings.find((r) => r.key === 'lastBackupAt')).toEqual({ key: 'lastBackupAt', value: T0 });
    const file = await fileOf(exported.blob, exported.fileName);

    const { s, embedder } = await startServices({ sessionId: 'session-b' });
    const preview = await s.previewImport({ files: [file] });
    expect(preview).toMatchObject({ format: 'backup', total: 3, fresh: 3, existing: 0, repeated: 0, problems: [], vectorsReused: 2 }); // all three memories' vectors are current; the one in the trash is not counted (it is not searched)
    expect(preview.backupParts).toEqual({ earlier: 0, trashed: 1 }); // "An old note for the trash"
    expect(preview.samples.map((x) => x.text)).toEqual(['Walked the dog along the river', 'Sourdough starter needs feeding twice a day']); // not the trashed one
    const progress: number[] = [];
    const out = await s.runImport(preview.planId, { onProgress: (p) => progress.push(p.written) });
    expect(out).toEqual({ written: 3, skipped: 0, batches: 1, cancelled: false, kinds: { current: 2, earlier: 0, trashed: 1 } });
    expect(progress).toEqual([3]);
    expect(embedder.calls).toEqual([]); // every vector reused
    expect(await contents(s.db)).toEqual(before);
    // the engine took the two live memories
    expect((await s.engineStats()).size).toBe(2);
    expect((await s.search('river dog')).map((h) => h.memory.id)).toEqual([first.ids[0]]);

    // a second restore of the same file finds every memory there
    const again = await s.previewImport({ files: [file] });
    expect(again).toMatchObject({ total: 3, fresh: 0, existing: 3 });
    expect(await s.runImport(again.planId)).toEqual({ written: 0, skipped: 3, batches: 0, cancelled: false, kinds: { current: 0, earlier: 0, trashed: 0 } });
  });

  it("the preview tells an edited memory's earlier version and a memory in the trash from the current memories", async () => {
    const first = await fill();
    await first.s.updateMemory(first.ids[0]!, { text: 'Walked the dog along the canal' });
    const exported = await first.s.exportBackup({ vectors: false });
    expect(exported).toMatchObject({ memories: 4, kinds: { current: 2, earlier: 1, trashed: 1 } }); // the words "Saved" uses
    const { s } = await startServices({ sessionId: 'session-b' });
    const preview = await s.previewImport({ files: [await fileOf(exported.blob, exported.fileName)] });
    // four rows: the dog walk (now and before the edit), the starter, the trashed note
    expect(preview).toMatchObject({ total: 4, fresh: 4, backupParts: { earlier: 1, trashed: 1 } });
    expect(preview.samples.map((x) => x.text).sort()).toEqual(['Sourdough starter needs feeding twice a day', 'Walked the dog along the canal']);
    // the restore counts them as the lists do ("Restored 2 memories, 1 earlier version and 1 in the trash"), not as 4 memories
    expect(await s.runImport(preview.planId)).toMatchObject({ written: 4, kinds: { current: 2, earlier: 1, trashed: 1 } });
  });

  it('a newer backup over an older restore brings the edited memory up to date, its older text kept once in its history', async () => {
    let now = T0;
    const first = await startServices({ sessionId: 'session-a', now: () => now });
    const a = await first.s.addMemory({ text: 'Walked the dog along the river' });
    await first.s.addMemory({ text: 'Sourdough starter needs feeding twice a day' });
    const older = await fileOf((await first.s.exportBackup({ vectors: true })).blob, 'older.json');
    now = T0 + DAY;
    await first.s.updateMemory(a.id, { text: 'Walked the dog along the river, then coffee' });
    const newer = await fileOf((await first.s.exportBackup({ vectors: true })).blob, 'newer.json');
    const want = await contents(first.s.db);

    const { s, embedder } = await startServices({ sessionId: 'session-b', now: () => T0 + 2 * DAY });
    await s.runImport((await s.previewImport({ files: [older] })).planId);
    const again = await s.previewImport({ files: [older] });
    expect(again.backupParts).toEqual({ earlier: 0, trashed: 0 }); // the same backup: nothing changed in it
    const preview = await s.previewImport({ files: [newer] });
    // the dog walk: here it is the older text, which the newer backup holds as its earlier version
    expect(preview).toMatchObject({ total: 3, fresh: 1, existing: 2, backupParts: { earlier: 1, trashed: 0, updated: 1 } });
    const calls = embedder.calls.length;
    const out = await s.runImport(preview.planId);
    expect(out).toMatchObject({ written: 1, skipped: 1, updated: 1, kinds: { current: 0, earlier: 1, trashed: 0 } });
    expect(embedder.calls.length).toBe(calls); // its search data reused, nothing embedded
    // exactly the first database: the edit, one earlier version, the same search data
    const got = await contents(s.db);
    expect(got.memories).toEqual(want.memories);
    expect(got.vectors).toEqual(want.vectors);
    const hits = await s.search('coffee');
    expect(hits.map((h) => h.memory.id)).toContain(a.id);
    expect((await s.previewImport({ files: [newer] })).backupParts).toEqual({ earlier: 0, trashed: 0 }); // nothing left to do
  });

  it('an edit made here between the preview and the restore wins (checked inside the write)', async () => {
    let now = T0;
    const first = await startServices({ sessionId: 'session-a', now: () => now });
    const a = await first.s.addMemory({ text: 'Walked the dog along the river' });
    const older = await fileOf((await first.s.exportBackup({ vectors: true })).blob, 'older.json');
    now = T0 + DAY;
    await first.s.updateMemory(a.id, { text: 'Walked the dog along the river, then coffee' });
    const newer = await fileOf((await first.s.exportBackup({ vectors: true })).blob, 'newer.json');

    const { s } = await startServices({ sessionId: 'session-b', now: () => T0 + 2 * DAY });
    await s.runImport((await s.previewImport({ files: [older] })).planId);
    const preview = await s.previewImport({ files: [newer] });
    expect(preview.backupParts?.updated).toBe(1);
    await s.updateMemory(a.id, { text: 'Walked the dog along the river at night' });
    const out = await s.runImport(preview.planId);
    expect(out.updated ?? 0).toBe(0);
    expect((await s.db.memories.get(a.id))!.text).toBe('Walked the dog along the river at night');
  });

  it('copies that went apart: the one here is kept, and the preview says the backup changed it', async () => {
    let now = T0;
    const first = await startServices({ sessionId: 'session-a', now: () => now });
    const a = await first.s.addMemory({ text: 'Walked the dog along the river' });
    const older = await fileOf((await first.s.exportBackup({ vectors: true })).blob, 'older.json');
    now = T0 + DAY;
    await first.s.updateMemory(a.id, { text: 'Walked the dog along the river, then coffee' });
    const newer = await fileOf((await first.s.exportBackup({ vectors: true })).blob, 'newer.json');

    let here = T0 + DAY / 2;
    const { s } = await startServices({ sessionId: 'session-b', now: () => here });
    await s.runImport((await s.previewImport({ files: [older] })).planId);
    await s.updateMemory(a.id, { text: 'Walked the dog along the river in the rain' }); // edited here, before the backup's edit
    here = T0 + 2 * DAY;
    const preview = await s.previewImport({ files: [newer] });
    expect(preview.backupParts).toEqual({ earlier: 1, trashed: 0, changed: 1 });
    await s.runImport(preview.planId);
    expect((await s.db.memories.get(a.id))!.text).toBe('Walked the dog along the river in the rain');
  });

  it('recomputes the vectors of another encoder, and a backup without vectors, from the text (live memories only)', async () => {
    const first = await fill();
    const file = await fileOf((await first.s.exportBackup({ vectors: true })).blob, 'b.json');
    const { s, embedder } = await startServices({ model: 'another-encoder/v2' });
    const preview = await s.previewImport({ files: [file] });
    // the E1 rows are of another encoder (the lexical rows E2-E4 are still current): no memory is ready as it is
    expect(preview.vectorsReused).toBe(0);
    await s.runImport(preview.planId);
    // the two live memories were featurized afresh, the one in the trash was not
    expect(embedder.calls).toEqual(['Walked the dog along the river', 'Sourdough starter needs feeding twice a day']);
    expect((await storedVectors.all(s.db, 'E1')).map((v) => v.model)).toEqual(['another-encoder/v2', 'another-encoder/v2']);
  });
});

describe('restore in batches', () => {
  it('a cancelled restore keeps whole batches (each memory with its feedback) and leaves the settings; running it again finishes', async () => {
    const first = await fill();
    const file = await fileOf((await first.s.exportBackup({ vectors: true })).blob, 'b.json');
    const before = await contents(first.s.db);
    const { s } = await startServices();
    const preview = await s.previewImport({ files: [file] });
    const ctl = new AbortController();
    const out = await s.runImport(preview.planId, { batchSize: 1, signal: ctl.signal, onProgress: () => ctl.abort() });
    expect(out).toMatchObject({ written: 1, skipped: 0, batches: 1, cancelled: true });
    const [m] = await s.db.memories.toArray();
    expect(m).toEqual(before.memories.find((x) => x.id === m.id));
    expect(await s.db.feedback.toArray()).toEqual(before.feedback.filter((f) => f.memoryId === m.id));
    expect(await s.getSetting('theme')).toBeUndefined(); // settings come back only with the whole restore
    // the memory already restored is skipped, not featurized again
    expect(await s.runImport(preview.planId, { batchSize: 1 })).toMatchObject({ written: 2, skipped: 1, batches: 2, cancelled: false });
    expect(await contents(s.db)).toEqual(before);
  });
});

describe('encrypted backup', () => {
  it('asks for the passphrase, refuses a wrong one writing nothing, restores with the right one', async () => {
    const first = await fill();
    const exported = await first.s.exportBackup({ vectors: false, passphrase: 'correct horse' });
    expect(exported.fileName).toBe('mnemograph-backup-2026-11-24.encrypted.json');
    const before = await contents(first.s.db);
    const file = await fileOf(exported.blob, exported.fileName);

    const { s } = await startServices();
    const ask = await s.previewImport({ files: [file] });
    expect(ask).toMatchObject({ format: 'backup', needsPassphrase: true, total: 0, fresh: 0 });
    expect(await codeOf(s.runImport(ask.planId))).toBe('NOT_FOUND'); // nothing was planned
    expect(await codeOf(s.previewImport({ files: [file], passphrase: 'wrong horse' }))).toBe('WRONG_PASSPHRASE');
    expect(await s.db.memories.count()).toBe(0);

    const ok = await s.previewImport({ files: [file], passphrase: 'correct horse' });
    expect(ok).toMatchObject({ total: 3, fresh: 3, vectorsReused: 0 });
    await s.runImport(ok.planId);
    const after = await contents(s.db);
    expect({ ...after, vectors: [] }).toEqual({ ...before, vectors: [] });
  });
});

describe('Markdown export', () => {
  it('zips the memories not in the trash and records the time', async () => {
    const { s } = await fill();
    const out = await s.exportMarkdown();
    expect(out).toMatchObject({ fileName: 'mnemograph-2026-11-24.zip', memories: 2 });
    expect(out.blob.type).toBe('application/zip');
    expect(await s.getSetting('lastBackupAt')).toBe(T0);
  });
});

function next<T>(o: Observable<T>, skip = 0): Promise<T> {
  return new Promise((res, rej) => {
    let seen = 0;
    const sub = o.subscribe({
      next: (v) => {
        if (seen++ < skip) return;
        res(v);
        queueMicrotask(() => sub.unsubscribe());
      },
      error: rej,
    });
  });
}

describe('export off the page', () => {
  it('hands the rows to the injected io (the worker on the page) and wraps the bytes it returns', async () => {
    const { s, parser } = await fill();
    const writeBackup = vi.spyOn(parser, 'writeBackup');
    const writeMarkdown = vi.spyOn(parser, 'writeMarkdown');
    const out = await s.exportBackup({ vectors: true, passphrase: 'correct horse' });
    expect(writeBackup).toHaveBeenCalledTimes(1);
    const req = writeBackup.mock.calls[0][0];
    // all three memories (the trash included), the recorded export time among the settings
    expect(req.rows.memories.length).toBe(3);
    expect(req.rows.settings).toContainEqual({ key: 'lastBackupAt', value: T0 });
    expect(req.options).toMatchObject({ now: T0, includeVectors: true });
    expect(req.passphrase).toBe('correct horse');
    const bytes = await writeBackup.mock.results[0].value;
    expect(new Uint8Array(await out.blob.arrayBuffer())).toEqual(bytes);
    expect(out).toMatchObject({ fileName: 'mnemograph-backup-2026-11-24.encrypted.json', memories: 3 });

    const md = await s.exportMarkdown();
    expect(writeMarkdown).toHaveBeenCalledTimes(1);
    expect(writeMarkdown.mock.calls[0][0]).toMatchObject({ folder: 'mnemograph-2026-11-24' });
    expect(md.memories).toBe(2);
  });

  it('a failure in the io rejects the export with its code and records no backup time', async () => {
    const { s, parser } = await fill();
    vi.spyOn(parser, 'writeBackup').mockRejectedValueOnce(new AppError('WORKER_CRASHED', 'the worker crashed'));
    expect(await codeOf(s.exportBackup({ vectors: false }))).toBe('WORKER_CRASHED');
    expect(await s.getSetting('lastBackupAt')).toBeUndefined();
  });
});

describe('backup reminder', () => {
  it('is due when set and never backed up, or the last backup is older than the interval', () => {
    expect(backupStatus(undefined, undefined, T0)).toEqual({ lastBackupAt: null, reminderDays: null, due: false });
    expect(backupStatus(undefined, 7, T0)).toEqual({ lastBackupAt: null, reminderDays: 7, due: true });
    expect(backupStatus(T0 - 7 * DAY, 7, T0).due).toBe(false); // exactly the interval: not yet
    expect(backupStatus(T0 - 7 * DAY - 1, 7, T0).due).toBe(true);
    expect(backupStatus(T0 - 100 * DAY, null, T0).due).toBe(false); // off
    expect(backupStatus('yesterday', 0, T0)).toEqual({ lastBackupAt: null, reminderDays: null, due: false }); // invalid stored values count as unset
  });

  it('follows the setting and the exports live, with the services clock', async () => {
    let now = T0;
    const { s } = await startServices({ now: () => now });
    const live = s.liveBackupStatus();
    expect(await next(live)).toEqual<BackupStatus>({ lastBackupAt: null, reminderDays: null, due: false });
    for (const bad of [0, 366, 1.5, Number.NaN]) expect(await codeOf(s.setBackupReminder(bad))).toBe('INVALID_OPTION');
    await s.setBackupReminder(7);
    expect(await next(live)).toEqual({ lastBackupAt: null, reminderDays: 7, due: true });
    await s.exportMarkdown();
    expect(await next(live)).toEqual({ lastBackupAt: T0, reminderDays: 7, due: false });
    now = T0 + 8 * DAY;
    expect(await next(live)).toEqual({ lastBackupAt: T0, reminderDays: 7, due: true });
    await s.setBackupReminder(null);
    expect(await next(live)).toEqual({ lastBackupAt: T0, reminderDays: null, due: false });
  });
});

describe('a large restore', () => {
  it('reusing every stored feature, it writes 1,024 memories a transaction, shows progress after each, and the engine has them all when it returns', async () => {
    const first = await fill();
    const doc = JSON.parse(new TextDecoder().decode((await fileOf((await first.s.exportBackup({ vectors: true })).blob, 'b.json')).bytes)) as {
      memories: { id: string; text: string; deletedAt: number | null }[];
      vectors: { memoryId: string }[];
      feedback: unknown[];
      links: unknown[];
    };
    // 1,100 live copies of the first memory, each with its own id, text and the stored vectors
    const [tpl] = doc.memories;
    const vecs = doc.vectors.filter((v) => v.memoryId === tpl.id);
    const ids = Array.from({ length: 1100 }, (_, i) => `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`);
    doc.memories = ids.map((id, i) => ({ ...tpl, id, text: `${tpl.text} ${i}` }));
    doc.vectors = ids.flatMap((id) => vecs.map((v) => ({ ...v, memoryId: id })));
    doc.feedback = [];
    doc.links = [];
    const { s, embedder } = await startServices();
    const preview = await s.previewImport({ files: [{ name: 'big.json', bytes: new TextEncoder().encode(JSON.stringify(doc)) }] });
    expect(preview).toMatchObject({ total: 1100, fresh: 1100, vectorsReused: 1100 });
    const progress: number[] = [];
    expect(await s.runImport(preview.planId, { onProgress: (p) => progress.push(p.written) })).toEqual({ written: 1100, skipped: 0, batches: 2, cancelled: false, kinds: { current: 1100, earlier: 0, trashed: 0 } });
    expect(progress).toEqual([1024, 1100]);
    expect(embedder.calls).toEqual([]);
    expect((await s.engineStats()).size).toBe(1100); // both batches followed before it returned
    expect(await s.countMemories()).toBe(1100);
  }, 60_000);
});
