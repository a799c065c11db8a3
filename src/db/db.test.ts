import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import { DB_VERSION, SAMPLE_KEY_PREFIX } from './schema';
import { textKey } from '../core/text-key';
import { freshDbName } from '../testing/db';
import { memoryRowBeforeV6 } from '../testing/memory-row';
import { MnemographDb, openDb } from './db';
import { insertMemory, liveMemoryCountQuery, loadLiveFeatures, tombstoneMemory } from './repo';
import { packSpace } from './vectors';
import { storedImportKeys } from './transfer';
import { deserializeSpace, serializeSpace } from '../core/spaces';
import type { VectorRow } from './schema';

/** An E1 row as releases before v4 wrote it: the raw floats. */
const legacyE1 = (memoryId: string, floats: number[], model: string): VectorRow => {
  const data = new Float32Array(floats).buffer;
  return { memoryId, space: 'E1', dim: floats.length, dtype: 'float32', model, data };
};
/** The floats of a stored E1 row (v4: serialised like every space). */
const e1Of = (r: VectorRow | undefined): number[] => (r?.dtype === 'space' ? Array.from(deserializeSpace('E1', r.data) as Float32Array) : []);
import { isQuotaError, storageError } from './errors';

const fresh = freshDbName;

/** Opens `name` as the release with schema `v` did (migration tests assert each step's rows). */
async function openAt(name: string, v: number): Promise<MnemographDb> {
  const db = new MnemographDb(name, { upTo: v });
  await db.open();
  return db;
}

const row = memoryRowBeforeV6;

const quota = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');

describe('schema upgrade v1 -> v2', () => {
  it('keeps v1 rows and vectors, fills the new fields and normalises tags', async () => {
    const name = fresh();
    const v1 = new MnemographDb(name, { upTo: 1 });
    await v1.open();
    expect(v1.backendDB().version).toBe(10);
    // a v1 row, as the old release wrote it: no tombstone/suggestedTags/embedTruncated/validity
    await v1.table('memories').bulkAdd([
      { id: 'a', text: 'first', tags: ['Deep Work', 'deep-work', ' x '], importance: 0.9, createdAt: 5, status: 'active', sessionId: 's1' },
      { id: 'b', text: 'second', tags: [], importance: 0.2, createdAt: 7, status: 'archived', sessionId: 's1' },
    ]);
    await v1.table('vectors').add(legacyE1('a', [1, 2, 3], 'm1'));
    await v1.table('settings').put({ key: 'theme', value: 'dark' });
    v1.close();

    const db = await openAt(name, 5); // the release that shipped v5 (v6: below)
    expect(db.backendDB().version).toBe(50); // v1 -> v2 -> v3 -> v4 -> v5
    const a = await db.memories.get('a');
    expect(a).toEqual({
      id: 'a',
      text: 'first',
      tags: ['deep-work', 'x'],
      importance: 0.9,
      createdAt: 5,
      updatedAt: 5,
      validFrom: 5,
      validTo: null,
      deletedAt: null,
      suggestedTags: [],
      embedTruncated: false,
      status: 'active',
      sessionId: 's1',
    });
    expect((await db.memories.get('b'))?.status).toBe('archived');
    expect(e1Of(await db.vectors.get(['a', 'E1']))).toEqual([1, 2, 3]);
    expect((await db.settings.get('theme'))?.value).toBe('dark');
    // the new table and index work
    await db.feedback.add({ id: 'f1', memoryId: 'a', kind: 'reinforce', at: 9 });
    expect(await db.feedback.where('memoryId').equals('a').count()).toBe(1);
    expect(await db.memories.where('updatedAt').equals(7).count()).toBe(1);
    db.close();
  });
});

