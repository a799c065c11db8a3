// The engine worker's reads and writes of the engine snapshot (schema v12, src/db/engine-snapshot.ts;
// the format src/core/engine-snapshot.ts). Derived data the engine owns, like the keyword
// snapshot (lexical.ts): memories and features are only read.

import type { MnemographDb } from '../../src/db/db';
import { chunkKeys, engineOfRows, engineRows, type EngineHeadRow, type EngineProducers, type EngineSnapshotRow } from '../../src/db/engine-snapshot';
import { coveredSeq, LOG_ALL, type LexicalHeadRow } from '../../src/db/lexical-snapshot';
import { featureRowsOf } from '../../src/db/feature-blocks';
import { DB_VERSION, type MemoryRow } from '../../src/db/schema';
import { ENGINE_FORMAT, type EngineSnapshot } from '../../src/core/engine-snapshot';
import { checksumAdd, checksumEnd, checksumStart } from '../../src/core/snapshot-pack';
import type { SerializedFeatures } from '../../src/core/spaces';
import type { MemoryId, SpaceId } from '../../src/core/types';
import { isEncoderSpace } from '../../src/protocol/embed';

/** The current producers' features of each memory (undefined: it has none). */
export type ChangedFeatures = Map<MemoryId, SerializedFeatures | undefined>;

export interface EngineStart {
  snapshot?: EngineSnapshot;
  head?: EngineHeadRow;
  /** Why it cannot be used (before its arrays are checked); null: it may. */
  problem: string | null;
  /** The memories logged after its seq, with their current features. */
  changed: ChangedFeatures;
  /** The log's last seq when read. */
  lastSeq: number;
  /** The streams' checksums, computed row by row as the rows arrived (the worker idle meanwhile): the adoption compares them with the head's instead of reading every byte again. */
  computed?: { vectors: number; spaces: number };
}

/** The features of `ids` of the current producers (inside the caller's transaction, holding the feature tables). */
async function currentFeatures(db: MnemographDb, ids: readonly MemoryId[], producers: EngineProducers): Promise<ChangedFeatures> {
  const out: ChangedFeatures = new Map(ids.map((id) => [id, undefined]));
  if (ids.length === 0) return out;
  for (const [id, rows] of await featureRowsOf(db, ids)) {
    for (const r of rows) {
      if (r.model !== (isEncoderSpace(r.space) ? producers.encoder : producers.lexical)) continue;
      (out.get(id) ?? out.set(id, {}).get(id)!)[r.space as SpaceId] = r.data;
    }
  }
  return out;
}

/**
 * One read-only transaction: the head, and when it is of this format, schema, producers and
 * dimension and at most `maxChanges` memories were logged since, its data rows and the changed
 * memories' current features. `problem` says why not otherwise (the caller attaches every block).
 */
export async function readEngineStart(db: MnemographDb, want: { producers: EngineProducers; dim: number }, maxChanges: (size: number) => number): Promise<EngineStart> {
  return db.transaction('r', [db.engineSnapshot, db.lexicalLog, db.featureHeads, db.featureData], async () => {
    const head = (await db.engineSnapshot.get('head')) as EngineHeadRow | undefined;
    const last = await db.lexicalLog.orderBy(':id').last();
    const out: EngineStart = { head, problem: null, changed: new Map(), lastSeq: Math.max(last?.seq ?? 0, head?.seq ?? 0) };
    const problem = !head
      ? 'missing'
      : head.format !== ENGINE_FORMAT
        ? `format ${head.format}`
        : head.dbVersion !== DB_VERSION
          ? `written under schema v${head.dbVersion}`
          : head.producers?.encoder !== want.producers.encoder || head.producers?.lexical !== want.producers.lexical
            ? `features of other producers (${head.producers?.encoder} / ${head.producers?.lexical})`
            : head.dim !== want.dim
              ? `vectors of ${head.dim} dimensions`
              : null;
    if (problem || !head) return { ...out, problem };
    const ids = [...new Set((await db.lexicalLog.where(':id').above(head.seq).toArray()).map((r) => r.id))];
    if (ids.includes(LOG_ALL)) return { ...out, problem: 'a range of memories was deleted since' };
    if (ids.length > maxChanges(head.size)) return { ...out, problem: `${ids.length} memories changed since (stale)` };
    // one row per request: each row's ~32 MiB is deserialised in a task of its own, the worker
    // answering queries (and reading the texts) between them (one bulkGet was one task of ~450 MB at
    // 100k); the next row is asked for before this one is in, so the database reads it meanwhile
    const keys = chunkKeys(head);
    const rows: (EngineSnapshotRow | undefined)[] = [];
    const ask = (i: number) => {
      const p = i < keys.length ? db.engineSnapshot.get(keys[i]) : Promise.resolve(undefined);
      p.catch(() => undefined); // a failed read fails the transaction: the await below reports it
      return p;
    };
    // each row's checksum is added while the next one is read (same value as over the whole stream)
    const sums = [checksumStart(), checksumStart()];
    let next = ask(0);
    for (let i = 0; i < keys.length; i++) {
      const row = next;
      next = ask(i + 1);
      const got = await row;
      rows.push(got);
      if (got && 'data' in got && got.data instanceof ArrayBuffer) checksumAdd(sums[i < head.vectors.rows ? 0 : 1], new Uint8Array(got.data));
    }
    const snapshot = engineOfRows(head, rows);
    if (!snapshot) return { ...out, problem: 'a data row is missing or of another size' };
    const computed = { vectors: checksumEnd(sums[0]), spaces: checksumEnd(sums[1]) };
    return { ...out, snapshot, computed, changed: await currentFeatures(db, ids, want.producers) };
  });
}

