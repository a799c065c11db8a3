// The keyword index's snapshot through the engine's staged start (schema v11, fake-indexeddb):
// the first start builds it from the memories and saves it; the next answers from it before
// reading a memory row, with every write since applied; a stale, damaged, missing or foreign
// snapshot is rebuilt from the memories, and the answers are always those of an engine filled
// from the memories themselves.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openDb, type MnemographDb } from '../src/db/db';
import { LOG_ALL, type LexicalHeadRow } from '../src/db/lexical-snapshot';
import { insertMemories, modifyMemory, tombstoneMemory, restoreMemoryRow } from '../src/db/repo';
import { purgeMemories, trashMemories, writeVersion } from '../src/db/keep';
import type { MemoryRow } from '../src/db/schema';
import { toIndexDoc, type EngineLoadProgress } from '../src/protocol/engine';
import { freshDbName } from '../src/testing/db';
import { EngineCore } from './engine-core';
import { createEngineApi } from './engine-api';
import { maxChangesAtStart } from './engine-lexical';

const head = async (db: MnemographDb) => (await db.lexicalSnapshot.get('head')) as LexicalHeadRow;
const SRC = (dbName: string) => ({ dbName, producers: { encoder: 'enc/v1', lexical: 'lex/v1' } });
const WORDS = 'apple orchard river stone garden music piano violin tea coffee mountain walk dog cat bird train ticket meeting project budget'.split(' ');

function memory(i: number): MemoryRow {
  const w = (k: number) => WORDS[(i * 7 + k * 3 + (i % 5) * k) % WORDS.length];
  const text = `${w(0)} ${w(1)} ${w(2)} note ${i}${i % 4 === 0 ? ` ${w(3)} ${w(4)}` : ''}`;
  return {
    id: `m${String(i).padStart(5, '0')}`, text, tags: i % 6 === 0 ? ['kept'] : [], suggestedTags: [], importance: 0.5,
    createdAt: 1000 + i, updatedAt: 1000 + i, validFrom: 1000 + i, validTo: null, sessionId: `s${i % 9}`,
    status: i % 10 === 0 ? 'archived' : 'active', deletedAt: null, embedTruncated: false,
  };
}

async function seeded(n: number): Promise<{ db: MnemographDb; name: string; ms: MemoryRow[] }> {
  const name = freshDbName();
  const db = await openDb(name);
  const ms = Array.from({ length: n }, (_, i) => memory(i));
  await insertMemories(db, ms, []);
  return { db, name, ms };
}

async function start(name: string) {
  const core = new EngineCore();
  const api = createEngineApi(core);
  const seen: EngineLoadProgress[] = [];
  await api.loadFromStore(SRC(name), { dim: 3 }, (p) => void seen.push(p));
  /** The stages told before the load call returned (the first answers). */
  const before = seen.map((p) => p.stage);
  return { core, api, seen, before };
}

const QUERIES = ['apple', 'orchard river', 'kept', 'violin tea coffee', 'note 7', 'budget meeting project', 'edited harbour', 'nothing-here'];
type Api = Awaited<ReturnType<typeof start>>['api'];
async function answers(api: Api) {
  const out: unknown[] = [];
  for (const q of QUERIES) {
    for (const opts of [{ topK: 15 }, { topK: 40, includeArchived: true }]) {
      out.push((await api.search({ text: q, vector: null }, opts)).map((h) => [h.id, h.score, h.why.matchedTerms]));
    }
  }
  return out;
}

/** What an engine filled from the memories alone answers (the truth). */
async function truth(db: MnemographDb) {
  const core = new EngineCore();
  core.load((await db.memories.toArray()).filter((m) => m.deletedAt === null).map((m) => toIndexDoc(m)), { dim: 3 });
  return answers(createEngineApi(core));
}

async function snapshotSaved(name: string): Promise<{ api: Api; head: LexicalHeadRow }> {
  const first = await start(name);
  await first.api.whenWarm();
  await first.api.whenSaved();
  const db = await openDb(name);
  const head = (await db.lexicalSnapshot.get('head')) as LexicalHeadRow;
  db.close();
  return { api: first.api, head };
}