describe('schema upgrade v3 -> v4', () => {
  it('stores E1 like every other space, keeps the other rows as they are, and marks an unreadable E1 stale', async () => {
    const name = fresh();
    const v3 = new MnemographDb(name, { upTo: 3 });
    await v3.open();
    expect(v3.backendDB().version).toBe(30);
    await v3.memories.bulkAdd([row('m1', { text: 'one' }), row('m2', { text: 'two' })]);
    const e6 = serializeSpace('E6', { indices: new Uint32Array([3]), values: new Float32Array([1]) });
    await v3.vectors.bulkAdd([
      legacyE1('m1', [0.5, -0.25, 2], 'enc/v1'),
      packSpace('m1', 'E6', e6, 'lex'),
      { memoryId: 'm2', space: 'E1', dim: 1, dtype: 'float32', model: 'enc/v1', data: new ArrayBuffer(6) }, // torn: not whole floats
    ]);
    v3.close();

    const db = await openAt(name, 5); // the release that shipped v5 (v6: below)
    expect(db.backendDB().version).toBe(50);
    const m1 = await db.vectors.get(['m1', 'E1']);
    // 4-byte header + 3 floats, the same producer id
    expect({ dtype: m1?.dtype, dim: m1?.dim, model: m1?.model, floats: e1Of(m1) }).toEqual({ dtype: 'space', dim: 16, model: 'enc/v1', floats: [0.5, -0.25, 2] });
    expect(await db.vectors.get(['m1', 'E6'])).toEqual(packSpace('m1', 'E6', e6, 'lex'));
    const m2 = await db.vectors.get(['m2', 'E1']);
    expect(m2?.model).toBe(''); // no producer is current: the backfill recomputes it from the text
    expect((await db.memories.toArray()).map((m) => m.text)).toEqual(['one', 'two']);
    db.close();
  });
});

describe('schema upgrade v4 -> v5', () => {
  it('keeps every v4 row as it was, indexes memories by importKey and adds the links table', async () => {
    const name = fresh();
    const v4 = new MnemographDb(name, { upTo: 4 });
    await v4.open();
    expect(v4.backendDB().version).toBe(40);
    const e6 = serializeSpace('E6', { indices: new Uint32Array([1]), values: new Float32Array([0.5]) });
    await v4.memories.bulkAdd([row('m1', { text: 'one', tags: ['a'] }), row('m2', { text: 'two', deletedAt: 5 })]);
    await v4.vectors.bulkAdd([packSpace('m1', 'E6', e6, 'lex')]);
    await v4.feedback.add({ id: 'f1', memoryId: 'm1', kind: 'reinforce', valence: 40, at: 3 });
    await v4.settings.put({ key: 'recallDefaults', value: { topK: 7 } });
    v4.close();

    const db = await openAt(name, 5); // the release that shipped v5 (v6: below)
    expect(db.backendDB().version).toBe(50);
    expect(await db.memories.toArray()).toEqual([row('m1', { text: 'one', tags: ['a'] }), row('m2', { text: 'two', deletedAt: 5 })]);
    expect(await db.vectors.get(['m1', 'E6'])).toEqual(packSpace('m1', 'E6', e6, 'lex'));
    expect(await db.feedback.toArray()).toEqual([{ id: 'f1', memoryId: 'm1', kind: 'reinforce', valence: 40, at: 3 }]);
    expect(await db.settings.get('recallDefaults')).toEqual({ key: 'recallDefaults', value: { topK: 7 } });
    // a v4 row has no importKey, so the index holds only imported rows
    expect(await db.memories.where('importKey').above('').count()).toBe(0);
    await db.memories.add(row('m3', { importKey: 'k3' }));
    expect(await storedImportKeys(db, ['k3', 'nope'])).toEqual(new Map([['k3', 'm3']]));
    await db.links.bulkPut([
      { fromId: 'm1', toId: 'm3', kind: 'wikilink' },
      { fromId: 'm1', toId: 'm3', kind: 'wikilink' }, // the pair is the key: stored once
    ]);
    expect(await db.links.toArray()).toEqual([{ fromId: 'm1', toId: 'm3', kind: 'wikilink' }]);
    db.close();
  });
});