/** The memories logged after `base`, their rows and current features (one read-only transaction); null after a range delete. */
export async function readFeaturesSince(
  db: MnemographDb,
  base: number,
  producers: EngineProducers,
): Promise<{ seq: number; memories: Map<string, MemoryRow | undefined>; changed: ChangedFeatures } | null> {
  return db.transaction('r', [db.lexicalLog, db.memories, db.featureHeads, db.featureData], async () => {
    const log = await db.lexicalLog.where(':id').above(base).toArray();
    const ids = [...new Set(log.map((r) => r.id))];
    if (ids.includes(LOG_ALL)) return null;
    const rows = await db.memories.bulkGet(ids);
    return { seq: log.length ? log[log.length - 1].seq! : base, memories: new Map(ids.map((id, i) => [id, rows[i]])), changed: await currentFeatures(db, ids, producers) };
  });
}

/** The current features of `ids` (one read-only transaction): writes that reached the engine while it adopted a snapshot. */
export async function readFeaturesOf(db: MnemographDb, ids: readonly MemoryId[], producers: EngineProducers): Promise<ChangedFeatures> {
  return db.transaction('r', [db.featureHeads, db.featureData], () => currentFeatures(db, ids, producers));
}

/**
 * Replaces the stored engine snapshot with `snapshot` covering the log up to `seq`, and deletes
 * the log rows both snapshots cover, in one transaction; does nothing (false) when one covering
 * more is stored already (another tab's).
 */
export async function writeEngine(db: MnemographDb, snapshot: EngineSnapshot, at: { seq: number; producers: EngineProducers; dim: number; size: number }): Promise<boolean> {
  return db.transaction('rw', [db.engineSnapshot, db.lexicalSnapshot, db.lexicalLog], async () => {
    const head = (await db.engineSnapshot.get('head')) as EngineHeadRow | undefined;
    if (head && head.dbVersion === DB_VERSION && head.format === ENGINE_FORMAT && head.seq > at.seq) return false;
    await db.engineSnapshot.clear();
    // one row (one 32 MiB part) per request: the worker answers queries between them (a bulkPut
    // cloned the ~450 MB of a 100k store's snapshot in one go)
    for (const row of engineRows(snapshot, { ...at, dbVersion: DB_VERSION, now: Date.now() })) await db.engineSnapshot.put(row);
    const words = (await db.lexicalSnapshot.get('head')) as LexicalHeadRow | undefined;
    await db.lexicalLog.where(':id').belowOrEqual(coveredSeq(at.seq, words, DB_VERSION)).delete();
    return true;
  });
}

/** Deletes the stored engine snapshot (one this engine cannot write: the log is then not held back for it). */
export async function dropEngine(db: MnemographDb): Promise<void> {
  await db.transaction('rw', [db.engineSnapshot], () => db.engineSnapshot.clear());
}
