// The engine snapshot through the engine's staged start (schema v12, fake-indexeddb): the first
// start attaches every block and saves it once warm; the next adopts it (no feature block read
// for the memories it holds) with every write since re-attached; a damaged, foreign (another
// encoder, dimension, format or schema) or stale snapshot is refused and every block attached.
// The answers are always those of an engine loaded from the memories and their features.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { serializeSpace, SPACE_IDS, type SerializedFeatures, type SpaceFeatures, type SpaceVector } from '../src/core/spaces';
import type { SpaceId } from '../src/core/types';
import { openDb, type MnemographDb } from '../src/db/db';
import { chunkKeys, type EngineHeadRow } from '../src/db/engine-snapshot';
import { streamChecksum } from '../src/core/snapshot-pack';
import { purgeMemories, trashMemories } from '../src/db/keep';
import { insertMemories, modifyMemory, replaceVectorsIfUnchanged } from '../src/db/repo';
import { DB_VERSION, type MemoryRow, type VectorRow } from '../src/db/schema';
import { packSpace } from '../src/db/vectors';
import { isEncoderSpace } from '../src/protocol/embed';
import { toIndexDoc, type EngineLoadProgress } from '../src/protocol/engine';
import { freshDbName } from '../src/testing/db';
import { seededFeatures } from '../src/testing/features';
import { EngineCore } from './engine-core';
import { createEngineApi } from './engine-api';

const ENC = 'enc/v1';
const LEX = 'lex/v1';
const DIM = 8;
const WORDS = 'apple orchard river stone garden music piano violin tea coffee mountain walk'.split(' ');
const SRC = (dbName: string, encoder = ENC) => ({ dbName, producers: { encoder, lexical: LEX } });

function memory(i: number): MemoryRow {
  const w = (k: number) => WORDS[(i * 5 + k * 3) % WORDS.length];
  return {
    id: `m${String(i).padStart(5, '0')}`, text: `${w(0)} ${w(1)} note ${i}`, tags: [], suggestedTags: [], importance: 0.5,
    createdAt: 1000 + i, updatedAt: 1000 + i, validFrom: 1000 + i, validTo: null, sessionId: `s${i % 4}`,
    status: 'active', deletedAt: null, embedTruncated: false,
  };
}
const serialized = (f: SpaceFeatures): SerializedFeatures =>
  Object.fromEntries(Object.entries(f).map(([s, v]) => [s, serializeSpace(s as SpaceId, v as SpaceVector)]));
const rowsOf = (id: string, f: SpaceFeatures): VectorRow[] =>
  Object.entries(serialized(f)).map(([s, data]) => packSpace(id, s as SpaceId, data!, isEncoderSpace(s as SpaceId) ? ENC : LEX));

async function seeded(n: number) {
  const name = freshDbName();
  const db = await openDb(name);
  const ms = Array.from({ length: n }, (_, i) => memory(i));
  // memory 4 has no features at all, memory 5 only words and E1
  await insertMemories(db, ms, ms.flatMap((m, i) => (i === 4 ? [] : rowsOf(m.id, i === 5 ? { E1: seededFeatures(i, 0, DIM).E1 } : seededFeatures(i, 0, DIM)))));
  return { db, name, ms };
}

async function start(name: string, encoder = ENC) {
  const core = new EngineCore();
  const api = createEngineApi(core);
  const seen: EngineLoadProgress[] = [];
  await api.loadFromStore(SRC(name, encoder), { dim: DIM, encoder }, (p) => void seen.push(p));
  await api.whenWarm();
  /** Feature blocks read: none when the snapshot was adopted. */
  const blocks = seen.filter((p) => p.stage === 'features' && p.done > 0).length;
  return { core, api, blocks };
}

