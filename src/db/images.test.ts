// Schema v10 (pictures on memories): the upgrade from v8 keeps every memory; a picture is written
// with its memory, survives an edit with the earlier version that shows it, and goes with the purge.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { freshDbName, storedVectors } from '../testing/db';
import { memoryRow } from '../testing/memory-row';
import { MnemographDb, openDb } from './db';
import { getImages, imagesOfMemories, upgradeMemoryV8toV10, type ImageRow } from './images';
import { purgeMemories, writeVersion } from './keep';
import { insertMemory } from './repo';
import { DB_VERSION } from './schema';

const row = memoryRow;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const picture = (id: string, memoryId: string): ImageRow => ({
  id,
  memoryId,
  mime: 'image/png',
  size: 12,
  width: 4,
  height: 3,
  data: new Blob([new Uint8Array([...PNG, 1, 2, 3, 4])], { type: 'image/png' }),
  thumb: new Blob([new Uint8Array([...PNG, 9])], { type: 'image/png' }),
  createdAt: 1000,
});

describe('schema v10: pictures', () => {
  it('upgrades a v8 database keeping every memory, and makes media lists plain', async () => {
    const name = freshDbName();
    const v8 = new MnemographDb(name, { upTo: 8 });
    await v8.open();
    expect(v8.tables.map((t) => t.name)).not.toContain('images');
    await v8.table('memories').bulkAdd([
      row('m1'),
      row('m2', { media: [{ caption: 'a cat', alt: 'cat', mime: 'image/jpeg' }] }),
      row('m3', { media: 'not a list' as never }),
      row('m4', { media: [null, { caption: 'kept', size: 12 }] as never, deletedAt: 5000 }),
      row('m5', { supersededBy: 'm1', supersededAt: 2000 }),
    ]);
    await v8.table('vectors').add({ memoryId: 'm1', space: 'E2', dim: 4, dtype: 'space', model: 'lex', data: new ArrayBuffer(4) });
    v8.close();

    const db = await openDb(name);
    expect(DB_VERSION).toBeGreaterThanOrEqual(10);
    expect(db.backendDB().version).toBe(DB_VERSION * 10); // through v10 to the newest (v11: the keyword snapshot)
    const rows = await db.memories.orderBy('id').toArray();
    expect(rows.map((r) => r.id)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']); // every memory kept
    expect(rows.map((r) => r.text)).toEqual(['memory m1', 'memory m2', 'memory m3', 'memory m4', 'memory m5']);
    expect(rows[0].media).toBeUndefined();
    expect(rows[1].media).toEqual([{ caption: 'a cat', alt: 'cat', mime: 'image/jpeg' }]); // already plain: as it was
    expect(rows[2].media).toBeUndefined(); // not a list: removed
    expect(rows[3]).toMatchObject({ media: [{ caption: 'kept' }], deletedAt: 5000 }); // the trash stays the trash
    expect(rows[4].supersededBy).toBe('m1');
    expect(await storedVectors.count(db)).toBe(1); // moved into v9's blocks on the way
    expect(await db.images.count()).toBe(0); // the new table, empty
    expect(await db.settings.get('entityBackfill')).toBeUndefined(); // v8's upgrade did not run again
    db.close();
  });

  it('the row upgrade reports whether it changed anything', () => {
    expect(upgradeMemoryV8toV10({ id: 'a' })).toBe(false);
    expect(upgradeMemoryV8toV10({ id: 'a', media: [{ caption: 'x' }] })).toBe(false);
    const r: Record<string, unknown> = { id: 'a', media: [{ caption: 'x', imageId: 42 }, 7] };
    expect(upgradeMemoryV8toV10(r)).toBe(true);
    expect(r.media).toEqual([{ caption: 'x' }]);
  });

  it('keeps a replaced picture for the earlier version and drops every picture with the purge, in one transaction each', async () => {
    const db = await openDb(freshDbName());
    await insertMemory(db, row('m', { media: [{ caption: 'red door', imageId: 'p1', mime: 'image/png' }] }), [], [picture('p1', 'm')]);
    await insertMemory(db, row('n'), []);
    expect((await getImages(db, ['p1', 'nope'])).map((i) => i.id)).toEqual(['p1']);
    const blob = (await getImages(db, ['p1']))[0].data;
    expect(new Uint8Array(await blob.arrayBuffer()).slice(0, 8)).toEqual(new Uint8Array(PNG)); // the Blob comes back as it went in

    // the edit replaces the picture: the earlier version still shows p1, the memory p2
    const { previous } = await writeVersion(
      db,
      'm',
      'm-v1',
      2000,
      (r) => ({ ...r, media: [{ caption: 'blue door', imageId: 'p2', mime: 'image/png' }] }),
      null,
      (p) => p.validTo,
      [picture('p2', 'ignored: the version writes its memory id')],
    );
    expect(previous.media).toEqual([{ caption: 'red door', imageId: 'p1', mime: 'image/png' }]);
    expect((await imagesOfMemories(db, ['m'])).map((i) => i.id).sort()).toEqual(['p1', 'p2']);

    // purging the earlier version alone drops only the picture no other version shows
    await purgeMemories(db, { ids: ['m-v1'] });
    expect((await db.images.toArray()).map((i) => i.id)).toEqual(['p2']);

    // a failed write leaves no picture behind: the same memory id again is refused, p3 is not kept
    await expect(insertMemory(db, row('m'), [], [picture('p3', 'm')])).rejects.toBeTruthy();
    expect(await db.images.get('p3')).toBeUndefined();

    // the memory's purge takes its pictures with it; another memory is untouched
    await purgeMemories(db, { ids: ['m'] });
    expect(await db.images.count()).toBe(0);
    expect(await db.memories.count()).toBe(1);
    db.close();
  });
});
