// Schema v9: features in packed blocks (add, edit, delete across block boundaries, producers and
// dimensions) and the v8 -> v9 upgrade (every memory and every vector row kept, byte for byte).
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { serializeSpace } from '../core/spaces';
import type { SpaceId } from '../core/types';
import { freshDbName } from '../testing/db';
import { MnemographDb, openDb } from './db';
import { addFeatureRows, BLOCK_SIZE, blockKey, deleteFeatures, featureRowsOf, featureTables, producersInSpace, putFeatureRows } from './feature-blocks';
import { idsOfProducer, insertMemories, liveMemoryIds, vectorRowsOfMany } from './repo';
import { DB_VERSION, type MemoryRow, type VectorRow } from './schema';
import { packSpace } from './vectors';

const id = (i: number) => `m${String(i).padStart(5, '0')}`;
/** An E1 row of `dim` floats, every float = `fill` (so a row's bytes say whose it is). */
const dense = (memoryId: string, model: string, dim: number, fill: number, space: SpaceId = 'E1'): VectorRow =>
  packSpace(memoryId, space, serializeSpace(space, new Float32Array(dim).fill(fill)), model);
/** A lexical row of an odd length (not a multiple of 4): the bytes 0..len-1 plus `seed`. */
const odd = (memoryId: string, len: number, seed: number): VectorRow => {
  const b = new Uint8Array(len).map((_, i) => (i + seed) % 251);
  return { memoryId, space: 'E6', dim: len, dtype: 'space', model: 'lex/1', data: b.buffer };
};
const bytes = (r: VectorRow | undefined) => (r ? Array.from(new Uint8Array(r.data)) : null);

async function put(db: MnemographDb, rows: VectorRow[]) {
  await db.transaction('rw', featureTables(db), async () => {
    await putFeatureRows(db, rows);
  });
}
async function del(db: MnemographDb, ids: string[]) {
  await db.transaction('rw', featureTables(db), async () => {
    await deleteFeatures(db, ids);
  });
}
const heads = async (db: MnemographDb) => (await db.featureHeads.toArray()).map((h) => [h.space, h.model, h.n, h.dim, h.ids.length]);
const rowOf = async (db: MnemographDb, memoryId: string, space: SpaceId = 'E1') =>
  (await featureRowsOf(db, [memoryId])).get(memoryId)?.find((r) => r.space === space);

