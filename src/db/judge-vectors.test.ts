// Schema v13 (the judge's vectors): the upgrade keeps every v12 row; int8 codes keep the cosine;
// a row is current only for its judge and its memory's text; purges take the rows with them; a
// backup never holds them; the fill's order puts recent answers' memories first, then the newest.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { cosine } from '../core/pipeline/judge';
import { seededUniform } from '../core/features/hash';
import { freshDbName } from '../testing/db';
import { memoryRow } from '../testing/memory-row';
import { MnemographDb, openDb } from './db';
import { judgeVectorsOf, judgeWork, packJudgeVector, putJudgeVectors, dropOtherJudges, unpackJudgeVector, judgeInputKey } from './judge-vectors';
import { purgeMemories, trashMemories } from './keep';
import { readAllForExport } from './transfer';
import { insertMemories, modifyMemory } from './repo';
import { DB_VERSION, type VectorRow } from './schema';

const J = 'all-mpnet-base-v2-int8';
const unit = (v: number[]) => {
  const n = Math.hypot(...v);
  return Float32Array.from(v, (x) => x / n);
};
const vec = (memoryId: string): VectorRow => ({ memoryId, space: 'E1', dim: 8, dtype: 'space', model: 'enc', data: new Uint8Array(8).fill(1).buffer });

