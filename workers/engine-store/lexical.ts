// The engine worker's reads and writes of the keyword index's snapshot (schema v11,
// src/db/lexical-snapshot.ts). The snapshot is derived data the engine owns: the one thing this
// folder writes; memories are only read.

import type { MnemographDb } from '../../src/db/db';
import { coveredSeq, LOG_ALL, snapshotOfRows, snapshotRows, type LexicalHeadRow } from '../../src/db/lexical-snapshot';
import type { EngineHeadRow } from '../../src/db/engine-snapshot';
import { DB_VERSION, type MemoryRow } from '../../src/db/schema';
import type { LexicalSnapshot } from '../../src/core/lexical-snapshot';

/** What a start reads in one transaction: the snapshot, the memories written since, and the log's end. */
export interface WordsStart {
  snapshot?: LexicalSnapshot;
  head?: LexicalHeadRow;
  /** Why the snapshot cannot be used as it is (before its arrays are checked); null: it may. */
  problem: string | null;
  /** The log's last seq: what a snapshot built from the memories read after this covers. */
  lastSeq: number;
  /** The memories logged after the snapshot (undefined: purged), when few enough to apply. */
  changed: Map<string, MemoryRow | undefined>;
  /** Earlier versions and the memories they belong to (their texts are compared by recall). */
  versions: MemoryRow[];
}

/**
 * One read-only transaction: the snapshot's rows, the log after its seq, and (when the snapshot
 * is usable and at most `maxChanges` memories changed) those memories' rows and the earlier
 * versions'. More changes than that, a range delete, another schema version: `problem` says so,
 * and the caller rebuilds from the memories.
 */
export async function readWordsStart(db: MnemographDb, maxChanges: (size: number) => number): Promise<WordsStart> {
  return db.transaction('r', [db.lexicalSnapshot, db.lexicalLog, db.memories], async () => {
    const parsed = snapshotOfRows(await db.lexicalSnapshot.bulkGet(['head', 'words', 'docs']));
    const last = await db.lexicalLog.orderBy(':id').last();
    const lastSeq = Math.max(last?.seq ?? 0, parsed?.head.seq ?? 0);
    const out: WordsStart = { ...parsed, problem: null, lastSeq, changed: new Map(), versions: [] };
    if (!parsed) return { ...out, problem: 'missing' };
    if (parsed.head.dbVersion !== DB_VERSION) return { ...out, problem: `written under schema v${parsed.head.dbVersion}` };
    const log = await db.lexicalLog.where(':id').above(parsed.head.seq).toArray();
    const ids = [...new Set(log.map((r) => r.id))];
    if (ids.includes(LOG_ALL)) return { ...out, problem: 'a range of memories was deleted since' };
    if (ids.length > maxChanges(parsed.head.size)) return { ...out, problem: `${ids.length} memories changed since (stale)` };
    const rows = await db.memories.bulkGet(ids);
    ids.forEach((id, i) => out.changed.set(id, rows[i]));
    const versions = await db.memories.where('supersededBy').above('').toArray();
    const owners = [...new Set(versions.map((v) => v.supersededBy!))];
    out.versions = [...versions, ...(await db.memories.bulkGet(owners)).filter((m): m is MemoryRow => !!m)];
    return out;
  });
}

/** The memories logged after `base` (one read-only transaction); null after a range delete. */
export async function readChangedSince(db: MnemographDb, base: number): Promise<{ seq: number; changed: Map<string, MemoryRow | undefined> } | null> {
  return db.transaction('r', [db.lexicalLog, db.memories], async () => {
    const log = await db.lexicalLog.where(':id').above(base).toArray();
    const ids = [...new Set(log.map((r) => r.id))];
    if (ids.includes(LOG_ALL)) return null;
    const rows = await db.memories.bulkGet(ids);
    return { seq: log.length ? log[log.length - 1].seq! : base, changed: new Map(ids.map((id, i) => [id, rows[i]])) };
  });
}

/**
 * Writes `snapshot` as covering the log up to `seq` and deletes the log rows both snapshots cover, in one
 * transaction; does nothing (false) when a snapshot covering more is already stored (another tab's).
 */
export async function writeWords(db: MnemographDb, snapshot: LexicalSnapshot, seq: number): Promise<boolean> {
  return db.transaction('rw', [db.lexicalSnapshot, db.lexicalLog, db.engineSnapshot], async () => {
    const head = (await db.lexicalSnapshot.get('head')) as LexicalHeadRow | undefined;
    if (head && head.dbVersion === DB_VERSION && head.seq > seq) return false;
    await db.lexicalSnapshot.bulkPut(snapshotRows(snapshot, seq, DB_VERSION, Date.now()));
    // the log rows both snapshots cover (the engine snapshot's, schema v12, replays them too)
    const engine = (await db.engineSnapshot.get('head')) as EngineHeadRow | undefined;
    await db.lexicalLog.where(':id').belowOrEqual(coveredSeq(seq, engine, DB_VERSION)).delete();
    return true;
  });
}
