// Schema v7 (switching encoders): the upgrade from v5 and the switch's repository functions.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { serializeSpace } from '../core/spaces';
import { freshDbName } from '../testing/db';
import { MnemographDb, openDb } from './db';
import { encoderInputKey, flipEncoder, pendingWork, putPendingVectors, storeEncoder } from './encoder-vectors';
import { DB_VERSION, ENCODER_SETTING, ENCODER_SWITCH_SETTING, encoderOfRows, type MemoryRow, type VectorRow } from './schema';
import { packSpace } from './vectors';
import { featureTables, putFeatureRows } from './feature-blocks';
import { vectorRowsOf } from './repo';

function row(id: string, text = `memory ${id}`): MemoryRow {
  return { id, text, tags: [], suggestedTags: [], importance: 0.5, createdAt: 1, updatedAt: 1, validFrom: 1, validTo: null, sessionId: 's', status: 'active', deletedAt: null, embedTruncated: false };
}
const e1 = (id: string, model: string, dim: number, fill = 1): VectorRow => packSpace(id, 'E1', serializeSpace('E1', new Float32Array(dim).fill(fill)), model);

describe('schema v5 -> v7', () => {
  it('adds the pending vectors table and records the encoder the stored vectors came from', async () => {
    const name = freshDbName();
    const v5 = new MnemographDb(name, { upTo: 5 });
    await v5.open();
    await v5.memories.bulkAdd([row('a'), row('b'), row('c')]);
    await v5.vectors.bulkPut([e1('a', 'use-lite-en/v1', 512), e1('b', 'use-lite-en/v1', 512), e1('c', 'other/v0', 8), packSpace('a', 'E2', serializeSpace('E2', new Float32Array(6)), 'spaces/x')]);
    v5.close();

    // the release that shipped v7 (v8 and v9 come on top; v9's blocks have their own tests)
    const db = new MnemographDb(name, { upTo: 7 });
    await db.open();
    expect(DB_VERSION).toBeGreaterThanOrEqual(7);
    expect(db.backendDB().version).toBe(70);
    expect((await db.settings.get(ENCODER_SETTING))?.value).toEqual({ id: 'use-lite-en/v1', recordedBy: 'upgrade' });
    expect(await db.pendingVectors.count()).toBe(0);
    expect(await db.vectors.count()).toBe(4); // no stored row changes
    expect(db.pendingVectors.schema.indexes.map((i) => i.name).sort()).toEqual(['memoryId', 'space']);
    db.close();
  });

  it('leaves a store without vectors on the default encoder, and never overwrites a recorded choice', async () => {
    const empty = freshDbName();
    const v5 = new MnemographDb(empty, { upTo: 5 });
    await v5.open();
    v5.close();
    const db = await openDb(empty);
    expect(await db.settings.get(ENCODER_SETTING)).toBeUndefined();
    db.close();
    expect(encoderOfRows([])).toBe('');
    expect(encoderOfRows(['b', 'a', 'b', ''])).toBe('b');
    expect(encoderOfRows(['b', 'a'])).toBe('a'); // a tie: the id that sorts first
  });
});

describe('storeEncoder', () => {
  it('reads the recorded encoder, else the producer of most E1 vectors as found by an upgrade (writing nothing)', async () => {
    const db = await openDb(freshDbName());
    expect(await storeEncoder(db)).toEqual({ id: '', byUpgrade: false }); // no vectors: the default applies
    expect(await db.settings.get(ENCODER_SETTING)).toBeUndefined();
    await db.memories.bulkAdd([row('a'), row('b'), row('c')]);
    await db.transaction('rw', featureTables(db), async () => {
      await putFeatureRows(db, [e1('a', 'minilm', 4), e1('b', 'use-lite', 8), e1('c', 'use-lite', 8)]);
    });
    expect(await storeEncoder(db)).toEqual({ id: 'use-lite', byUpgrade: true });
    expect(await db.settings.get(ENCODER_SETTING)).toBeUndefined(); // read only
    // a choice the person made (a finished switch) is read as it is, never re-guessed
    await db.settings.put({ key: ENCODER_SETTING, value: { id: 'minilm' } });
    expect(await storeEncoder(db)).toEqual({ id: 'minilm', byUpgrade: false });
    db.close();
  });

  it('counts each memory once, by the block its E1 sits in now; a tie goes to the first by name', async () => {
    const db = await openDb(freshDbName());
    await db.memories.bulkAdd([row('a'), row('b'), row('c'), row('d')]);
    const put = (rows: ReturnType<typeof e1>[]) =>
      db.transaction('rw', featureTables(db), async () => {
        await putFeatureRows(db, rows);
      });
    await put([e1('a', 'use-lite', 8), e1('b', 'use-lite', 8), e1('c', 'minilm', 4), e1('d', 'minilm', 4)]);
    expect((await storeEncoder(db)).id).toBe('minilm'); // 2 and 2
    await put([e1('c', 'use-lite', 8)]); // c re-embedded: its entry leaves the minilm block
    expect((await storeEncoder(db)).id).toBe('use-lite'); // 3 and 1
    db.close();
  });
});