describe('schema upgrade v7 -> v8', () => {
  it('keeps every v7 row, adds the empty entity tables and marks the entity backfill pending', async () => {
    const name = fresh();
    const v7 = new MnemographDb(name, { upTo: 7 }); // v8 comes after keepcore's v6 and the models' v7
    await v7.open();
    expect(v7.backendDB().version).toBe(70);
    await v7.memories.bulkAdd([row('m1', { text: 'Met Caroline in Paris' }), row('m2', { importKey: 'k2' })]);
    await v7.links.put({ fromId: 'm1', toId: 'm2', kind: 'wikilink' });
    await v7.pendingVectors.put({ ...packSpace('m1', 'E1', serializeSpace('E1', new Float32Array([1, 0])), 'next/v1'), inputKey: 'k' });
    v7.close();

    const db = await openAt(name, 8);
    expect(db.backendDB().version).toBe(80); // v7 -> v8
    expect(await db.memories.toArray()).toEqual([row('m1', { text: 'Met Caroline in Paris' }), row('m2', { importKey: 'k2' })]);
    expect(await db.links.toArray()).toEqual([{ fromId: 'm1', toId: 'm2', kind: 'wikilink' }]);
    expect(await db.pendingVectors.count()).toBe(1); // v7's table and rows kept
    expect(await db.entities.count()).toBe(0);
    expect(await db.entityMentions.count()).toBe(0);
    expect(await db.deepSearchLog.count()).toBe(0);
    expect(await db.settings.get('entityBackfill')).toEqual({ key: 'entityBackfill', value: 'pending' });
    db.close();
  });

  it('v8 keeps a deep-search log: rows numbered in order, found by session and status', async () => {
    const db = await openDb(fresh());
    const entry = (at: number, status: string) => ({
      at, sessionId: 's1', query: 'q', status, mode: 'shadow' as const, confidence: 0.2, threshold: 0.3, primaryIds: ['m1'],
      pool: [{ id: 'm2', primaryRank: null, via: [{ strategy: 'temporal', seed: 'm1', detail: '1 turn after' }] }],
      scores: [{ id: 'm2', score: 0.6, reasons: ['shares the words q'] }], timings: { expandMs: 1, readMs: 2, totalMs: 3 },
    });
    await db.deepSearchLog.add(entry(10, 'shadow'));
    await db.deepSearchLog.add(entry(20, 'timeout'));
    expect((await db.deepSearchLog.toArray()).map((r) => [r.seq, r.at, r.status])).toEqual([[1, 10, 'shadow'], [2, 20, 'timeout']]);
    expect(await db.deepSearchLog.where('status').equals('timeout').count()).toBe(1);
    expect((await db.deepSearchLog.get(1))?.pool[0].via[0].detail).toBe('1 turn after');
    db.close();
  });

  it('an empty v7 database has nothing to backfill', async () => {
    const name = fresh();
    const v7 = new MnemographDb(name, { upTo: 7 }); // v8 comes after keepcore's v6 and the models' v7
    await v7.open();
    v7.close();
    const db = await openDb(name);
    expect(await db.settings.get('entityBackfill')).toBeUndefined();
    db.close();
  });
});

describe('schema upgrade v2 -> v3', () => {
  it('keeps memories, vectors and settings; rescales reinforce valence to -100..100; indexes vectors by space', async () => {
    const name = fresh();
    const v2 = new MnemographDb(name, { upTo: 2 });
    await v2.open();
    expect(v2.backendDB().version).toBe(20);
    await v2.memories.add(row('m1', { text: 'kept as it was', tags: ['a'] }));
    await v2.vectors.add(legacyE1('m1', [0.6, 0.8], 'enc'));
    await v2.feedback.bulkAdd([
      { id: 'f1', memoryId: 'm1', kind: 'reinforce', valence: 0.5, at: 1 },
      { id: 'f2', memoryId: 'm1', kind: 'reinforce', valence: -1, at: 2 },
      { id: 'f3', memoryId: 'm1', kind: 'suppress', valence: -0.3, reason: 'noise', at: 3 },
      { id: 'f4', memoryId: 'm1', kind: 'reinforce', at: 4 },
    ]);
    await v2.settings.put({ key: 'k', value: 1 });
    v2.close();

    const db = await openAt(name, 5); // the release that shipped v5 (v6: below)
    expect(db.backendDB().version).toBe(50);
    expect(await db.memories.get('m1')).toEqual(row('m1', { text: 'kept as it was', tags: ['a'] }));
    expect(e1Of(await db.vectors.get(['m1', 'E1']))).toEqual([0.6000000238418579, 0.800000011920929]);
    expect(await db.feedback.orderBy('at').toArray()).toEqual([
      { id: 'f1', memoryId: 'm1', kind: 'reinforce', valence: 50, at: 1 },
      { id: 'f2', memoryId: 'm1', kind: 'reinforce', valence: -100, at: 2 },
      { id: 'f3', memoryId: 'm1', kind: 'suppress', reason: 'noise', at: 3 },
      { id: 'f4', memoryId: 'm1', kind: 'reinforce', at: 4 },
    ]);
    expect((await db.settings.get('k'))?.value).toBe(1);
    // the new index: rows of one space
    await db.vectors.add(packSpace('m1', 'E6', new ArrayBuffer(8), 'lex'));
    expect((await db.vectors.where('space').equals('E6').toArray()).map((r) => [r.memoryId, r.dtype, r.dim])).toEqual([['m1', 'space', 8]]);
    db.close();
  });
});

