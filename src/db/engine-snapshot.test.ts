// Schema v12 (the engine snapshot): the upgrade from v11 keeps every row (the keyword snapshot and
// its log too) and adds an empty `engineSnapshot`; a write of features alone now logs its
// memories; the snapshot's rows split a stream at CHUNK_BYTES and join back byte for byte; the
// log is cleared only as far as both snapshots cover.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { freshDbName } from '../testing/db';
import { memoryRow } from '../testing/memory-row';
import { MnemographDb, openDb } from './db';
import { chunkKeys, engineOfRows, engineRows, type EngineHeadRow } from './engine-snapshot';
import { deleteFeatureSpaces, featureTables } from './feature-blocks';
import { coveredSeq } from './lexical-snapshot';
import { insertMemories, replaceVectorsIfUnchanged } from './repo';
import { DB_VERSION, type MemoryRow, type VectorRow } from './schema';
import type { EngineSnapshot } from '../core/engine-snapshot';
import { joinParts } from '../core/snapshot-pack';

const row = (id: string): MemoryRow => memoryRow(id);
const vec = (memoryId: string, space: 'E1' | 'E6', model: string, fill: number): VectorRow => ({
  memoryId,
  space,
  dim: 8,
  dtype: 'space',
  model,
  data: new Uint8Array(8).fill(fill).buffer,
});
const logged = async (db: MnemographDb, after: number) => (await db.lexicalLog.where(':id').above(after).toArray()).map((r) => r.id);

describe('schema v12: the engine snapshot', () => {
  it('upgrades a v11 database keeping every row, the keyword snapshot and its log, with no engine snapshot', async () => {
    const name = freshDbName();
    const v11 = new MnemographDb(name, { upTo: 11 });
    await v11.open();
    expect(v11.tables.map((t) => t.name)).not.toContain('engineSnapshot');
    await insertMemories(v11, [row('m1'), row('m2')], [vec('m1', 'E1', 'enc/v1', 3)]);
    await v11.lexicalSnapshot.put({ key: 'head', format: 1, analyzer: 7, checksum: 9, seq: 1, dbVersion: 11, size: 2, writtenAt: 5 });
    const log = await v11.lexicalLog.toArray();
    const heads = await v11.featureHeads.toArray();
    v11.close();

    const db = await openDb(name);
    expect(DB_VERSION).toBeGreaterThanOrEqual(12);
    expect(db.backendDB().version).toBe(DB_VERSION * 10);
    expect((await db.memories.toArray()).map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(await db.featureHeads.toArray()).toEqual(heads);
    expect(await db.lexicalSnapshot.get('head')).toMatchObject({ seq: 1, dbVersion: 11 }); // refused by its schema at the next start
    expect(await db.lexicalLog.toArray()).toEqual(log);
    expect(await db.engineSnapshot.count()).toBe(0); // derived data: the engine writes it once warm
    db.close();
  });

  it('logs the memories of a write of features alone (the backfill, a flip), inside its transaction', async () => {
    const db = await openDb(freshDbName());
    await insertMemories(db, [row('a'), row('b'), row('c')], [vec('a', 'E1', 'enc/v1', 1)]);
    const mark = (await db.lexicalLog.orderBy(':id').last())!.seq!;
    await replaceVectorsIfUnchanged(db, [{ memoryId: 'b', rows: [vec('b', 'E1', 'enc/v1', 2)], expectedText: 'memory b' }]);
    expect([...new Set(await logged(db, mark))]).toEqual(['b']); // its delete and its put (a start reads each id once)
    const mark2 = (await db.lexicalLog.orderBy(':id').last())!.seq!;
    await db.transaction('rw', [...featureTables(db)], () => deleteFeatureSpaces(db, ['a'], ['E1']));
    expect(await logged(db, mark2)).toEqual(['a']);
    // a failed write logs nothing
    const mark3 = (await db.lexicalLog.orderBy(':id').last())!.seq!;
    await expect(
      db.transaction('rw', [...featureTables(db)], async () => {
        await deleteFeatureSpaces(db, ['b'], ['E1']);
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await logged(db, mark3)).toEqual([]);
    db.close();
  });

  it('splits each stream into rows of at most the chunk size and joins them back byte for byte; a missing row is refused', () => {
    const bytes = (n: number, k: number) => Uint8Array.from({ length: n }, (_, i) => (i * k) & 255);
    const s: EngineSnapshot = {
      format: 1,
      vectors: { entries: [{ name: 'e1.codes', kind: 'i8', offset: 0, length: 250 }], meta: { 'e1.dim': 8 }, bytes: [bytes(250, 3)] },
      spaces: { entries: [], meta: {}, bytes: [bytes(64, 5)] },
      checksums: { vectors: 1, spaces: 2 },
    };
    const rows = engineRows(s, { seq: 9, dbVersion: 12, producers: { encoder: 'e', lexical: 'l' }, dim: 8, size: 3, now: 1 }, 100);
    const head = rows[0] as EngineHeadRow;
    expect(rows.map((r) => r.key)).toEqual(['head', 'v:00000', 'v:00001', 'v:00002', 's:00000']);
    expect(head.vectors.rows).toBe(3);
    expect(head.cutAtArrays).toBe(true); // the one array is larger than a row: it alone spans rows
    expect(chunkKeys(head)).toEqual(rows.slice(1).map((r) => r.key));
    const back = engineOfRows(head, rows.slice(1))!;
    expect(Array.from(joinParts(back.vectors.bytes))).toEqual(Array.from(s.vectors.bytes[0]));
    expect(back.vectors.bytes.map((p) => p.byteLength)).toEqual([100, 100, 50]);
    expect(Array.from(joinParts(back.spaces.bytes))).toEqual(Array.from(s.spaces.bytes[0]));
    expect(back.vectors.meta).toEqual({ 'e1.dim': 8 });
    expect(engineOfRows(head, [rows[1], undefined, rows[3], rows[4]])).toBeUndefined();
    expect(engineOfRows(head, [rows[1], rows[2], rows[4]])).toBeUndefined();
  });

  it('clears the log only as far as both snapshots cover', () => {
    expect(coveredSeq(40, { seq: 25, dbVersion: 12 }, 12)).toBe(25);
    expect(coveredSeq(40, { seq: 55, dbVersion: 12 }, 12)).toBe(40);
    expect(coveredSeq(40, { seq: 25, dbVersion: 11 }, 12)).toBe(40); // another schema's: rebuilt anyway
    expect(coveredSeq(40, undefined, 12)).toBe(40);
  });
});
