// Features stored in packed blocks (schema v9): per space and producer, up to BLOCK_SIZE memories
// in one pair of rows, a small head (the ids, the producer, the dimension) and the data (one
// buffer, the entries' serialised features one after another). A fresh engine reads a few
// hundred rows instead of one per (memory, space); a write rewrites the blocks it touches, in the
// caller's transaction. Callers see logical `VectorRow`s, one per (memory, space), as before.
//
// Placement: a new entry goes to the last block of its (space, producer) while that has room,
// else to a new one; an edit or a delete takes the entry out of the block it is in (found through
// the heads' multi-entry `ids` index) and an edit appends the new one. Blocks are never merged:
// removals leave them smaller, an emptied block is deleted. A put or delete of features logs its
// memories (`lexicalLog`, schema v12): the engine snapshot holds features; an add needs none (the
// memory is written, so logged, in the same transaction).

import Dexie from 'dexie';
import type { MemoryId, SpaceId } from '../core/types';
import type { MnemographDb } from './db';
import type { FeatureDataRow, FeatureHeadRow, VectorRow } from './schema';
import { logWritten } from './lexical-snapshot';

/** Memories per block. See docs/ARCHITECTURE.md "Storage layout" for the measured choice. */
export const BLOCK_SIZE = 512;
/** Entries start on 8-byte boundaries, so a dense vector (after its 4-byte header) can be viewed as floats in place. */
const ALIGN = 8;

/** The tables a write of features must hold in its transaction. */
export const featureTables = (db: MnemographDb) => [db.featureHeads, db.featureData] as const;

export const blockKey = (space: SpaceId, model: string, n: number): string => `${space}|${model}|${String(n).padStart(8, '0')}`;

/** Floats of a serialised dense feature (its header's kind tag is 1), else 0. */
export function denseDim(data: ArrayBuffer): number {
  if (data.byteLength < 4 || (data.byteLength - 4) % 4 !== 0) return 0;
  return new Uint8Array(data, 0, 4)[1] === 1 ? (data.byteLength - 4) / 4 : 0;
}

/** One block built from its entries (in order): the head and the data rows. */
export function packBlock(space: SpaceId, model: string, n: number, entries: { id: MemoryId; data: ArrayBuffer }[]): { head: FeatureHeadRow; data: FeatureDataRow } {
  const key = blockKey(space, model, n);
  const spans = new Uint32Array(entries.length * 2);
  let size = 0;
  entries.forEach((e, i) => {
    spans[2 * i] = size;
    spans[2 * i + 1] = e.data.byteLength;
    size += Math.ceil(e.data.byteLength / ALIGN) * ALIGN;
  });
  const bytes = new Uint8Array(size);
  entries.forEach((e, i) => bytes.set(new Uint8Array(e.data), spans[2 * i]));
  const dims = new Set(entries.map((e) => denseDim(e.data)));
  const dim = dims.size === 1 ? [...dims][0] : 0;
  return {
    head: { key, space, model, n, dim, ids: entries.map((e) => e.id), bytes: size },
    data: { key, spans: spans.buffer, data: bytes.buffer },
  };
}

/** The entries of a block (copies of their bytes), in order. */
export function unpackBlock(head: FeatureHeadRow, data: FeatureDataRow): { id: MemoryId; data: ArrayBuffer }[] {
  const spans = new Uint32Array(data.spans);
  return head.ids.map((id, i) => ({ id, data: data.data.slice(spans[2 * i], spans[2 * i] + spans[2 * i + 1]) }));
}

export function toVectorRow(head: FeatureHeadRow, e: { id: MemoryId; data: ArrayBuffer }): VectorRow {
  return { memoryId: e.id, space: head.space, dim: e.data.byteLength, dtype: 'space', model: head.model, data: e.data };
}

async function readData(db: MnemographDb, heads: FeatureHeadRow[]): Promise<FeatureDataRow[]> {
  const rows = await db.featureData.bulkGet(heads.map((h) => h.key));
  return rows.map((r, i) => {
    if (!r) throw new Error(`feature block ${heads[i].key} has a head but no data`);
    return r;
  });
}

