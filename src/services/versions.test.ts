// Versions (issue 9): an edit of anything makes a new version and closes the old one; the history;
// asOf search and recall return the version valid then; an earlier version ranks below its memory.
import 'fake-indexeddb/auto';
import { storedVectors } from '../testing/db';
import { describe, expect, it } from 'vitest';
import { services } from './index';
import { codeOf } from '../testing/errors';
import { startServices } from '../testing/services';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 4, 1); // 2026-05-01

describe('versions', () => {
  it('an edit keeps the id, keeps the replaced text as an earlier version, and closes its valid time at the edit', async () => {
    let t = T0;
    const { s, embedder } = await startServices({ now: () => t });
    const m = await services().addMemory({ text: 'I live in Lisbon', tags: 'home', source: 'diary' });
    expect(m).toMatchObject({ validFrom: T0, validTo: null, recordedAt: T0, lastAccessedAt: T0, strength: 1 });
    t = T0 + 10 * DAY;
    const calls = embedder.calls.length;
    const u = await services().updateMemory(m.id, { text: 'I live in Hamburg', importance: 0.9 });
    expect(embedder.calls.length).toBe(calls + 1); // re-featurized through the capture's path
    expect(u).toMatchObject({ id: m.id, text: 'I live in Hamburg', importance: 0.9, tags: ['home'], source: 'diary', validFrom: T0 + 10 * DAY, validTo: null, recordedAt: T0 + 10 * DAY, createdAt: T0 });

    const history = await services().memoryHistory(m.id);
    expect(history.map((v) => [v.current, v.memory.text, v.recordedAt, v.supersededAt])).toEqual([
      [true, 'I live in Hamburg', T0 + 10 * DAY, null],
      [false, 'I live in Lisbon', T0, T0 + 10 * DAY],
    ]);
    const old = history[1].memory;
    expect(old).toMatchObject({ supersededBy: m.id, supersededAt: T0 + 10 * DAY, validFrom: T0, validTo: T0 + 10 * DAY, importance: 0.5 });
    expect(old.id).not.toBe(m.id);
    // the history is reached from an earlier version too
    expect((await services().memoryHistory(old.id)).map((v) => v.memory.id)).toEqual([m.id, old.id]);
    // the earlier version kept the old features; the memory has the new ones
    expect((await storedVectors.of(s.db, old.id)).length).toBeGreaterThan(0);
    expect((await s.engine.stats()).size).toBe(2);

    // asOf: inside the old span -> the old text; at the edit (exclusive end) -> the new one
    const ids = async (q: string, asOf?: number | string) => (await services().search(q, { asOf, semantic: false })).map((h) => h.memory.id);
    expect(await ids('live', T0 + 5 * DAY)).toEqual([old.id]);
    expect(await ids('live', T0 + 10 * DAY)).toEqual([m.id]);
    expect(await ids('lisbon', new Date(T0 + 5 * DAY).toISOString().slice(0, 10))).toEqual([old.id]);
    // no asOf: both, the earlier one below the memory that replaced it, and marked
    const both = await services().search('live', { semantic: false });
    expect(both.map((h) => h.memory.id)).toEqual([m.id, old.id]);
    expect(both[1].memory.supersededBy).toBe(m.id);
    // recall takes asOf the same way (the graph draws recall's results)
    const r = await services().recall('I live in', { asOf: T0 + 5 * DAY });
    expect(r.results.map((v) => v.memory.id)).toEqual([old.id]);
    expect((await services().recall('I live in', { asOf: '2026-05-06' })).results.map((v) => v.memory.id)).toEqual([old.id]);
    expect((await services().recall('I live in')).results.map((v) => v.memory.id)).toEqual([m.id, old.id]);
    expect(await codeOf(services().search('x', { asOf: 'last tuesday' }))).toBe('INVALID_OPTION');
    expect(await codeOf(services().recall('x', { asOf: Number.NaN }))).toBe('INVALID_OPTION');
    // an earlier version is never edited
    expect(await codeOf(services().updateMemory(old.id, { text: 'rewrite history' }))).toBe('INVALID_OPTION');
  });

  it('tags, importance, source and when it happened make versions too; valid time alone changes in place', async () => {
    let t = T0;
    const { s, embedder } = await startServices({ now: () => t });
    const m = await services().addMemory({ text: 'Planted garlic', tags: 'garden' });
    t += DAY;
    const calls = embedder.calls.length;
    await services().updateMemory(m.id, { tags: ['garden', 'Autumn Jobs'] });
    expect(embedder.calls.length).toBe(calls); // no new text: the features are copied, not recomputed
    await services().setTags(m.id, 'garden');
    await services().updateMemory(m.id, { source: 'allotment log' });
    t += DAY;
    await services().updateMemory(m.id, { createdAt: T0 - 3 * DAY }); // when it happened: E2-E4 recomputed
    expect(embedder.calls.length).toBe(calls + 1);
    const h = await services().memoryHistory(m.id);
    expect(h.length).toBe(5);
    // the validity started with when it happened (the capture's time): it moves with it
    expect(h[0].memory).toMatchObject({ tags: ['garden'], source: 'allotment log', createdAt: T0 - 3 * DAY, validFrom: T0 - 3 * DAY });
    // the earlier version (a correction of the whole span: it started later) keeps its own time and stays open
    expect(h[1].memory).toMatchObject({ createdAt: T0, validFrom: T0, validTo: null, supersededBy: m.id });
    expect(h[h.length - 1].memory.tags).toEqual(['garden']);
    // four earlier versions with the same words: a search lists the memory once
    expect((await services().search('planted garlic', { semantic: false })).map((x) => x.memory.id)).toEqual([m.id]);
    expect((await services().recall('planted garlic')).results.map((x) => x.memory.id)).toEqual([m.id]);
    // nothing changed: no version
    await services().updateMemory(m.id, { tags: 'garden' });
    expect((await services().memoryHistory(m.id)).length).toBe(5);
    // valid time alone: the same fact, another span, in place
    await services().updateMemory(m.id, { validFrom: T0 - 3 * DAY, validTo: T0 + 100 * DAY });
    expect((await services().memoryHistory(m.id)).length).toBe(5);
    expect(await services().getMemory(m.id)).toMatchObject({ validFrom: T0 - 3 * DAY, validTo: T0 + 100 * DAY });
    expect(await codeOf(services().updateMemory(m.id, { validFrom: T0, validTo: T0 - 1 }))).toBe('INVALID_OPTION');
    // earlier versions share the memory's session but are not members of their own (E4 positions)
    expect(await s.db.memories.where('sessionId').equals(m.sessionId).count()).toBe(5);
    expect(await services().importMemories([{ text: 'Watered the beds', sessionId: m.sessionId, createdAt: T0 }])).toHaveLength(1);
  });

  it("a person's date is the memory's time everywhere: a capture dated in the past is true from it; moving it later closes the earlier version there", async () => {
    let t = T0;
    await startServices({ now: () => t });
    const out = await services().saveMemory({ text: 'Sowed the broad beans', createdAt: T0 - 10 * DAY }); // the capture form's "when did this happen"
    expect(out.kind).toBe('saved');
    const m = out.memory;
    expect(m).toMatchObject({ createdAt: T0 - 10 * DAY, validFrom: T0 - 10 * DAY, validTo: null, recordedAt: T0 });
    t = T0 + DAY;
    // the editor's "when it happened", corrected to a later day: the validity that started with it follows
    const u = await services().updateMemory(m.id, { createdAt: T0 - 4 * DAY });
    expect(u).toMatchObject({ createdAt: T0 - 4 * DAY, validFrom: T0 - 4 * DAY, validTo: null, recordedAt: T0 + DAY });
    const [, previous] = (await services().memoryHistory(m.id)).map((v) => v.memory);
    expect(previous).toMatchObject({ createdAt: T0 - 10 * DAY, validFrom: T0 - 10 * DAY, validTo: T0 - 4 * DAY, supersededAt: T0 + DAY });
    // a "true from" set apart from when it happened is the person's: a new time leaves it
    await services().updateMemory(m.id, { validFrom: T0 - 20 * DAY });
    t = T0 + 2 * DAY;
    expect(await services().updateMemory(m.id, { createdAt: T0 - 3 * DAY })).toMatchObject({ createdAt: T0 - 3 * DAY, validFrom: T0 - 20 * DAY });
  });

  it('a correction of the whole span (validFrom given) keeps the earlier version valid; it ranks below', async () => {
    let t = T0;
    await startServices({ now: () => t });
    const m = await services().addMemory({ text: 'Marcus runs on Tuesdays' });
    t += 3 * DAY;
    await services().updateMemory(m.id, { text: 'Marcus runs on Thursdays', validFrom: T0 });
    const [cur, old] = await services().memoryHistory(m.id);
    expect(old.memory).toMatchObject({ validFrom: T0, validTo: null, supersededAt: T0 + 3 * DAY });
    expect(cur.memory.validFrom).toBe(T0);
    const hits = await services().search('marcus runs', { asOf: T0 + DAY, semantic: false });
    expect(hits.map((h) => h.memory.id)).toEqual([m.id, old.memory.id]);
    expect(hits[1].hit.score).toBeLessThan(hits[0].hit.score);
  });
});

describe('lists', () => {
  it('the live list and count show a memory once, however often it was edited', async () => {
    let t = T0;
    await startServices({ now: () => t });
    const m = await services().addMemory({ text: 'first draft' });
    await services().addMemory({ text: 'another memory' });
    for (const text of ['second draft', 'third draft']) {
      t += DAY;
      await services().updateMemory(m.id, { text });
    }
    expect((await services().listMemories()).map((x) => x.text).sort()).toEqual(['another memory', 'third draft']);
    expect(await services().countMemories()).toBe(2);
    await services().deleteMemory(m.id);
    expect(await services().countMemories()).toBe(1);
  });
});