describe('atomic writes and quota', () => {
  it('a quota failure mid-write leaves neither the memory nor its vector', async () => {
    const db = await openDb(fresh());
    const unhook = db.featureData.hook('creating', () => {
      throw quota();
    });
    const err = await insertMemory(db, row('m1'), [packSpace('m1', 'E1', serializeSpace('E1', new Float32Array([1, 0])), 'm')]).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('QUOTA_EXCEEDED');
    expect(await db.memories.get('m1')).toBeUndefined();
    expect(await db.featureHeads.count()).toBe(0);
    expect(await db.featureData.count()).toBe(0);
    db.featureData.hook('creating').unsubscribe(unhook as never);
    db.close();
  });

  it('recognises a quota error wrapped in Dexie errors', () => {
    const wrapped = new Dexie.AbortError('Transaction aborted', quota());
    expect(isQuotaError(wrapped)).toBe(true);
    expect(isQuotaError({ name: 'BulkError', failures: [new Error('x'), quota()] })).toBe(true);
    expect(isQuotaError(new Dexie.AbortError('other'))).toBe(false);
    expect(storageError(wrapped).code).toBe('QUOTA_EXCEEDED');
    expect(storageError(new Dexie.ConstraintError('dup')).code).toBe('DB_UNAVAILABLE');
  });
});

describe('other tabs and versions', () => {
  it('another tab upgrading closes this db and reports SCHEMA_OUTDATED', async () => {
    const name = fresh();
    const db = await openDb(name);
    const states: string[] = [];
    db.status.subscribe((s) => states.push(s.state));
    const newer = new Dexie(name);
    newer.version(2).stores({ memories: 'id' });
    newer.version(3).stores({ memories: 'id, createdAt', extra: 'id' });
    await newer.open(); // would be blocked forever if we did not close on versionchange
    expect(states).toEqual(['outdated']);
    expect(db.status.get().error?.code).toBe('SCHEMA_OUTDATED');
    expect(db.isOpen()).toBe(false);
    // work attempted afterwards says why
    const err = await insertMemory(db, row('x'), []).catch((e) => e);
    expect((err as AppError).code).toBe('SCHEMA_OUTDATED');
    newer.close();
  });

  it('opening a database newer than the code rejects with SCHEMA_OUTDATED', async () => {
    const name = fresh();
    const newer = new Dexie(name);
    newer.version(DB_VERSION + 2).stores({ memories: 'id' });
    await newer.open();
    newer.close();
    const err = await openDb(name).catch((e) => e);
    expect((err as AppError).code).toBe('SCHEMA_OUTDATED');
    const again = new Dexie(name);
    await again.open(); // dynamic mode: whatever is there
    expect(again.backendDB().version).toBe((DB_VERSION + 2) * 10); // the newer schema was not touched
    expect(again.tables.map((t) => t.name)).toEqual(['memories']);
    again.close();
  });

  it('probing a missing database does not create it', async () => {
    const name = fresh();
    const { installedVersion } = await import('./db');
    expect(await installedVersion(name)).toBe(0);
    expect(await Dexie.exists(name)).toBe(false);
    const db = await openDb(name);
    expect(await installedVersion(name)).toBe(DB_VERSION);
    db.close();
  });

  it('reports DB_BLOCKED while an old connection ignores the upgrade request', async () => {
    const name = fresh();
    // an old tab that does not close on versionchange (raw IndexedDB, version 1 = Dexie v0.1)
    const old = await new Promise<IDBDatabase>((res, rej) => {
      const r = indexedDB.open(name, 1);
      r.onsuccess = () => res(r.result);
      r.onerror = () => rej(r.error);
    });
    const db = new MnemographDb(name);
    const blocked = new Promise<string>((res) => db.status.subscribe((s) => res(s.state)));
    const opening = db.open();
    expect(await blocked).toBe('blocked');
    expect(db.status.get().error?.code).toBe('DB_BLOCKED');
    old.close(); // the old tab goes away: the upgrade proceeds
    await opening;
    db.close();
  });
});