/** Above this many ids, every head is read and filtered (a flip, a purge of everything): fewer rows than one index hit per id and space. */
const SCAN_ABOVE = 256;

/**
 * Heads of the blocks holding any of `ids` (each once). The multi-entry index answers one hit per
 * (id, block): read as keys only, de-duplicated, then each head once.
 */
async function headsHolding(db: MnemographDb, ids: readonly MemoryId[]): Promise<FeatureHeadRow[]> {
  if (ids.length === 0) return [];
  const wanted = new Set(ids);
  if (wanted.size > SCAN_ABOVE) return (await db.featureHeads.toArray()).filter((h) => h.ids.some((id) => wanted.has(id)));
  const keys = [...new Set((await db.featureHeads.where('ids').anyOf([...wanted]).primaryKeys()) as string[])];
  return (await db.featureHeads.bulkGet(keys)).filter((h): h is FeatureHeadRow => !!h);
}

/**
 * Takes entries out of their blocks: every space of the ids in `all`, and the given spaces of
 * the ids in `some`. Run inside a transaction holding featureTables.
 */
async function removeEntries(db: MnemographDb, all: ReadonlySet<MemoryId>, some: ReadonlyMap<MemoryId, ReadonlySet<SpaceId>> = new Map()): Promise<void> {
  const heads = await headsHolding(db, [...all, ...some.keys()]);
  const gone = (h: FeatureHeadRow, id: MemoryId) => all.has(id) || (some.get(id)?.has(h.space) ?? false);
  const touched = heads.filter((h) => h.ids.some((id) => gone(h, id)));
  if (touched.length === 0) return;
  const datas = await readData(db, touched);
  const putHeads: FeatureHeadRow[] = [];
  const putData: FeatureDataRow[] = [];
  const dropped: string[] = [];
  touched.forEach((h, i) => {
    const kept = unpackBlock(h, datas[i]).filter((e) => !gone(h, e.id));
    if (kept.length === 0) return void dropped.push(h.key);
    const b = packBlock(h.space, h.model, h.n, kept);
    putHeads.push(b.head);
    putData.push(b.data);
  });
  if (dropped.length) await Promise.all([db.featureHeads.bulkDelete(dropped), db.featureData.bulkDelete(dropped)]);
  if (putHeads.length) await Promise.all([db.featureHeads.bulkPut(putHeads), db.featureData.bulkPut(putData)]);
}

/** Appends entries (none of them stored yet) to their (space, producer)'s last block, then new ones. */
async function appendEntries(db: MnemographDb, rows: readonly VectorRow[]): Promise<void> {
  const groups = new Map<string, { space: SpaceId; model: string; entries: { id: MemoryId; data: ArrayBuffer }[] }>();
  for (const r of rows) {
    const k = `${r.space}|${r.model}`;
    const g = groups.get(k) ?? { space: r.space, model: r.model, entries: [] };
    g.entries.push({ id: r.memoryId, data: r.data });
    groups.set(k, g);
  }
  const putHeads: FeatureHeadRow[] = [];
  const putData: FeatureDataRow[] = [];
  for (const { space, model, entries } of groups.values()) {
    // the last block: the highest key of this (space, producer), read without the others' ids
    const keys = (await db.featureHeads.where('[space+model]').equals([space, model]).primaryKeys()) as string[];
    const lastKey = keys.length ? keys.reduce((a, b) => (a > b ? a : b)) : undefined;
    let n = 0;
    let pending = entries;
    if (lastKey !== undefined) {
      const head = await db.featureHeads.get(lastKey);
      if (head) {
        n = head.n;
        const room = BLOCK_SIZE - head.ids.length;
        if (room > 0) {
          const [data] = await readData(db, [head]);
          const b = packBlock(space, model, n, [...unpackBlock(head, data), ...pending.slice(0, room)]);
          putHeads.push(b.head);
          putData.push(b.data);
          pending = pending.slice(room);
        }
      }
    }
    for (let i = 0; i < pending.length; i += BLOCK_SIZE) {
      n += 1;
      const b = packBlock(space, model, n, pending.slice(i, i + BLOCK_SIZE));
      putHeads.push(b.head);
      putData.push(b.data);
    }
  }
  if (putHeads.length) await Promise.all([db.featureHeads.bulkPut(putHeads), db.featureData.bulkPut(putData)]);
}

