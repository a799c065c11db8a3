// Switching encoders on a store of 1,000 memories with the hashed fake encoders of src/testing
// (one per catalogue entry, of that entry's dimension): the old vectors answer every search
// until the new set is complete, the flip is all or nothing, pause / resume / cancel, a reload
// mid-way resumes where it stopped, and no two dimensions ever meet.
import 'fake-indexeddb/auto';
import { storedVectors } from '../testing/db';
import { describe, expect, it } from 'vitest';
import { deserializeSpace } from '../core/spaces';
import { openDb, type MnemographDb } from '../db/db';
import { ENCODER_SETTING, ENCODER_SWITCH_SETTING } from '../db/schema';
import { HUB_ENCODERS, type EncoderEntry } from '../embed/catalogue';
import { USE_LITE_ID } from '../embed/types';
import { createFakeEmbedder, type FakeEmbedder } from '../testing/encoder';
import { createChannelEngine } from '../testing/engine';
import { createLocalParser } from '../testing/io';
import { freshDbName, initTestServices } from '../testing/services';
import { runtimeOf, type EncoderFactory } from './active-encoder';
import type { EncoderSwitchStatus } from './encoder-switch';
import { createServices, type Services } from './create';

const NOMIC = HUB_ENCODERS.find((e) => e.dim === 768)!; // 768-d
const BGE = HUB_ENCODERS.find((e) => e.hub?.repo === 'Xenova/bge-small-en-v1.5')!; // 384-d

/** Starts the fake encoder of an entry (its id and dimension) and remembers each one started. */
function fakeFactory(opts: { answerAs?: string } = {}) {
  const started: { entry: EncoderEntry; embedder: FakeEmbedder; disposed: boolean }[] = [];
  const factory: EncoderFactory = (entry) => {
    const embedder = createFakeEmbedder(entry.dim, opts.answerAs ?? entry.id);
    const rec = { entry, embedder, disposed: false };
    started.push(rec);
    return runtimeOf(embedder, undefined, () => (rec.disposed = true));
  };
  return { factory, started };
}

const WORDS = ['garden', 'bike', 'recipe', 'piano', 'river', 'mechanic', 'timing', 'belt', 'tomato', 'run', 'trip', 'meeting', 'code', 'sister'];
const textOf = (i: number) => `note ${i}: ${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${WORDS[(i * 3 + 1) % WORDS.length]}`;

async function store(n: number) {
  const dbName = freshDbName();
  const old = createFakeEmbedder(512, USE_LITE_ID);
  const { factory, started } = fakeFactory();
  const s = await initTestServices({ dbName, embedder: old, engine: createChannelEngine().factory, parser: createLocalParser(), encoders: factory, switchBatchSize: 25 });
  await s.importMemories(Array.from({ length: n }, (_, i) => ({ text: textOf(i), createdAt: 1_000_000 + i })), { batchSize: 200 });
  return { s, dbName, old, factory, started };
}

/** Resolves with the first status `pred` accepts (now or later). */
function statusWhen(s: Services, pred: (st: EncoderSwitchStatus) => boolean): Promise<EncoderSwitchStatus> {
  return new Promise((resolve) => {
    if (pred(s.encoderSwitchStatus())) return resolve(s.encoderSwitchStatus());
    const off = s.subscribeEncoderSwitch((st) => {
      if (pred(st)) {
        off();
        resolve(st);
      }
    });
  });
}

/** Every stored E1 row: its producer and its number of floats. */
async function e1Rows(db: MnemographDb) {
  const rows = await storedVectors.all(db, 'E1');
  return rows.map((r) => ({ model: r.model, dim: (deserializeSpace('E1', r.data) as Float32Array).length }));
}
const tally = (rows: { model: string; dim: number }[]) => {
  const out: Record<string, number> = {};
  for (const r of rows) out[`${r.model}:${r.dim}`] = (out[`${r.model}:${r.dim}`] ?? 0) + 1;
  return out;
};