type Api = ReturnType<typeof createEngineApi>;
async function answers(api: Api) {
  const out: unknown[] = [];
  for (const [i, text] of [[1, 'apple orchard'], [7, 'violin'], [12, 'nothing here']] as const) {
    const q = seededFeatures(i, 3, DIM);
    out.push((await api.search({ text, vector: q.E1! }, { topK: 10 })).map((h) => [h.id, h.score]));
    const r = await api.recall({ text, features: serialized(q), now: 5000 }, { topK: 10 });
    out.push(r.results.map((h) => [h.id, h.score, h.mode]));
    // the one-hop expansion reads the entity graph (built from the E11 column on first read)
    const hop = await api.recall({ text, features: serialized(q), now: 5000 }, { topK: 10, expandHops: 1 });
    out.push(hop.results.map((h) => [h.id, h.score, h.mode]));
  }
  return out;
}

/** An engine loaded from the memories and their current features (the truth). */
async function truth(db: MnemographDb) {
  const core = new EngineCore();
  const live = (await db.memories.toArray()).filter((m) => m.deletedAt === null);
  const rows = new Map<string, SerializedFeatures>();
  for (const h of await db.featureHeads.toArray()) {
    const d = (await db.featureData.get(h.key))!;
    const spans = new Uint32Array(d.spans);
    h.ids.forEach((id, k) => ((rows.get(id) ?? rows.set(id, {}).get(id)!)[h.space] = d.data.slice(spans[2 * k], spans[2 * k] + spans[2 * k + 1])));
  }
  core.load(live.map((m) => ({ ...toIndexDoc(m), features: rows.get(m.id) })), { dim: DIM, encoder: ENC });
  return answers(createEngineApi(core));
}

const engineHead = async (db: MnemographDb) => (await db.engineSnapshot.get('head')) as EngineHeadRow | undefined;

async function saved(name: string) {
  const first = await start(name);
  expect(first.blocks).toBeGreaterThan(0);
  await first.api.whenSaved();
  return first;
}