/**
 * Stores feature rows, each replacing the memory's entry of that space (of any producer): the
 * old `vectors.bulkPut`. Within `rows` the last of a (memory, space) wins. Inside a transaction
 * holding featureTables (and whatever else the caller writes with it).
 */
export async function putFeatureRows(db: MnemographDb, rows: readonly VectorRow[]): Promise<void> {
  if (rows.length === 0) return;
  const last = new Map<string, VectorRow>();
  for (const r of rows) last.set(`${r.memoryId}\u0000${r.space}`, r);
  const unique = [...last.values()];
  const some = new Map<MemoryId, Set<SpaceId>>();
  for (const r of unique) (some.get(r.memoryId) ?? some.set(r.memoryId, new Set()).get(r.memoryId)!).add(r.space);
  await removeEntries(db, new Set(), some);
  await appendEntries(db, unique);
  await logWritten(db, [...some.keys()]);
}

/**
 * Stores the features of memories written in the same transaction for the first time (a save,
 * an import batch): they have no entries yet, so none is looked up to take out. Within `rows` the
 * last of a (memory, space) wins.
 */
export async function addFeatureRows(db: MnemographDb, rows: readonly VectorRow[]): Promise<void> {
  if (rows.length === 0) return;
  const last = new Map<string, VectorRow>();
  for (const r of rows) last.set(`${r.memoryId}\u0000${r.space}`, r);
  await appendEntries(db, [...last.values()]);
}

/** Deletes every feature of the memories (any space, any producer). Inside a transaction holding featureTables. */
export async function deleteFeatures(db: MnemographDb, ids: readonly MemoryId[]): Promise<void> {
  if (ids.length === 0) return;
  await removeEntries(db, new Set(ids));
  await logWritten(db, ids);
}

/** Deletes the given spaces of the memories. Inside a transaction holding featureTables. */
export async function deleteFeatureSpaces(db: MnemographDb, ids: readonly MemoryId[], spaces: readonly SpaceId[]): Promise<void> {
  if (ids.length === 0 || spaces.length === 0) return;
  const set = new Set(spaces);
  await removeEntries(db, new Set(), new Map(ids.map((id) => [id, set])));
  await logWritten(db, ids);
}

/** Every stored feature row of the memories (copies), grouped by memory. */
export async function featureRowsOf(db: MnemographDb, ids: readonly MemoryId[]): Promise<Map<MemoryId, VectorRow[]>> {
  const out = new Map<MemoryId, VectorRow[]>();
  const wanted = new Set(ids);
  const heads = await headsHolding(db, ids);
  const datas = await readData(db, heads);
  heads.forEach((h, i) => {
    const spans = new Uint32Array(datas[i].spans);
    h.ids.forEach((id, j) => {
      if (!wanted.has(id)) return;
      const data = datas[i].data.slice(spans[2 * j], spans[2 * j] + spans[2 * j + 1]);
      const list = out.get(id) ?? out.set(id, []).get(id)!;
      list.push(toVectorRow(h, { id, data }));
    });
  });
  return out;
}

/** Every stored feature row (a backup's export), block by block. */
export async function allFeatureRows(db: MnemographDb): Promise<VectorRow[]> {
  const heads = await db.featureHeads.toArray();
  const out: VectorRow[] = [];
  for (let i = 0; i < heads.length; i += 64) {
    const part = heads.slice(i, i + 64);
    const datas = await readData(db, part);
    part.forEach((h, j) => {
      for (const e of unpackBlock(h, datas[j])) out.push(toVectorRow(h, e));
    });
  }
  return out;
}

/** memoryId -> producer of its entry in `space`, from the heads alone (no feature bytes read). */
export async function producersInSpace(db: MnemographDb, space: SpaceId): Promise<Map<MemoryId, string>> {
  const heads = await db.featureHeads.where('[space+model]').between([space, Dexie.minKey], [space, Dexie.maxKey]).toArray();
  const out = new Map<MemoryId, string>();
  for (const h of heads) for (const id of h.ids) out.set(id, h.model);
  return out;
}