describe('feature blocks (v9)', () => {
  it('fills blocks of BLOCK_SIZE per space and producer, each tagged with its dimension, and reads every row back byte for byte', async () => {
    const db = await openDb(freshDbName());
    const n = 2 * BLOCK_SIZE + 6; // two full blocks and 6 in a third
    await put(db, Array.from({ length: n }, (_, i) => dense(id(i), 'minilm', 384, i)));
    expect((await heads(db)).sort()).toEqual([
      ['E1', 'minilm', 1, 384, BLOCK_SIZE],
      ['E1', 'minilm', 2, 384, BLOCK_SIZE],
      ['E1', 'minilm', 3, 384, 6],
    ]);
    // a block's data: 512 entries of 4 + 384 x 4 = 1540 bytes, each starting on 8 bytes (1544)
    expect((await db.featureHeads.get(blockKey('E1', 'minilm', 1)))!.bytes).toBe(BLOCK_SIZE * 1544);
    for (const i of [0, BLOCK_SIZE - 1, BLOCK_SIZE, 2 * BLOCK_SIZE, n - 1]) expect(bytes(await rowOf(db, id(i)))).toEqual(bytes(dense(id(i), 'minilm', 384, i)));
    // one more goes to the last block while it has room
    await put(db, [dense('new', 'minilm', 384, 7)]);
    expect((await heads(db)).at(-1)).toEqual(['E1', 'minilm', 3, 384, 7]);
    db.close();
  });

  it('an edit takes the entry out of its block and appends the new one; a delete across blocks empties and drops a block', async () => {
    const db = await openDb(freshDbName());
    await put(db, Array.from({ length: BLOCK_SIZE + 2 }, (_, i) => dense(id(i), 'minilm', 384, i)));
    // edit the first memory: block 1 has 511 left, block 2 gets the new row (3)
    await put(db, [dense(id(0), 'minilm', 384, 99)]);
    expect(await heads(db)).toEqual([
      ['E1', 'minilm', 1, 384, BLOCK_SIZE - 1],
      ['E1', 'minilm', 2, 384, 3],
    ]);
    expect(bytes(await rowOf(db, id(0)))).toEqual(bytes(dense(id(0), 'minilm', 384, 99)));
    expect((await featureRowsOf(db, [id(0)])).get(id(0))).toHaveLength(1); // the old entry is gone
    // delete one of block 1 and every one of block 2: block 2 is dropped
    await del(db, [id(5), id(BLOCK_SIZE), id(BLOCK_SIZE + 1), id(0)]);
    expect(await heads(db)).toEqual([['E1', 'minilm', 1, 384, BLOCK_SIZE - 2]]);
    expect(await db.featureData.count()).toBe(1);
    expect(await rowOf(db, id(5))).toBeUndefined();
    expect(bytes(await rowOf(db, id(6)))).toEqual(bytes(dense(id(6), 'minilm', 384, 6))); // neighbours untouched
    // the next memory reuses the room left in block 1 (the last block of minilm's E1 now)
    await put(db, [dense('late', 'minilm', 384, 1)]);
    expect(await heads(db)).toEqual([['E1', 'minilm', 1, 384, BLOCK_SIZE - 1]]);
    db.close();
  });

  it('a large delete (more ids than the index is asked for) reads the heads and leaves the rest byte for byte; fresh memories are added without a lookup', async () => {
    const db = await openDb(freshDbName());
    await db.transaction('rw', featureTables(db), async () => {
      await addFeatureRows(db, Array.from({ length: BLOCK_SIZE + 100 }, (_, i) => dense(id(i), 'minilm', 384, i)));
    });
    expect(await heads(db)).toEqual([
      ['E1', 'minilm', 1, 384, BLOCK_SIZE],
      ['E1', 'minilm', 2, 384, 100],
    ]);
    const gone = Array.from({ length: 300 }, (_, i) => id(2 * i + 1)); // every odd one of the first 600: both blocks
    await del(db, gone);
    expect(await heads(db)).toEqual([
      ['E1', 'minilm', 1, 384, BLOCK_SIZE - 256],
      ['E1', 'minilm', 2, 384, 100 - 44],
    ]);
    expect(await rowOf(db, id(1))).toBeUndefined();
    expect(bytes(await rowOf(db, id(598)))).toEqual(bytes(dense(id(598), 'minilm', 384, 598)));
    expect(bytes(await rowOf(db, id(601)))).toEqual(bytes(dense(id(601), 'minilm', 384, 601)));
    // both blocks' ids, read a few heads at a time: 612 - 300 deleted
    const left = await idsOfProducer(db, 'E1', 'minilm');
    expect(left.size).toBe(BLOCK_SIZE + 100 - 300);
    expect([left.has(id(0)), left.has(id(1)), left.has(id(611))]).toEqual([true, false, true]);
    db.close();
  });

  it('lists the keys of the live memories page by page, in key order, without the trashed', async () => {
    const db = await openDb(freshDbName());
    const row = (i: number): MemoryRow => ({
      id: id(i), text: `note ${i}`, tags: [], suggestedTags: [], importance: 0.5, createdAt: i, updatedAt: i, validFrom: i, validTo: null,
      sessionId: 's', status: 'active', deletedAt: i === 2 ? 50 : null, embedTruncated: false,
    });
    await insertMemories(db, [4, 0, 2, 1, 3].map(row), []);
    // pages of 2: [0, 1] [2, 3] [4]; 2 is in the trash
    expect(await liveMemoryIds(db, 2)).toEqual([id(0), id(1), id(3), id(4)]);
    expect(await liveMemoryIds(db)).toEqual([id(0), id(1), id(3), id(4)]);
    db.close();
  });

  it('keeps producers apart (384, 512 and 768 floats), one entry per memory and space, and lexical entries of any length', async () => {
    const db = await openDb(freshDbName());
    await put(db, [dense('a', 'minilm', 384, 1), dense('b', 'use-lite', 512, 2), dense('c', 'mpnet', 768, 3), dense('a', 'minilm', 384, 4, 'E5'), odd('a', 7, 1), odd('b', 13, 2)]);
    expect((await heads(db)).sort()).toEqual([
      ['E1', 'minilm', 1, 384, 1],
      ['E1', 'mpnet', 1, 768, 1],
      ['E1', 'use-lite', 1, 512, 1],
      ['E5', 'minilm', 1, 384, 1],
      ['E6', 'lex/1', 1, 0, 2],
    ]);
    const spans = new Uint32Array((await db.featureData.get(blockKey('E6', 'lex/1', 1)))!.spans);
    expect(Array.from(spans)).toEqual([0, 7, 8, 13]); // starts on 8 bytes, lengths kept
    expect(bytes(await rowOf(db, 'b', 'E6'))).toEqual(bytes(odd('b', 13, 2)));
    // 'a' re-embedded by another encoder: its E1 moves to that producer's block, the old entry goes
    await put(db, [dense('a', 'mpnet', 768, 5)]);
    expect((await rowOf(db, 'a'))!.model).toBe('mpnet');
    expect((await featureRowsOf(db, ['a'])).get('a')!.map((r) => r.space).sort()).toEqual(['E1', 'E5', 'E6']);
    expect(await producersInSpace(db, 'E1')).toEqual(new Map([['a', 'mpnet'], ['b', 'use-lite'], ['c', 'mpnet']]));
    // the staleness check's read: the ids of one producer's blocks only
    expect([...(await idsOfProducer(db, 'E1', 'mpnet'))].sort()).toEqual(['a', 'c']);
    expect([...(await idsOfProducer(db, 'E1', 'minilm'))]).toEqual([]);
    expect([...(await idsOfProducer(db, 'E6', 'lex/1'))].sort()).toEqual(['a', 'b']);
    expect((await heads(db)).filter((h) => h[1] === 'minilm')).toEqual([['E5', 'minilm', 1, 384, 1]]); // E1 minilm block emptied, dropped
    // within one write the last row of a (memory, space) wins
    await put(db, [dense('d', 'minilm', 384, 1), dense('d', 'minilm', 384, 2)]);
    expect(bytes(await rowOf(db, 'd'))).toEqual(bytes(dense('d', 'minilm', 384, 2)));
    db.close();
  });
});

