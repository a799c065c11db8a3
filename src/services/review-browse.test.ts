// Review (quarantine, validate, discard, in bulk), access for decay, "already saved", the full
// list (filters, sorts, windows, tag counts) and the export of a selection.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { services } from './index';
import { codeOf } from '../testing/errors';
import { startServices } from '../testing/services';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 4, 1);

describe('review (quarantine = unsure)', () => {
  it('unsure memories leave search and recall until validated; discard sends them to the trash; bulk', async () => {
    await startServices();
    const ids: string[] = [];
    for (const text of ['comet sighting rumour', 'comet tail photo', 'comet orbit maths']) ids.push((await services().addMemory({ text })).id);
    expect(await services().markUnsure(ids.slice(0, 2))).toBe(2);
    const found = async (o = {}) => (await services().search('comet', { semantic: false, ...o })).map((h) => h.memory.id).sort();
    expect(await found()).toEqual([ids[2]]);
    expect(await found({ includeQuarantined: true })).toEqual([...ids].sort());
    expect((await services().recall('comet')).results.map((v) => v.memory.id)).toEqual([ids[2]]);
    expect((await services().recall('comet', { includeQuarantined: true })).results.length).toBe(3);
    // the review view lists them
    expect((await services().browseMemories({ status: 'quarantined' })).items.map((h) => h.id).sort()).toEqual(ids.slice(0, 2).sort());
    expect(await services().validateMemories([ids[0], ids[2]])).toBe(1); // ids[2] was not unsure
    expect(await found()).toEqual([ids[0], ids[2]].sort());
    const r = await services().discardMemories([ids[1]]);
    expect(r.ids).toEqual([ids[1]]);
    expect((await services().browseMemories({ status: 'quarantined' })).total).toBe(0);
    expect((await services().browseMemories({ status: 'trashed' })).items[0].status).toBe('quarantined');
    expect(await codeOf(services().markUnsure('x' as never))).toBe('INVALID_OPTION');
  });

  it('an edited memory marked unsure takes its earlier versions with it', async () => {
    let t = T0;
    await startServices({ now: () => t });
    const m = await services().addMemory({ text: 'the meeting is on Monday' });
    t += DAY;
    await services().updateMemory(m.id, { text: 'the meeting is on Tuesday' });
    await services().setStatus(m.id, 'quarantined');
    expect(await services().search('meeting', { semantic: false })).toEqual([]);
    expect((await services().memoryHistory(m.id)).map((v) => v.memory.status)).toEqual(['quarantined', 'quarantined']);
  });
});

describe('access and decay', () => {
  it('opening refreshes last access; reinforcing also strengthens; decay re-ranks by them', async () => {
    let t = T0;
    const { s } = await startServices({ now: () => t });
    const a = await services().addMemory({ text: 'bread baking notes' });
    const b = await services().addMemory({ text: 'bread baking notes too' });
    t = T0 + 60 * DAY;
    const opened = await services().openMemory(a.id);
    expect(opened.lastAccessedAt).toBe(T0 + 60 * DAY);
    expect(opened.updatedAt).toBe(T0); // an access is no change
    await services().reinforce(b.id, 40);
    expect(await s.db.memories.get(b.id)).toMatchObject({ lastAccessedAt: T0 + 60 * DAY, strength: 2 });
    await services().recordAccess([b.id]);
    t = T0 + 90 * DAY;
    // both 30 days since access; b's strength 2 halves its decay
    const hits = await services().search('bread baking notes', { semantic: false, decayTauDays: 30 });
    const plain = await services().search('bread baking notes', { semantic: false });
    const score = (hs: typeof hits, id: string) => hs.find((h) => h.memory.id === id)!.hit.score;
    expect(score(hits, a.id) / score(plain, a.id)).toBeCloseTo(Math.exp(-1), 9);
    expect(score(hits, b.id) / score(plain, b.id)).toBeCloseTo(Math.exp(-0.5), 9);
    expect(await codeOf(services().search('x', { decayTauDays: -1 }))).toBe('INVALID_OPTION');
    expect(await codeOf(services().recall('x', { decayTauDays: 100_000 }))).toBe('INVALID_OPTION');
    // decay can be the default (the person's setting); a point in time cannot
    expect(await services().saveRecallDefaults({ decayTauDays: 30 })).toEqual({ decayTauDays: 30 });
    expect(await codeOf(services().saveRecallDefaults({ asOf: T0 }))).toBe('INVALID_OPTION');
    const on = (await services().recall('bread baking notes')).results.find((v) => v.memory.id === a.id)!;
    const off = (await services().recall('bread baking notes', { decayTauDays: 0 })).results.find((v) => v.memory.id === a.id)!;
    expect(on.result.score / off.result.score).toBeCloseTo(Math.exp(-1), 9); // the saved default is on; 0 turns it off
        // "recently opened" sorts by the access
    expect((await services().browseMemories({ sort: 'opened' })).items.map((h) => h.id)).toEqual([b.id, a.id]);
  });
});