describe('schema v13: the judge vectors', () => {
  it('upgrades a v12 database keeping every row, with an empty judge table', async () => {
    const name = freshDbName();
    const v12 = new MnemographDb(name, { upTo: 12 });
    await v12.open();
    expect(v12.tables.map((t) => t.name)).not.toContain('judgeVectors');
    await insertMemories(v12, [memoryRow('m1'), memoryRow('m2')], [vec('m1')]);
    await v12.engineSnapshot.put({ key: 'head' } as never);
    await v12.settings.put({ key: 'k', value: 1 });
    const before = { memories: await v12.memories.toArray(), heads: await v12.featureHeads.toArray(), log: await v12.lexicalLog.toArray() };
    v12.close();

    const db = await openDb(name);
    expect(DB_VERSION).toBe(13);
    expect(db.backendDB().version).toBe(130);
    expect(await db.memories.toArray()).toEqual(before.memories);
    expect(await db.featureHeads.toArray()).toEqual(before.heads);
    expect(await db.lexicalLog.toArray()).toEqual(before.log);
    expect(await db.engineSnapshot.get('head')).toEqual({ key: 'head' });
    expect(await db.settings.get('k')).toEqual({ key: 'k', value: 1 });
    expect(await db.judgeVectors.count()).toBe(0);
    db.close();
  });

  it('int8 with one scale per vector: 768 bytes, cosine within 0.002 of the float one', () => {
    const rnd = seededUniform(7);
    let worst = 0;
    for (let t = 0; t < 50; t++) {
      const a = unit(Array.from({ length: 768 }, () => rnd() * 2 - 1));
      const b = unit(Array.from({ length: 768 }, (_, i) => a[i] * 0.6 + (rnd() * 2 - 1) * 0.03));
      const packed = packJudgeVector(b);
      expect(packed.data.byteLength).toBe(768);
      worst = Math.max(worst, Math.abs(cosine(a, unpackJudgeVector(packed)) - cosine(a, b)));
    }
    expect(worst).toBeGreaterThan(0); // it is lossy...
    expect(worst).toBeLessThan(0.002); // ...by far less than the 0.18 between the e2e pair's cosines
    // a hand-worked vector: max |x| = 0.8 -> scale 0.8 / 127; 0.6 -> round(95.25) = 95
    const p = packJudgeVector([0.8, -0.6, 0]);
    expect(Array.from(new Int8Array(p.data))).toEqual([127, -95, 0]);
    expect(p.scale).toBeCloseTo(0.8 / 127, 9);
  });

  it('a vector is current only for its judge and the text it was computed from', async () => {
    const db = await openDb(freshDbName());
    await insertMemories(db, [memoryRow('a', { text: 'the mechanic replaced the timing belt' }), memoryRow('b')], []);
    const a = (await db.memories.get('a'))!;
    expect(await putJudgeVectors(db, J, [{ memoryId: 'a', inputKey: judgeInputKey(a), vector: [1, 0, 0] }])).toBe(1);
    // a vector of a text the memory no longer holds is refused
    expect(await putJudgeVectors(db, J, [{ memoryId: 'b', inputKey: judgeInputKey({ text: 'old text' }), vector: [0, 1, 0] }])).toBe(0);
    expect([...(await judgeVectorsOf(db, J, ['a', 'b'])).keys()]).toEqual(['a']);
    expect([...(await judgeVectorsOf(db, 'another-judge', ['a'])).keys()]).toEqual([]); // never mixed
    // an edit makes it stale: the fill has it to do again
    await modifyMemory(db, 'a', (m) => ({ ...m, text: 'the mechanic replaced the brake pads' }));
    expect([...(await judgeVectorsOf(db, J, ['a'])).keys()]).toEqual([]);
    expect((await judgeWork(db, J)).todo).toContain('a');
    db.close();
  });

  it('the work: recent answers first, then the newest; trashed memories and earlier versions are not work', async () => {
    const db = await openDb(freshDbName());
    await insertMemories(
      db,
      [memoryRow('old', { createdAt: 1 }), memoryRow('mid', { createdAt: 2 }), memoryRow('new', { createdAt: 3 }), memoryRow('gone', { createdAt: 4 }), memoryRow('done', { createdAt: 5 })],
      [],
    );
    await trashMemories(db, ['gone'], 10);
    const done = (await db.memories.get('done'))!;
    await putJudgeVectors(db, J, [{ memoryId: 'done', inputKey: judgeInputKey(done), vector: [1] }]);
    expect(await judgeWork(db, J)).toEqual({ live: 4, todo: ['new', 'mid', 'old'] });
    expect((await judgeWork(db, J, ['old', 'done', 'nope'])).todo).toEqual(['old', 'new', 'mid']);
    // another judge's rows: dropped when this judge's fill starts
    await db.judgeVectors.put({ memoryId: 'old', judge: 'other', inputKey: 'x', dim: 1, scale: 1, data: new Int8Array(1).buffer });
    expect(await dropOtherJudges(db, J)).toBe(1);
    expect(await db.judgeVectors.count()).toBe(1);
    db.close();
  });

  it('purged with their memories (empty trash, delete all for good) and never in a backup', async () => {
    const db = await openDb(freshDbName());
    await insertMemories(db, [memoryRow('a'), memoryRow('b'), memoryRow('c')], []);
    const rows = await db.memories.toArray();
    await putJudgeVectors(db, J, rows.map((m) => ({ memoryId: m.id, inputKey: judgeInputKey(m), vector: [0.5, 0.5] })));
    const backup = await readAllForExport(db, true);
    expect(Object.keys(backup).sort()).toEqual(['feedback', 'images', 'links', 'memories', 'settings', 'vectors']);
    await trashMemories(db, ['a'], 10);
    expect(await db.judgeVectors.count()).toBe(3); // the trash keeps them (a restore brings the memory back whole)
    await purgeMemories(db, { trashedBefore: null });
    expect((await db.judgeVectors.toCollection().primaryKeys()).sort()).toEqual(['b', 'c']);
    await purgeMemories(db, { everything: true });
    expect(await db.judgeVectors.count()).toBe(0);
    db.close();
  });

  it("the look for work reads keys, not rows: a whitespace-only edit keeps the vector (the judge's tokenizer splits on whitespace); a row without a text key is read for it", async () => {
    const db = await openDb(freshDbName());
    await insertMemories(db, [memoryRow('a', { text: 'the mechanic replaced the timing belt', createdAt: 2 }), memoryRow('b', { text: 'the bike chain', createdAt: 1 })], []);
    const a = (await db.memories.get('a'))!;
    expect(a.textKey).toBeDefined();
    await putJudgeVectors(db, J, [{ memoryId: 'a', inputKey: judgeInputKey(a), vector: [1, 0] }]);
    await modifyMemory(db, 'a', (m) => ({ ...m, text: '  the mechanic replaced\nthe timing   belt ' }));
    expect(await judgeWork(db, J)).toEqual({ live: 2, todo: ['b'] });
    // an older row with no text key (written under v5): its key is computed from its text
    const b = (await db.memories.get('b'))!;
    const { textKey: _dropped, ...old } = b;
    await db.memories.put(old);
    expect((await db.memories.get('b'))!.textKey).toBeUndefined();
    await putJudgeVectors(db, J, [{ memoryId: 'b', inputKey: judgeInputKey({ text: 'the bike chain' }), vector: [0, 1] }]);
    expect(await judgeWork(db, J)).toEqual({ live: 2, todo: [] });
    db.close();
  });
});