describe('the flip', () => {
  it('moves nothing while a live memory lacks its new vector, then everything in one go', async () => {
    const db = await openDb(freshDbName());
    await db.memories.bulkAdd([row('a'), row('b'), { ...row('gone'), deletedAt: 5 }]);
    await db.transaction('rw', featureTables(db), async () => {
      await putFeatureRows(db, [e1('a', 'old', 4), e1('b', 'old', 4), e1('gone', 'old', 4)]);
    });
    const e1Row = async (id: string) => (await vectorRowsOf(db, id)).find((r) => r.space === 'E1');
    await db.settings.put({ key: ENCODER_SWITCH_SETTING, value: { from: 'old', to: 'new', state: 'running', startedAt: 1 } });
    const [a, b] = [row('a'), row('b')];
    expect((await pendingWork(db, 'new')).todo.map((m) => m.id)).toEqual(['a', 'b']);
    expect(await putPendingVectors(db, [{ memoryId: 'a', inputKey: encoderInputKey(a), rows: [e1('a', 'new', 6, 2)] }])).toBe(1);
    expect(await flipEncoder(db, 'new', ['E1', 'E5', 'E10'])).toEqual({ flipped: false, missing: 1 });
    expect((await e1Row('a'))!.model).toBe('old');
    // a vector computed from text that has since changed is refused
    expect(await putPendingVectors(db, [{ memoryId: 'b', inputKey: encoderInputKey({ text: 'older text' }), rows: [e1('b', 'new', 6)] }])).toBe(0);
    expect(await putPendingVectors(db, [{ memoryId: 'b', inputKey: encoderInputKey(b), rows: [e1('b', 'new', 6, 3)] }])).toBe(1);
    expect((await pendingWork(db, 'new')).todo).toEqual([]);
    expect(await flipEncoder(db, 'new', ['E1', 'E5', 'E10'])).toEqual({ flipped: true, missing: 0 });
    expect(await e1Row('a')).toMatchObject({ model: 'new', dim: 4 + 6 * 4 });
    expect(await e1Row('a')).toEqual(e1('a', 'new', 6, 2)); // byte for byte
    expect((await e1Row('b'))!.model).toBe('new');
    expect(Object.keys((await e1Row('b'))!)).not.toContain('inputKey');
    // the deleted memory kept its old vector (it is not live); every live one has the new encoder's only
    expect((await e1Row('gone'))!.model).toBe('old');
    expect((await db.featureHeads.toArray()).map((h) => [h.model, h.dim, h.ids])).toEqual([
      ['new', 6, ['a', 'b']],
      ['old', 4, ['gone']],
    ]);
    expect(await db.pendingVectors.count()).toBe(0);
    expect((await db.settings.get(ENCODER_SETTING))?.value).toEqual({ id: 'new' });
    expect(await db.settings.get(ENCODER_SWITCH_SETTING)).toBeUndefined();
    db.close();
  });

  it('an edit changes the input key (text or captions)', () => {
    expect(encoderInputKey({ text: 'a' })).toBe(encoderInputKey({ text: 'a' }));
    expect(encoderInputKey({ text: 'a' })).not.toBe(encoderInputKey({ text: 'b' }));
    expect(encoderInputKey({ text: 'a' })).not.toBe(encoderInputKey({ text: 'a', media: [{ caption: 'a cat' }] }));
  });
});
