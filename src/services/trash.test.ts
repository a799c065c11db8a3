// The trash (issue 9): delete, undo, restore, purge after 30 days (start-up, by the clock seam) or
// "Empty trash" (vectors, links, feedback of those memories too, in one transaction), delete all,
// remove the sample; the engine follows each.
import 'fake-indexeddb/auto';
import { storedVectors } from '../testing/db';
import { describe, expect, it } from 'vitest';
import { disposeServices, services } from './index';
import { codeOf } from '../testing/errors';
import { openOtherTab, startServices } from '../testing/services';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 4, 1);

describe('trash', () => {
  it('delete moves a memory (with its earlier versions) to the trash; undo puts back exactly that delete', async () => {
    let t = T0;
    const { s } = await startServices({ now: () => t });
    const a = await services().addMemory({ text: 'apple pie recipe' });
    const b = await services().addMemory({ text: 'apple orchard visit' });
    t += 1000;
    await services().updateMemory(a.id, { text: 'apple crumble recipe' });
    const [, aOld] = await services().memoryHistory(a.id);
    t += 1000;
    const ra = await services().deleteMemory(a.id);
    expect(ra.ids.sort()).toEqual([a.id, aOld.memory.id].sort());
    t += 1000;
    const rb = await services().deleteMemory(b.id);
    expect((await services().search('apple', { semantic: false })).length).toBe(0);
    expect((await s.engine.stats()).size).toBe(0);
    expect(await codeOf(services().deleteMemory(a.id))).toBe('NOT_FOUND');
    // undo the first delete only
    expect(await services().undoDelete(ra)).toBe(2);
    expect((await services().search('apple', { semantic: false })).map((h) => h.memory.id)).toEqual([a.id, aOld.memory.id]);
    // restore from the trash
    expect((await services().restoreMemory(b.id)).deletedAt).toBeNull();
    expect((await s.engine.stats()).size).toBe(3);
    expect(await codeOf(services().restoreMemory(b.id))).toBe('NOT_FOUND'); // not in the trash
    expect(rb.ids).toEqual([b.id]);
  });

  it('purges after 30 days at start-up (the clock seam) and on Empty trash, with vectors, links and feedback', async () => {
    let t = T0;
    const { s, dbName } = await startServices({ now: () => t });
    const keep = await services().addMemory({ text: 'keep me' });
    const old = await services().addMemory({ text: 'trashed long ago' });
    const recent = await services().addMemory({ text: 'trashed yesterday' });
    await services().reinforce(old.id, 50);
    await s.db.links.bulkPut([{ fromId: keep.id, toId: old.id, kind: 'wikilink' }]);
    await services().deleteMemory(old.id);
    t = T0 + 29 * DAY;
    await services().deleteMemory(recent.id);
    disposeServices();

    t = T0 + 30 * DAY + 1; // old has been in the trash for just over 30 days, recent for one
    const { s: s2 } = await startServices({ now: () => t, dbName });
    expect((await s2.db.memories.toArray()).map((m) => m.id).sort()).toEqual([keep.id, recent.id].sort());
    expect((await storedVectors.of(s2.db, old.id)).length).toBe(0);
    expect(await s2.db.feedback.where('memoryId').equals(old.id).count()).toBe(0);
    expect(await s2.db.links.count()).toBe(0);
    expect((await storedVectors.of(s2.db, recent.id)).length).toBeGreaterThan(0);
    // Empty trash: the rest of the trash now
    expect(await services().emptyTrash()).toBe(1);
    expect(await s2.db.memories.count()).toBe(1);
    expect((await storedVectors.of(s2.db, recent.id)).length).toBe(0);
    expect(await codeOf(services().purgeTrash(-1))).toBe('INVALID_OPTION');
  });

  it('delete all: to the trash (restorable), or permanently', async () => {
    const { s } = await startServices();
    for (const text of ['one', 'two', 'three']) await services().addMemory({ text });
    expect(await services().deleteAll()).toBe(3);
    expect(await services().countMemories()).toBe(0);
    expect((await services().browseMemories({ status: 'trashed' })).total).toBe(3);
    expect(await services().deleteAll({ permanently: true })).toBe(3);
    expect(await s.db.memories.count()).toBe(0);
    expect(await storedVectors.count(s.db)).toBe(0);
  });

  it('delete all as the app does it (trashAll): its undo puts back exactly those rows, not what was in the trash before', async () => {
    let t = T0;
    const { s } = await startServices({ now: () => t });
    const a = await services().addMemory({ text: 'apple pie recipe' });
    const b = await services().addMemory({ text: 'pear tart' });
    const c = await services().addMemory({ text: 'plum jam' });
    t += 1000;
    await services().updateMemory(a.id, { text: 'apple crumble recipe' });
    await services().markUnsure([b.id]);
    await services().deleteMemory(c.id); // in the trash before the delete all
    t += 1000;
    const r = await services().trashAll();
    expect(r.ids.length).toBe(3); // a, a's earlier version, b
    expect(await services().countMemories()).toBe(0);
    expect((await s.engine.stats()).size).toBe(0);
    t += 1000;
    expect(await services().undoDelete(r)).toBe(3);
    expect((await services().browseMemories()).items.map((h) => h.id).sort()).toEqual([a.id, b.id].sort());
    expect((await services().getMemory(b.id)).status).toBe('quarantined'); // still unsure
    expect((await services().memoryHistory(a.id)).map((v) => v.memory.text)).toEqual(['apple crumble recipe', 'apple pie recipe']);
    expect((await services().browseMemories({ status: 'trashed' })).items.map((h) => h.id)).toEqual([c.id]); // c stays in the trash
    expect((await services().search('apple', { semantic: false })).map((h) => h.memory.id)[0]).toBe(a.id);
  });

  it('removes the sample collection in one action, and its undo brings it back', async () => {
    const { s } = await startServices();
    const mine = await services().addMemory({ text: 'my own note' });
    await services().importMemories(
      [
        { text: 'sample one', createdAt: T0, sessionId: 's-2026-05-01-a' },
        { text: 'sample two', createdAt: T0 + 1, sessionId: 's-2026-05-01-a' },
      ],
      { sample: true },
    );
    expect(await services().countSample()).toBe(2);
    expect((await services().browseMemories({ sample: true })).items.every((h) => h.sample)).toBe(true);
    const r = await services().removeSample();
    expect(r.ids.length).toBe(2);
    expect(await services().countSample()).toBe(0);
    expect((await services().browseMemories()).items.map((h) => h.id)).toEqual([mine.id]);
    expect((await s.engine.stats()).size).toBe(1);
    expect(await services().undoDelete(r)).toBe(2);
    expect(await services().countSample()).toBe(2);
    // a loader that does not pass { sample: true } is recognised by the sample's session ids
    await services().importMemories([{ text: 'sample three', createdAt: T0 + 2, sessionId: 's-2026-05-02-b' }]);
    expect(await services().countSample()).toBe(3);
    await services().importMemories([{ text: 'mine, imported', createdAt: T0, sessionId: 'my-session' }]);
    expect(await services().countSample()).toBe(3);
  });
});