describe('live queries', () => {
  it('counts live rows and loads live memories with their current spaces', async () => {
    const db = await openDb(fresh());
    const e1 = (v: number[]) => serializeSpace('E1', new Float32Array(v));
    await insertMemory(db, row('a'), [packSpace('a', 'E1', e1([0.5, 0.5]), 'm')]);
    await insertMemory(db, row('b'), []);
    await insertMemory(db, row('c'), [packSpace('c', 'E1', e1([1, 0]), 'other-model')]);
    await tombstoneMemory(db, 'b', 2000);
    const count = await new Promise<number>((res) => {
      const sub = liveMemoryCountQuery(db).subscribe((v) => {
        res(v);
        sub.unsubscribe();
      });
    });
    expect(count).toBe(2);
    const loaded = await loadLiveFeatures(db, (r) => r.model === 'm');
    expect(loaded.map((l) => l.memory.id).sort()).toEqual(['a', 'c']);
    expect(Array.from(deserializeSpace('E1', loaded.find((l) => l.memory.id === 'a')!.spaces.E1!) as Float32Array)).toEqual([0.5, 0.5]);
    expect(loaded.find((l) => l.memory.id === 'c')!.spaces).toEqual({}); // another model's vector is not mixed in
    db.close();
  });
});

describe('schema upgrade to v6 (versions, trash, decay, the full list)', () => {
  /** A memory row as release `v` wrote it (v1 lacked most fields; the v2 upgrade filled them). */
  const oldRow = (v: number, id: string, over: Record<string, unknown> = {}) =>
    v === 1
      ? { id, text: `  memory\n ${id} `, tags: ['A b'], importance: 0.4, createdAt: 100, status: 'active', sessionId: 's1', ...over }
      : { ...row(id, { text: `  memory\n ${id} `, tags: ['a-b'], importance: 0.4, createdAt: 100, updatedAt: 150, validFrom: 100 }), ...over };

  for (const v of [1, 2, 3, 4, 5]) {
    it(`keeps every memory of a v${v} database and fills the v6 fields`, async () => {
      const name = fresh();
      const old = await openAt(name, v);
      await old.table('memories').bulkAdd([
        oldRow(v, 'm1'),
        oldRow(v, 'm2', { status: 'quarantined' }),
        oldRow(v, 'm3', v === 1 ? {} : { deletedAt: 900 }),
        oldRow(v, 'm4', { sessionId: 's-2026-05-02-a' }), // the sample collection's session ids
      ]);
      if (v >= 2) await old.table('feedback').bulkAdd([
        { id: 'f1', memoryId: 'm1', kind: 'reinforce', valence: v === 2 ? 0.5 : 50, at: 500 },
        { id: 'f2', memoryId: 'm1', kind: 'suppress', at: 400 },
      ]);
      old.close();

      const db = await openDb(name);
      expect(db.backendDB().version).toBe(DB_VERSION * 10); // through v6 to the newest
      const rows = await db.memories.orderBy('id').toArray();
      expect(rows.map((r) => r.id)).toEqual(['m1', 'm2', 'm3', 'm4']); // every memory kept
      const m1 = rows[0];
      expect(m1.text).toBe(`  memory\n m1 `); // the text is never rewritten
      expect(m1.tags).toEqual(['a-b']);
      expect(m1.recordedAt).toBe(v === 1 ? 100 : 150); // its updatedAt (v1: createdAt, filled by v2)
      expect(m1.lastAccessedAt).toBe(v >= 2 ? 500 : 100); // newest feedback, else createdAt
      expect(rows[1].lastAccessedAt).toBe(100);
      expect(rows.every((r) => r.strength === 1)).toBe(true);
      expect(m1.textKey).toBe(textKey('memory m1'));
      expect(m1.supersededBy).toBeUndefined();
      expect(rows[1].status).toBe('quarantined');
      if (v > 1) expect(rows[2].deletedAt).toBe(900);
      // only the sample's memory got a sample key
      expect(await db.memories.where('importKey').startsWith(SAMPLE_KEY_PREFIX).primaryKeys()).toEqual(['m4']);
      // the new indexes answer
      expect(await db.memories.where('textKey').equals(textKey('memory   m2')).primaryKeys()).toEqual(['m2']);
      expect(await db.memories.where('importance').between(0.3, 0.5).count()).toBe(4);
      expect(await db.memories.where('supersededBy').above('').count()).toBe(0);
      // and through v8: the memories stored before it wait for their entities
      expect(await db.settings.get('entityBackfill')).toEqual({ key: 'entityBackfill', value: 'pending' });
      db.close();
    });
  }
});