describe('switching encoders', () => {
  it('re-embeds 1,000 memories in the background; search uses the old vectors until the flip, then only the new ones', async () => {
    const { s, started } = await store(1000);
    expect((await s.engineStats()).dim).toBe(512);
    const paused = statusWhen(s, (st) => st.done >= 300);
    await s.switchEncoder(NOMIC.id);
    await paused;
    await s.pauseEncoderSwitch();
    const mid = s.encoderSwitchStatus();
    expect(mid.state).toBe('paused');
    expect(mid.done).toBeGreaterThanOrEqual(300);
    expect(mid.done).toBeLessThan(1000);
    // meanwhile: the stored vectors, the engine and the query encoder are all still the old ones
    expect(tally(await e1Rows(s.db))).toEqual({ [`${USE_LITE_ID}:512`]: 1000 });
    expect(await s.db.pendingVectors.where('space').equals('E1').count()).toBe(mid.done);
    expect((await s.db.pendingVectors.toArray()).every((r) => r.model === NOMIC.id && (deserializeSpace('E1', r.data) as Float32Array).length === 768)).toBe(true);
    expect((await s.engineStats()).dim).toBe(512);
    expect(s.activeEncoderId()).toBe(USE_LITE_ID);
    const before = await s.search('mechanic timing belt');
    expect(before.length).toBeGreaterThan(0);
    expect(before[0].hit.why.cosine).toBeGreaterThan(0); // the meaning part works: same encoder both sides

    await s.resumeEncoderSwitch();
    const done = await statusWhen(s, (st) => st.state === 'idle' && st.active === NOMIC.id);
    expect(done).toMatchObject({ done: 1000, total: 1000, to: null, error: null });
    expect(done.msPerMemory).toBeGreaterThan(0);
    // after the flip: every E1 is the new encoder's, the pending table is empty, the choice is stored
    expect(tally(await e1Rows(s.db))).toEqual({ [`${NOMIC.id}:768`]: 1000 });
    expect(await s.db.pendingVectors.count()).toBe(0);
    expect((await s.db.settings.get(ENCODER_SETTING))?.value).toEqual({ id: NOMIC.id });
    expect(await s.db.settings.get(ENCODER_SWITCH_SETTING)).toBeUndefined();
    expect((await s.engineStats()).dim).toBe(768);
    const target = started.find((x) => x.entry.id === NOMIC.id)!;
    const calls = target.embedder.calls.length;
    const after = await s.search('mechanic timing belt');
    expect(after[0].hit.why.cosine).toBeGreaterThan(0);
    expect(target.embedder.calls.length).toBe(calls + 1); // the query went to the new encoder
    // every memory was embedded once by the new encoder (plus the query)
    expect(calls).toBe(1000);
  });

  it('a reload mid-way resumes where it stopped (memories already done are not embedded again)', async () => {
    const { s, dbName } = await store(400);
    const some = statusWhen(s, (st) => st.done >= 150);
    await s.switchEncoder(BGE.id);
    await some;
    s.dispose(); // the tab goes away mid-switch, without pausing
    const db = await openDb(dbName);
    const doneBefore = await db.pendingVectors.where('space').equals('E1').count();
    db.close();
    expect(doneBefore).toBeGreaterThanOrEqual(150);
    expect(doneBefore).toBeLessThan(400);

    // the page again: the stored encoder is still the old one, the switch record says 'running'
    const { factory, started } = fakeFactory();
    const again = await initTestServices({ dbName, embedder: createFakeEmbedder(512, USE_LITE_ID), engine: createChannelEngine().factory, parser: createLocalParser(), encoders: factory, switchBatchSize: 25 });
    expect(again.activeEncoderId()).toBe(USE_LITE_ID);
    await again.resumeEncoderSwitchAfterStart();
    const done = await statusWhen(again, (st) => st.state === 'idle' && st.active === BGE.id);
    expect(done.done).toBe(400);
    expect(started[0].embedder.calls.length).toBe(400 - doneBefore);
    expect(tally(await e1Rows(again.db))).toEqual({ [`${BGE.id}:384`]: 400 });
  });

  it('captures and edits made during the switch are embedded by both encoders; the dimensions never meet', async () => {
    const { s } = await store(120);
    const some = statusWhen(s, (st) => st.done >= 50);
    await s.switchEncoder(NOMIC.id);
    await some;
    await s.pauseEncoderSwitch();
    const added = await s.addMemory({ text: 'the mechanic replaced the timing belt on tuesday' });
    // an already re-embedded memory is edited: its new vector must come from the new text
    const doneIds = (await s.db.pendingVectors.where('space').equals('E1').primaryKeys()).map((k) => k[0]);
    const edited = await s.updateMemory(doneIds[0], { text: 'repotted the fern and watered the basil' });
    // 120 + the capture + the edit's earlier version (a row of its own with the old text's vectors)
    expect(tally(await e1Rows(s.db))).toEqual({ [`${USE_LITE_ID}:512`]: 122 });
    await s.resumeEncoderSwitch();
    await statusWhen(s, (st) => st.state === 'idle' && st.active === NOMIC.id);
    expect(tally(await e1Rows(s.db))).toEqual({ [`${NOMIC.id}:768`]: 122 });
    const want = (await createFakeEmbedder(768, NOMIC.id).embed([edited.text]))[0];
    const got = deserializeSpace('E1', (await storedVectors.get(s.db, edited.id, 'E1'))!.data) as Float32Array;
    expect(Array.from(got)).toEqual(Array.from(want));
    expect((await storedVectors.get(s.db, added.id, 'E1'))!.model).toBe(NOMIC.id);
  });

  it('cancel drops the new vectors and leaves everything as it was', async () => {
    const { s, started } = await store(200);
    const some = statusWhen(s, (st) => st.done >= 50);
    await s.switchEncoder(BGE.id);
    await some;
    await s.cancelEncoderSwitch();
    expect(s.encoderSwitchStatus()).toMatchObject({ state: 'idle', to: null, active: USE_LITE_ID });
    expect(await s.db.pendingVectors.count()).toBe(0);
    expect(await s.db.settings.get(ENCODER_SWITCH_SETTING)).toBeUndefined();
    expect(tally(await e1Rows(s.db))).toEqual({ [`${USE_LITE_ID}:512`]: 200 });
    expect(started[0].disposed).toBe(true); // the new encoder's worker is stopped
    expect((await s.engineStats()).dim).toBe(512);
  });

  it('refuses a second switch while one is on, and an unknown encoder', async () => {
    const { s } = await store(60);
    await s.switchEncoder(BGE.id);
    await s.pauseEncoderSwitch();
    await expect(s.switchEncoder(NOMIC.id)).rejects.toMatchObject({ code: 'ENCODER_SWITCH_BUSY' });
    await expect(s.switchEncoder('no-such-model')).rejects.toMatchObject({ code: 'INVALID_OPTION' });
    await s.cancelEncoderSwitch();
  });

  it('an encoder that answers as another one (a fallback) stops the switch; nothing flips', async () => {
    const dbName = freshDbName();
    const { factory } = fakeFactory({ answerAs: USE_LITE_ID });
    const s = await initTestServices({ dbName, embedder: createFakeEmbedder(512, USE_LITE_ID), engine: createChannelEngine().factory, parser: createLocalParser(), encoders: factory });
    await s.importMemories([{ text: 'one' }, { text: 'two' }]);
    await s.switchEncoder(BGE.id);
    const failed = await statusWhen(s, (st) => st.state === 'failed');
    expect(failed.error?.code).toBe('MODEL_LOAD_FAILED');
    expect(await s.db.pendingVectors.count()).toBe(0);
    expect(s.activeEncoderId()).toBe(USE_LITE_ID);
  });

  it('a store the v7 upgrade found on an older encoder moves to the default in the background; a chosen one stays', async () => {
    const { s } = await store(30);
    await s.db.settings.put({ key: ENCODER_SETTING, value: { id: USE_LITE_ID, recordedBy: 'upgrade' } });
    expect(await s.upgradeToDefaultEncoder(BGE.id)).toBe(true);
    await statusWhen(s, (st) => st.state === 'idle' && st.active === BGE.id);
    expect((await s.db.settings.get(ENCODER_SETTING))?.value).toEqual({ id: BGE.id }); // now chosen: no second move
    expect(await s.upgradeToDefaultEncoder(NOMIC.id)).toBe(false);

    const other = await store(5);
    await other.s.db.settings.put({ key: ENCODER_SETTING, value: { id: USE_LITE_ID } }); // chosen by the person
    expect(await other.s.upgradeToDefaultEncoder(BGE.id)).toBe(false);
    expect(other.s.encoderSwitchStatus().state).toBe('idle');
  });

  it('another tab takes the new encoder when the switch finishes here', async () => {
    const { s, dbName } = await store(40);
    const { factory, started } = fakeFactory();
    const tab = createServices({ db: await openDb(dbName), embedder: createFakeEmbedder(512, USE_LITE_ID), engine: createChannelEngine().factory, parser: createLocalParser(), encoders: factory });
    await tab.engine.start();
    await s.switchEncoder(BGE.id);
    await statusWhen(s, (st) => st.state === 'idle' && st.active === BGE.id);
    await statusWhen(tab, (st) => st.active === BGE.id);
    expect(started.map((x) => x.entry.id)).toEqual([BGE.id]);
    expect((await tab.engineStats()).dim).toBe(384);
    tab.dispose();
  });
});