describe('other tabs', () => {
  it("a second tab's engine follows edits, trash, restore, quarantine and purge", async () => {
    let t = T0;
    const { dbName } = await startServices({ now: () => t });
    const tabB = await openOtherTab(dbName);
    await tabB.engine.start();
    const ids = async (q: string, o = {}) => (await tabB.search(q, { semantic: false, ...o })).map((h) => h.memory.id);
    const m = await services().addMemory({ text: 'zebra crossing near school' });
    await expect.poll(() => ids('zebra')).toEqual([m.id]);
    t += DAY;
    await services().updateMemory(m.id, { text: 'pelican crossing near school' });
    const [, old] = await services().memoryHistory(m.id);
    await expect.poll(() => ids('pelican')).toEqual([m.id]);
    await expect.poll(() => ids('zebra')).toEqual([old.memory.id]);
    await services().markUnsure([m.id]);
    await expect.poll(() => ids('crossing')).toEqual([]);
    await services().validateMemories([m.id]);
    await expect.poll(() => ids('crossing')).toEqual([m.id, old.memory.id]);
    const r = await services().deleteMemory(m.id);
    await expect.poll(async () => (await tabB.engine.stats()).size).toBe(0);
    await services().undoDelete(r);
    await expect.poll(async () => (await tabB.engine.stats()).size).toBe(2);
    await services().deleteAll({ permanently: true });
    await expect.poll(async () => (await tabB.engine.stats()).size).toBe(0);
  });
});