describe('the engine snapshot at start-up', () => {
  it('is written once warm, then adopted by the next start with the same answers and no block read', async () => {
    const { db, name } = await seeded(60);
    const first = await saved(name);
    const head = (await engineHead(db))!;
    expect(head).toMatchObject({ format: 1, dbVersion: DB_VERSION, dim: DIM, producers: { encoder: ENC, lexical: LEX }, size: 59 });
    expect(await db.lexicalLog.count()).toBe(0); // both snapshots cover every write
    const want = await truth(db);
    expect(await answers(first.api)).toEqual(want);
    const next = await start(name);
    expect(next.blocks).toBe(0);
    expect(next.core.stats()).toMatchObject({ spaces: 59, warm: true });
    expect(await answers(next.api)).toEqual(want);
    db.close();
  });

  it('re-attaches every write made since: add, edit with new features, a backfill, trash, purge', async () => {
    const { db, name, ms } = await seeded(60);
    await saved(name);
    const added = [memory(100), memory(101)];
    await insertMemories(db, added, [...rowsOf(added[0].id, seededFeatures(100, 0, DIM)), ...rowsOf(added[1].id, seededFeatures(101, 0, DIM))]);
    await modifyMemory(db, ms[7].id, (r) => ({ ...r, text: 'violin edited' }));
    await replaceVectorsIfUnchanged(db, [{ memoryId: ms[7].id, rows: rowsOf(ms[7].id, seededFeatures(7, 9, DIM)), expectedText: 'violin edited' }]);
    await replaceVectorsIfUnchanged(db, [{ memoryId: ms[4].id, rows: rowsOf(ms[4].id, seededFeatures(4, 1, DIM)), expectedText: ms[4].text }]); // the backfill alone
    await trashMemories(db, [ms[9].id], 7000);
    await purgeMemories(db, { ids: [ms[10].id] });
    const next = await start(name);
    expect(next.blocks).toBe(0);
    expect(await answers(next.api)).toEqual(await truth(db));
    expect(next.core.stats().spaces).toBe(60); // 59 + 2 added + the backfilled one - trashed - purged
    db.close();
  });

  it('a save covers the writes this engine was told of and one it never heard of (another tab), and trims the log', async () => {
    const { db, name } = await seeded(30);
    const first = await saved(name);
    const told = memory(300);
    const f = seededFeatures(300, 0, DIM);
    await insertMemories(db, [told], rowsOf(told.id, f));
    await first.api.upsert({ ...toIndexDoc(told), features: serialized(f) });
    await insertMemories(db, [memory(301)], rowsOf(memory(301).id, seededFeatures(301, 0, DIM))); // never told
    await first.api.saveWords();
    expect(await db.lexicalLog.count()).toBe(2); // held for the engine snapshot, which covers less
    await first.api.saveEngine();
    expect(await db.lexicalLog.count()).toBe(0);
    expect((await engineHead(db))!.size).toBe(31); // 29 with features + both new ones
    const next = await start(name);
    expect(next.blocks).toBe(0);
    expect(await answers(next.api)).toEqual(await truth(db));
    db.close();
  });

  it('refuses a damaged, foreign or stale snapshot and attaches every block, with the right answers', async () => {
    const { db, name } = await seeded(40);
    await saved(name);
    const want = await truth(db);
    const good = (await db.engineSnapshot.toArray()).map((r) => structuredClone(r));
    const restore = () => db.engineSnapshot.bulkPut(good);
    const setHead = async (over: Partial<EngineHeadRow>) => db.engineSnapshot.put({ ...(await engineHead(db))!, ...over });
    const cases: [string, () => Promise<unknown>][] = [
      ['a flipped byte', async () => {
        const row = (await db.engineSnapshot.get('s:00000'))! as { key: string; data: ArrayBuffer };
        new Uint8Array(row.data)[200] ^= 1;
        await db.engineSnapshot.put(row);
      }],
      ['a missing data row', () => db.engineSnapshot.delete('v:00000')],
      ['a data row cut short', async () => {
        const row = (await db.engineSnapshot.get('v:00000'))! as { key: string; data: ArrayBuffer };
        await db.engineSnapshot.put({ key: row.key, data: row.data.slice(0, row.data.byteLength - 8) });
      }],
      ['another format', () => setHead({ format: 99 })],
      ['another schema', () => setHead({ dbVersion: 11 })],
      ['another dimension', () => setHead({ dim: 4 })],
      ['another lexical producer', () => setHead({ producers: { encoder: ENC, lexical: 'lex/v0' } })],
      ['a range delete since', () => db.lexicalLog.add({ id: '*' })],
    ];
    for (const [what, damage] of cases) {
      await restore();
      await damage();
      const s = await start(name);
      expect(s.blocks, what).toBeGreaterThan(0);
      expect(await answers(s.api), what).toEqual(want);
      await db.lexicalLog.clear();
    }
    // another encoder: its vectors are never adopted (the blocks of the new encoder are read: none here)
    await restore();
    const flipped = await start(name, 'enc/v2');
    expect(flipped.blocks).toBeGreaterThan(0);
    expect(flipped.core.hybrid.vectors.size).toBe(0);
    db.close();
  });

  it('adopts a snapshot whose rows are cut anywhere (every 24 bytes: arrays across rows, as the first snapshots cut them)', async () => {
    const { db, name } = await seeded(40);
    await saved(name);
    const head = (await engineHead(db))!;
    const rows = (await db.engineSnapshot.bulkGet(chunkKeys(head))) as { key: string; data: ArrayBuffer }[];
    expect(rows.length).toBe(2); // one part per stream at this size
    const recut = (key: 'v' | 's', data: ArrayBuffer) =>
      Array.from({ length: Math.ceil(data.byteLength / 24) }, (_, i) => ({ key: `${key}:${String(i).padStart(5, '0')}`, data: data.slice(i * 24, i * 24 + 24) }));
    const v = recut('v', rows[0].data);
    const sp = recut('s', rows[1].data);
    await db.engineSnapshot.clear();
    await db.engineSnapshot.bulkPut([{ ...head, vectors: { ...head.vectors, rows: v.length }, spaces: { ...head.spaces, rows: sp.length } }, ...v, ...sp]);
    const next = await start(name);
    expect(next.blocks).toBe(0);
    expect(next.core.stats()).toMatchObject({ spaces: 39, warm: true });
    expect(await answers(next.api)).toEqual(await truth(db));
    // rewritten once warm, one row per stream again (the arrays no longer copied out at a start)
    await next.api.whenSaved();
    expect((await engineHead(db))!).toMatchObject({ vectors: { rows: 1 }, spaces: { rows: 1 }, seq: head.seq });
    db.close();
  });

  it('a memory written while the engine starts keeps its vector and spaces when the snapshot is refused (damaged or not forming a store)', async () => {
    const { db, name } = await seeded(30);
    await saved(name);
    const good = (await db.engineSnapshot.toArray()).map((r) => structuredClone(r));
    const scaleNaN = async () => {
      // the vectors' checksum holds, but a scale is not a number: refused at unpack, after the store was emptied
      const head = (await engineHead(db))!;
      const row = (await db.engineSnapshot.get('v:00000'))! as { key: string; data: ArrayBuffer };
      const at = head.vectors.entries.find((e) => e.name === 'e1.scales')!.offset;
      new Float32Array(row.data, at, 1)[0] = Number.NaN;
      await db.engineSnapshot.put(row);
      await db.engineSnapshot.put({ ...head, checksums: { ...head.checksums, vectors: streamChecksum([new Uint8Array(row.data)]) } });
    };
    const flipped = async () => {
      const row = (await db.engineSnapshot.get('s:00000'))! as { key: string; data: ArrayBuffer };
      new Uint8Array(row.data)[200] ^= 1;
      await db.engineSnapshot.put(row);
    };
    let i = 400;
    for (const [what, damage] of [['a checksum mismatch', flipped], ['a bad scale', scaleNaN]] as const) {
      await db.engineSnapshot.bulkPut(good.map((r) => structuredClone(r)));
      await damage();
      const core = new EngineCore();
      const api = createEngineApi(core);
      const seen: EngineLoadProgress[] = [];
      await api.loadFromStore(SRC(name), { dim: DIM, encoder: ENC }, (p) => void seen.push(p));
      // captured while the app starts: written, then told to the engine, before the snapshot is read
      const m = memory(i++);
      const f = seededFeatures(i, 0, DIM);
      await insertMemories(db, [m], rowsOf(m.id, f));
      await api.upsert({ ...toIndexDoc(m), features: serialized(f) });
      await api.whenWarm();
      expect(seen.filter((p) => p.stage === 'features' && p.done > 0).length, what).toBeGreaterThan(0); // refused: every block read
      expect(core.hybrid.vectorOf(m.id), what).toBeDefined();
      expect(core.built.spaces.has(m.id), what).toBe(true);
      const hits = await api.search({ text: 'zzz', vector: f.E1! }, { topK: 1 });
      expect(hits.map((h) => h.id), what).toEqual([m.id]); // found by its vector alone
      expect(await answers(api), what).toEqual(await truth(db));
    }
    db.close();
  });

  it('a write that reaches the engine while it adopts wins over the snapshot', async () => {
    const { db, name, ms } = await seeded(30);
    await saved(name);
    const core = new EngineCore();
    const api = createEngineApi(core);
    await api.loadFromStore(SRC(name), { dim: DIM, encoder: ENC });
    // an edit written and told to the engine before its snapshot is adopted
    const f = seededFeatures(2, 5, DIM);
    await replaceVectorsIfUnchanged(db, [{ memoryId: ms[2].id, rows: rowsOf(ms[2].id, f), expectedText: ms[2].text }]);
    await api.upsert({ ...toIndexDoc(ms[2]), features: serialized(f) });
    await api.whenWarm();
    expect(Array.from(core.hybrid.vectorOf(ms[2].id)!)).toEqual(Array.from((await truthCore(db)).hybrid.vectorOf(ms[2].id)!));
    expect(await answers(api)).toEqual(await truth(db));
    expect(SPACE_IDS).toContain('E12');
    db.close();
  });
});

async function truthCore(db: MnemographDb): Promise<EngineCore> {
  const core = new EngineCore();
  const f = seededFeatures(2, 5, DIM);
  core.load((await db.memories.toArray()).slice(2, 3).map((m) => ({ ...toIndexDoc(m), features: serialized(f) })), { dim: DIM, encoder: ENC });
  return core;
}