describe('the keyword snapshot at start-up', () => {
  it('holds the texts pass back until the first query has been answered (it does not queue behind it)', async () => {
    const { db, name } = await seeded(120);
    await snapshotSaved(name);
    const next = await start(name);
    expect(next.before).toEqual(['keyword']);
    // no page of memories is read before a query comes (or a second passes)
    await new Promise((r) => setTimeout(r, 100));
    expect(next.seen.map((p) => p.stage)).toEqual(['keyword']);
    expect((await next.api.search({ text: 'apple', vector: null }, { topK: 5 })).length).toBeGreaterThan(0);
    expect(next.seen.map((p) => p.stage)).toEqual(['keyword']); // answered first
    await next.api.whenWarm(); // then the texts pass and the features
    expect(next.seen.map((p) => p.stage)).toContain('memories');
    expect(next.seen.at(-1)?.stage).toBe('warm');
    db.close();
  });

  it('is built by the first start, then answers the next start before any memory row is read', async () => {
    const { db, name } = await seeded(300);
    const first = await start(name);
    expect(first.before).toEqual(['memories', 'keyword']); // no snapshot yet: every memory tokenised
    await first.api.whenWarm();
    await first.api.whenSaved();
    const head = (await db.lexicalSnapshot.get('head')) as LexicalHeadRow;
    expect(head).toMatchObject({ size: 300 });
    expect(head.seq).toBeGreaterThan(0);
    expect(await db.lexicalLog.count()).toBe(0); // the rows it covers are gone

    const next = await start(name);
    expect(next.before).toEqual(['keyword']); // from the snapshot: no page of memories first
    const want = await truth(db);
    expect(await answers(next.api)).toEqual(want); // before the texts are read
    await next.api.whenWarm();
    expect(await answers(next.api)).toEqual(want);
    expect((await next.api.stats()).size).toBe(300);
    db.close();
  });

  it('applies every write made after the snapshot: add, edit, new version, trash, restore, purge, status', async () => {
    const { db, name, ms } = await seeded(200);
    const { head } = await snapshotSaved(name);
    await insertMemories(db, [{ ...memory(500), id: 'new-1', text: 'edited harbour ferry apple' }], []);
    await modifyMemory(db, ms[3].id, (r) => ({ ...r, text: 'edited harbour text', tags: ['kept'] }));
    await writeVersion(db, ms[4].id, 'v-4', 5000, (r) => ({ ...r, text: 'edited harbour again' }), null, () => 5000);
    await writeVersion(db, ms[11].id, 'v-11', 5000, (r) => ({ ...r, text: 'edited harbour, then trashed' }), null, () => 5000);
    await trashMemories(db, [ms[11].id], 5000); // trashed with its earlier version: neither is indexed
    await tombstoneMemory(db, ms[5].id, 5000);
    await trashMemories(db, [ms[6].id, ms[7].id], 5000);
    await restoreMemoryRow(db, ms[5].id, 5001);
    await purgeMemories(db, { ids: [ms[7].id] });
    await modifyMemory(db, ms[8].id, (r) => ({ ...r, status: 'quarantined' }));
    expect(await db.lexicalLog.where(':id').above(head.seq).count()).toBeGreaterThanOrEqual(8);

    const next = await start(name);
    expect(next.before).toEqual(['keyword']);
    const want = await truth(db);
    const got = await answers(next.api);
    expect(got).toEqual(want);
    expect(JSON.stringify(got)).toContain('new-1'); // the new memory is found
    expect(JSON.stringify(got)).not.toContain(ms[6].id); // the trashed one is not
    const live = (await db.memories.toArray()).filter((m) => m.deletedAt === null).length;
    expect((await next.api.stats()).size).toBe(live); // nothing trashed is held, not even hidden
    await next.api.whenWarm();
    expect(await answers(next.api)).toEqual(want);
    db.close();
  });

  it('writes made while the engine runs reach the next snapshot (saved after the writes)', async () => {
    const { db, name, ms } = await seeded(100);
    const { api } = await snapshotSaved(name);
    const added = Array.from({ length: 600 }, (_, i) => ({ ...memory(1000 + i), id: `late-${i}` }));
    await insertMemories(db, added, []);
    await trashMemories(db, [ms[1].id], 7000);
    // the page tells the engine (sync.index); the engine saves once enough changed
    await api.upsertMany(added.map((m) => toIndexDoc(m)));
    await api.remove(ms[1].id);
    // a write whose message never reached this engine (another tab's, say): the log still names it
    await insertMemories(db, [{ ...memory(3000), id: 'lost-1', text: 'edited harbour lost message' }], []);
    await api.saveWords();
    const head = (await db.lexicalSnapshot.get('head')) as LexicalHeadRow;
    expect(head.size).toBe(700);
    // the log is kept for the engine snapshot (schema v12), which covers less, until it is rewritten too
    expect(await db.lexicalLog.count()).toBe(602);
    await api.saveEngine();
    expect(await db.lexicalLog.count()).toBe(0);
    const next = await start(name);
    expect(next.before).toEqual(['keyword']);
    const got = await answers(next.api);
    expect(got).toEqual(await truth(db));
    expect(JSON.stringify(got)).toContain('lost-1');
    db.close();
  });

  it('a write the log never saw (made behind Dexie) is repaired once the texts are read, and saved', async () => {
    const { db, name, ms } = await seeded(120);
    await snapshotSaved(name);
    await insertMemories(db, [{ ...memory(4000), id: 'ghost-1', text: 'edited harbour ghost' }], []);
    await modifyMemory(db, ms[9].id, (r) => ({ ...r, text: 'edited harbour behind the back' }));
    await db.lexicalLog.clear(); // as if those writes had bypassed the log
    const next = await start(name);
    expect(next.before).toEqual(['keyword']); // the snapshot looks current
    await next.api.whenWarm(); // the texts pass sees the new row and the changed text
    const want = await truth(db);
    expect(await answers(next.api)).toEqual(want);
    await next.api.whenSaved(); // repaired: a new snapshot is written
    const again = await start(name);
    expect(again.before).toEqual(['keyword']);
    expect(await answers(again.api)).toEqual(want);
    db.close();
  });

  it.each([
    ['missing', async (db: MnemographDb) => void (await db.lexicalSnapshot.clear())],
    ['damaged', async (db: MnemographDb) => {
      const words = (await db.lexicalSnapshot.get('words')) as { key: 'words'; bm25: { tfs: Uint32Array } };
      words.bm25.tfs[0] += 1;
      await db.lexicalSnapshot.put(words as never);
    }],
    ['written by another format', async (db: MnemographDb) => void (await db.lexicalSnapshot.put({ ...(await head(db)), format: 99 }))],
    ['written under another schema version', async (db: MnemographDb) => void (await db.lexicalSnapshot.put({ ...(await head(db)), dbVersion: 10 }))],
    ['stale after a range delete', async (db: MnemographDb) => void (await db.lexicalLog.add({ id: LOG_ALL }))],
    ['stale beyond repair (too many writes since)', async (db: MnemographDb) => {
      const many = Array.from({ length: maxChangesAtStart(100) + 1 }, (_, i) => ({ ...memory(2000 + i), id: `bulk-${i}` }));
      await insertMemories(db, many, []);
    }],
  ])('a snapshot %s is rebuilt from the memories, with the right answers', async (_what, spoil) => {
    const { db, name } = await seeded(100);
    await snapshotSaved(name);
    await spoil(db);
    const next = await start(name);
    expect(next.before[0]).toBe('memories'); // rebuilt: every memory read and tokenised (page by page)
    expect(next.before.at(-1)).toBe('keyword');
    const want = await truth(db);
    expect(await answers(next.api)).toEqual(want);
    await next.api.whenWarm();
    await next.api.whenSaved();
    // a good snapshot replaces it, and the start after that uses it
    const again = await start(name);
    expect(again.before).toEqual(['keyword']);
    expect(await answers(again.api)).toEqual(want);
    db.close();
  });
});
