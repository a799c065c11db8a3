// Schema v11 (the keyword index's snapshot): the upgrade from v10 keeps every row and starts the
// change log; after it, every write to memories logs its ids in its own transaction (nothing is
// logged for a write that fails).
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { freshDbName } from '../testing/db';
import { memoryRow } from '../testing/memory-row';
import { MnemographDb, openDb } from './db';
import { purgeMemories, trashMemories, untrashMemories, writeVersion } from './keep';
import { LOG_ALL } from './lexical-snapshot';
import { insertMemory, modifyMemory } from './repo';
import { DB_VERSION, type MemoryRow } from './schema';

const row = (id: string, over: Partial<MemoryRow> = {}): MemoryRow => memoryRow(id, { tags: ['t'], ...over });

const logged = async (db: MnemographDb, after = 0) => (await db.lexicalLog.where(':id').above(after).toArray()).map((r) => r.id);

describe('schema v11: the keyword snapshot and its log', () => {
  it('upgrades a v10 database keeping every row, with no snapshot and the log marking everything', async () => {
    const name = freshDbName();
    const v10 = new MnemographDb(name, { upTo: 10 });
    await v10.open();
    expect(v10.tables.map((t) => t.name)).not.toContain('lexicalLog');
    const rows = [row('m1'), row('m2', { deletedAt: 3000 }), row('m3', { supersededBy: 'm1', supersededAt: 2000 })];
    await v10.table('memories').bulkAdd(rows);
    await v10.table('settings').put({ key: 'encoder', value: { id: 'enc/v1' } });
    v10.close();

    const db = await openDb(name);
    expect(DB_VERSION).toBeGreaterThanOrEqual(11);
    expect(db.backendDB().version).toBe(DB_VERSION * 10); // v11, then on to the newest (v12 adds the engine snapshot)
    expect(await db.memories.orderBy('id').toArray()).toEqual(rows); // unchanged, byte for byte
    expect(await db.settings.get('encoder')).toEqual({ key: 'encoder', value: { id: 'enc/v1' } });
    expect(await db.lexicalSnapshot.count()).toBe(0); // derived data: the engine's next start builds it
    expect(await db.lexicalLog.toArray()).toEqual([{ seq: 1, id: LOG_ALL }]);
    db.close();
  });

  it('logs every write to memories in its own transaction, and nothing for a write that fails', async () => {
    const db = await openDb(freshDbName());
    await insertMemory(db, row('a'), []);
    await insertMemory(db, row('b'), []);
    expect(await logged(db)).toEqual(['a', 'b']);
    const mark = (await db.lexicalLog.orderBy(':id').last())!.seq!;

    await expect(insertMemory(db, row('a'), [])).rejects.toThrow(); // the id is taken: the transaction aborts
    expect(await logged(db, mark)).toEqual([]);
    // a transaction that wrote a memory and then failed takes its log row with it
    await expect(
      db.transaction('rw', db.memories, async () => {
        await db.memories.put(row('z'));
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await db.memories.get('z')).toBeUndefined();
    expect(await logged(db, mark)).toEqual([]);

    await modifyMemory(db, 'a', (r) => ({ ...r, text: 'edited' }));
    await writeVersion(db, 'b', 'b-v1', 5000, (r) => ({ ...r, text: 'b again' }), null, () => 5000);
    await trashMemories(db, ['a'], 6000);
    await untrashMemories(db, ['a'], 6001);
    await purgeMemories(db, { ids: ['b'] });
    const ids = await logged(db, mark);
    expect(ids.slice(0, 3)).toEqual(['a', 'b-v1', 'b']); // the edit, then both rows of the new version
    expect(ids.filter((id) => id === 'a').length).toBeGreaterThanOrEqual(3); // edit, trash, restore
    expect(ids.slice(-2).sort()).toEqual(['b', 'b-v1']); // the purge takes the earlier version with it
    // Dexie's own update paths (modify, update) are puts with keys: logged too
    const before = (await db.lexicalLog.orderBy(':id').last())!.seq!;
    await db.memories.update('a', { importance: 0.9 });
    await db.memories.where('id').equals('a').modify({ importance: 0.8 });
    expect(await logged(db, before)).toEqual(['a', 'a']);
    // a range delete cannot name its rows: it logs the mark that makes the next start rebuild
    await db.memories.clear();
    expect((await db.lexicalLog.orderBy(':id').last())!.id).toBe(LOG_ALL);
    db.close();
  });
});