function memory(i: number): MemoryRow {
  return { id: id(i), text: `memory ${i}`, tags: [], suggestedTags: [], importance: 0.5, createdAt: i, updatedAt: i, validFrom: i, validTo: null, sessionId: 's', status: 'active', deletedAt: i % 7 === 0 ? 9 : null, embedTruncated: false };
}

describe('schema upgrade v8 -> v9', () => {
  it('moves every vector row into blocks byte for byte, keeps every memory and the pending rows, and drops the vectors table', async () => {
    const name = freshDbName();
    const v8 = new MnemographDb(name, { upTo: 8 });
    await v8.open();
    const n = BLOCK_SIZE + 40; // E1 spans two blocks
    const memories = Array.from({ length: n }, (_, i) => memory(i));
    const rows: VectorRow[] = [];
    for (let i = 0; i < n; i++) {
      rows.push(dense(id(i), i < 30 ? 'use-lite' : 'minilm', i < 30 ? 512 : 384, i / 10)); // a store half-way through a change of encoder
      if (i % 3 === 0) rows.push(odd(id(i), 5 + (i % 11), i)); // lexical rows of odd lengths, some memories without
      if (i % 50 === 0) rows.push(dense(id(i), 'minilm', 384, -i, 'E10'));
    }
    await v8.memories.bulkAdd(memories);
    await v8.vectors.bulkAdd(rows);
    await v8.pendingVectors.put({ ...dense(id(1), 'mpnet', 768, 1), inputKey: 'k' });
    await v8.settings.put({ key: 'encoder', value: { id: 'minilm' } });
    v8.close();

    const db = await openDb(name);
    expect(db.backendDB().version).toBe(DB_VERSION * 10); // v8 -> v9, then on to the newest (v10 adds pictures)
    expect(db.tables.map((t) => t.name)).not.toContain('vectors');
    expect([...db.backendDB().objectStoreNames]).not.toContain('vectors');
    expect(await db.memories.toArray()).toEqual(memories.map((m) => expect.objectContaining(m)));
    const back = await vectorRowsOfMany(db, memories.map((m) => m.id));
    const flat = [...back.values()].flat();
    expect(flat).toHaveLength(rows.length);
    const key = (r: VectorRow) => `${r.memoryId}/${r.space}`;
    const byKey = new Map(flat.map((r) => [key(r), r]));
    for (const r of rows) {
      const got = byKey.get(key(r));
      expect(got && { ...got, data: bytes(got) }).toEqual({ ...r, data: bytes(r) });
    }
    expect((await heads(db)).sort()).toEqual([
      ['E1', 'minilm', 1, 384, BLOCK_SIZE],
      ['E1', 'minilm', 2, 384, n - 30 - BLOCK_SIZE],
      ['E1', 'use-lite', 1, 512, 30],
      ['E10', 'minilm', 1, 384, Math.ceil(n / 50)],
      ['E6', 'lex/1', 1, 0, Math.ceil(n / 3)],
    ]);
    expect(await db.pendingVectors.count()).toBe(1);
    expect((await db.settings.get('encoder'))?.value).toEqual({ id: 'minilm' });
    db.close();
  });

  it('an empty v8 store upgrades to empty blocks', async () => {
    const name = freshDbName();
    const v8 = new MnemographDb(name, { upTo: 8 });
    await v8.open();
    v8.close();
    const db = await openDb(name);
    expect(await db.featureHeads.count()).toBe(0);
    db.close();
  });
});