describe('already saved', () => {
  it('the same text (trimmed, whitespace runs as one) answers the saved memory and writes nothing', async () => {
    const { s } = await startServices();
    const a = await services().saveMemory({ text: 'Feed the starter\n at 8' });
    expect(a.kind).toBe('saved');
    const again = await services().saveMemory({ text: '  Feed the   starter at 8 \n' });
    expect(again).toEqual({ kind: 'already-saved', memory: expect.objectContaining({ id: a.memory.id }) });
    expect(await s.db.memories.count()).toBe(1);
    expect((await services().saveMemory({ text: 'feed the starter at 8' })).kind).toBe('saved'); // case matters
    await services().deleteMemory(a.memory.id); // in the trash: no longer "saved"
    expect((await services().findDuplicate('Feed the starter at 8'))).toBeNull();
  });
});

describe('the full list', () => {
  it('filters, sorts and windows from index keys; counts tags; exports a selection', async () => {
    let t = T0;
    await startServices({ now: () => t });
    const made: string[] = [];
    for (let i = 0; i < 12; i++) {
      t = T0 + i * DAY;
      const m = await services().addMemory({
        text: `note ${i}\nsecond line`,
        tags: i % 3 === 0 ? ['garden', 'autumn'] : ['work'],
        importance: i / 11,
        ...(i % 4 === 0 ? { source: 'diary' } : {}),
      });
      made.push(m.id);
    }
    const page = await services().browseMemories({}, { offset: 2, limit: 3 });
    expect(page.total).toBe(12);
    expect(page.offset).toBe(2);
    expect(page.items.map((h) => h.title)).toEqual(['note 9', 'note 8', 'note 7']); // newest first
    expect(page.items[0]).toMatchObject({ id: made[9], length: 'note 9\nsecond line'.length, tags: ['garden', 'autumn'], status: 'active', sample: false });
    const titles = async (q: object) => (await services().browseMemories(q, { limit: 500 })).items.map((h) => h.title);
    expect(await titles({ sort: 'oldest', tags: ['Garden'] })).toEqual(['note 0', 'note 3', 'note 6', 'note 9']);
    expect(await titles({ source: 'diary', sort: 'oldest' })).toEqual(['note 0', 'note 4', 'note 8']);
    expect(await titles({ from: T0 + 2 * DAY, to: T0 + 5 * DAY, sort: 'oldest' })).toEqual(['note 2', 'note 3', 'note 4']); // to exclusive
    expect(await titles({ importanceMin: 0.8, sort: 'importance' })).toEqual(['note 11', 'note 10', 'note 9']);
    expect(await titles({ from: T0 + 2 * DAY, to: T0 + 5 * DAY, sort: 'importance' })).toEqual(['note 4', 'note 3', 'note 2']);
    expect(await services().tagCounts()).toEqual([
      { tag: 'work', count: 8 },
      { tag: 'autumn', count: 4 },
      { tag: 'garden', count: 4 },
    ]);
    // an edit: the list shows the memory once; its earlier version is under 'superseded'
    await services().updateMemory(made[0], { text: 'note 0 corrected' });
    expect((await services().browseMemories()).total).toBe(12);
    expect(await titles({ status: 'superseded' })).toEqual(['note 0']);
    expect((await services().tagCounts()).find((c) => c.tag === 'garden')!.count).toBe(4);
    // a change re-answers the cached list
    const v = services().changeVersion();
    await services().deleteMemories([made[11], made[10]]);
    expect(services().changeVersion()).toBeGreaterThan(v);
    expect((await services().browseMemories()).total).toBe(10);
    expect(await titles({ status: 'trashed' })).toEqual(['note 11', 'note 10']);
    // bad queries say what is wrong
    expect(await codeOf(services().browseMemories({ sort: 'random' as never }))).toBe('INVALID_OPTION');
    expect(await codeOf(services().browseMemories({}, { limit: 501 }))).toBe('INVALID_OPTION');
    expect(await codeOf(services().browseMemories({ importanceMin: 0.9, importanceMax: 0.1 }))).toBe('INVALID_OPTION');
    // bulk tags: each changed memory gets a version
    expect(await services().tagMemories([made[1], made[2]], { add: ['q3'], remove: ['work'] })).toBe(2);
    expect(await titles({ tags: ['q3'], sort: 'oldest' })).toEqual(['note 1', 'note 2']);
    // export a selection: those memories (with their earlier versions), no settings
    const file = await services().exportBackup({ vectors: false, ids: [made[0], made[5]] });
    expect(file.memories).toBe(3);
    const md = await services().exportMarkdown({ ids: [made[0], made[5]] });
    expect(md.memories).toBe(2);
  });
});
