// The one Dexie database: versions, durability, and the cross-tab schema checks.

import Dexie, { type Table } from 'dexie';
import { AppError } from '../core/errors';
import { textKey } from '../core/text-key';
import { normaliseTags } from '../core/validate';
import { storageError } from './errors';
import {
  DB_NAME,
  DB_VERSION,
  STORES_V1,
  STORES_V2,
  STORES_V3,
  STORES_V4,
  STORES_V5,
  STORES_V6,
  STORES_V7,
  STORES_V8,
  STORES_V9,
  ENCODER_SETTING,
  ENTITY_BACKFILL_KEY,
  encoderOfRows,
  upgradeFeedbackV2toV3,
  upgradeMemoryV5toV6,
  upgradeVectorV3toV4,
  upgradeMemoryV1toV2,
  type EntityMentionRow,
  type DeepSearchLogRow,
  type EntityRow,
  type FeatureDataRow,
  type FeatureHeadRow,
  type FeedbackRow,
  type LinkRow,
  type MemoryRow,
  type PendingVectorRow,
  type SettingRow,
  type VectorRow,
} from './schema';
import { createDbStatusStore, type DbStatusStore } from './status';
import { STORES_V10, upgradeMemoryV8toV10, type ImageRow } from './images';
import { migrateVectorsToBlocks } from './migrate-v9';
import { LOG_ALL, lexicalLogMiddleware, STORES_V11, type LexicalLogRow, type LexicalSnapshotRow } from './lexical-snapshot';
import { STORES_V12, type EngineSnapshotRow } from './engine-snapshot';
import { STORES_V13, type JudgeVectorRow } from './judge-vectors';

export class MnemographDb extends Dexie {
  memories!: Table<MemoryRow, string>;
  /** Until v8 only: one row per (memory, space); v9 moved them into featureHeads / featureData. */
  vectors!: Table<VectorRow, [string, string]>;
  /** Since v9: features in packed blocks (src/db/feature-blocks.ts). */
  featureHeads!: Table<FeatureHeadRow, string>;
  featureData!: Table<FeatureDataRow, string>;
  settings!: Table<SettingRow, string>;
  feedback!: Table<FeedbackRow, string>;
  links!: Table<LinkRow, [string, string]>;
  pendingVectors!: Table<PendingVectorRow, [string, string]>;
  entities!: Table<EntityRow, string>;
  entityMentions!: Table<EntityMentionRow, [string, string]>;
  deepSearchLog!: Table<DeepSearchLogRow, number>;
  images!: Table<ImageRow, string>;
  /** Since v11: the keyword index's snapshot (derived, never backed up) and the log of memories written since. */
  lexicalSnapshot!: Table<LexicalSnapshotRow, string>;
  lexicalLog!: Table<LexicalLogRow, number>;
  /** Since v12: the engine's built indexes (src/db/engine-snapshot.ts; derived, never backed up). */
  engineSnapshot!: Table<EngineSnapshotRow, string>;
  /** Since v13: the judge's vectors of the memories (src/db/judge-vectors.ts; derived, never backed up). */
  judgeVectors!: Table<JudgeVectorRow, string>;
  readonly status: DbStatusStore;

  /** `upTo` exists for migration tests, which must create a database as an older release did. */
  constructor(name: string = DB_NAME, opts: { status?: DbStatusStore; upTo?: number } = {}) {
    // strict: a write is reported done only once it is on disk (Chrome defaults to relaxed).
    super(name, { chromeTransactionDurability: 'strict' });
    this.status = opts.status ?? createDbStatusStore();
    const upTo = opts.upTo ?? DB_VERSION;
    this.version(1).stores(STORES_V1);
    if (upTo >= 2) {
      this.version(2)
        .stores(STORES_V2)
        .upgrade((tx) =>
          tx
            .table('memories')
            .toCollection()
            .modify((row: Record<string, unknown>) => upgradeMemoryV1toV2(row, normaliseTags)),
        );
    }
    if (upTo >= 3) {
      this.version(3)
        .stores(STORES_V3)
        .upgrade((tx) =>
          tx
            .table('feedback')
            .toCollection()
            .modify((row: Record<string, unknown>) => upgradeFeedbackV2toV3(row)),
        );
    }
    if (upTo >= 4) {
      this.version(4)
        .stores(STORES_V4)
        .upgrade((tx) =>
          tx
            .table('vectors')
            .where('space')
            .equals('E1')
            .modify((row: Record<string, unknown>) => upgradeVectorV3toV4(row)),
        );
    }
    // additive: a new index and a new table; no stored row changes (see STORES_V5)
    if (upTo >= 5) this.version(5).stores(STORES_V5);
    if (upTo >= 6) {
      this.version(6)
        .stores(STORES_V6)
        .upgrade(async (tx) => {
          // last access = the newest feedback event of the memory, else its createdAt (see STORES_V6)
          const last = new Map<string, number>();
          await tx
            .table('feedback')
            .toCollection()
            .each((f: { memoryId: string; at: number }) => {
              if (typeof f.at === 'number' && f.at > (last.get(f.memoryId) ?? -Infinity)) last.set(f.memoryId, f.at);
            });
          await tx
            .table('memories')
            .toCollection()
            .modify((row: Record<string, unknown>) => upgradeMemoryV5toV6(row, last, textKey));
        });
    }
    // v7: the pending vectors of an encoder switch, and the
    // encoder the stored vectors came from recorded, so an older store keeps searching with it.
    if (upTo >= 7) {
      this.version(7)
        .stores(STORES_V7)
        .upgrade(async (tx) => {
          const settings = tx.table('settings');
          if (await settings.get(ENCODER_SETTING)) return;
          const models: string[] = [];
          await tx
            .table('vectors')
            .where('space')
            .equals('E1')
            .each((row: { model?: unknown }) => void models.push(typeof row.model === 'string' ? row.model : ''));
          const id = encoderOfRows(models);
          if (id) await settings.put({ key: ENCODER_SETTING, value: { id, recordedBy: 'upgrade' } });
        });
    }
    // additive: the entity tables; memories stored before are indexed by the services' backfill
    if (upTo >= 8) {
      this.version(8)
        .stores(STORES_V8)
        .upgrade(async (tx) => {
          if ((await tx.table('memories').count()) > 0) await tx.table('settings').put({ key: ENTITY_BACKFILL_KEY, value: 'pending' });
        });
    }
    // v9: features in packed blocks; every vectors row copied byte for byte, then the table dropped
    if (upTo >= 9) {
      this.version(9)
        .stores(STORES_V9)
        .upgrade(async (tx) => {
          await migrateVectorsToBlocks(tx);
        });
    }
    // v10 (pictures on memories): the images table; the memories' media lists made plain (see images.ts)
    if (upTo >= 10) {
      this.version(10)
        .stores(STORES_V10)
        .upgrade((tx) =>
          tx
            .table('memories')
            .toCollection()
            .modify((row: Record<string, unknown>) => void upgradeMemoryV8toV10(row)),
        );
    }
    // v11 (issue 13): the keyword index's snapshot and the log of memories written since it. No
    // snapshot yet: the engine's next start builds one from the memories. The log starts with one
    // LOG_ALL row, so a snapshot can never be taken for one written before the log existed.
    if (upTo >= 11) {
      this.version(11)
        .stores(STORES_V11)
        .upgrade((tx) => tx.table('lexicalLog').add({ id: LOG_ALL }));
      this.use(lexicalLogMiddleware);
    }
    // v12 (issue 13): the engine snapshot, written by the engine once warm; nothing to convert.
    if (upTo >= 12) this.version(12).stores(STORES_V12);
    // v13 (issue 8, careful ranking): the judge's vectors, filled in the background; nothing to convert.
    if (upTo >= 13) this.version(13).stores(STORES_V13);

    // Another tab opened a newer version: close so it can upgrade, and tell the person to reload.
    this.on('versionchange', () => {
      this.close();
      this.status.set({ state: 'outdated', error: new AppError('SCHEMA_OUTDATED') });
      return false; // we handled it (Dexie's default would only close)
    });
    // Our upgrade waits on an older tab that keeps the database open.
    this.on('blocked', () => {
      this.status.set({ state: 'blocked', error: new AppError('DB_BLOCKED') });
    });
  }

  /** The error to report for work attempted after the database was closed by another tab. */
  closedReason(): AppError | null {
    const s = this.status.get();
    return s.state === 'outdated' || s.state === 'blocked' ? s.error : null;
  }

  /** Maps a failure of an operation on this database to an AppError. */
  fail(e: unknown): AppError {
    return storageError(e, this.closedReason());
  }
}

/**
 * Opens the database, reporting progress on db.status. Rejects with AppError:
 * SCHEMA_OUTDATED when the stored database is newer than this code (a newer release ran in
 * another tab), DB_UNAVAILABLE when IndexedDB is missing or refuses to open.
 */
export async function openDb(name: string = DB_NAME, opts: { status?: DbStatusStore } = {}): Promise<MnemographDb> {
  const db = new MnemographDb(name, opts);
  db.status.set({ state: 'opening', error: null });
  try {
    // Dexie 4 opens a database of a higher version than declared instead of raising
    // VersionError, and may even add our missing tables to it. Old code must not touch a newer
    // schema, so look at the stored version first.
    const installed = await installedVersion(name);
    if (installed > DB_VERSION) {
      throw new AppError('SCHEMA_OUTDATED', undefined, `database version ${installed} > code version ${DB_VERSION}`);
    }
    await db.open();
  } catch (e) {
    const err = db.fail(e);
    db.status.set({ state: err.code === 'SCHEMA_OUTDATED' ? 'outdated' : 'error', error: err });
    throw err;
  }
  // A newer tab may have upgraded between the probe and the open.
  const installed = Math.round(db.backendDB().version / 10);
  if (installed > DB_VERSION) {
    db.close();
    const err = new AppError('SCHEMA_OUTDATED', undefined, `database version ${installed} > code version ${DB_VERSION}`);
    db.status.set({ state: 'outdated', error: err });
    throw err;
  }
  db.status.set({ state: 'open', error: null });
  return db;
}

/** The stored Dexie version of `name` (native version / 10), 0 when the database does not exist. */
export function installedVersion(name: string): Promise<number> {
  const idb: IDBFactory | undefined = Dexie.dependencies.indexedDB;
  if (!idb) return Promise.reject(new AppError('DB_UNAVAILABLE', undefined, 'IndexedDB is missing'));
  return new Promise((resolve, reject) => {
    const req = idb.open(name);
    // The database does not exist yet: abort so this probe does not create an empty one.
    req.onupgradeneeded = () => req.transaction?.abort();
    req.onsuccess = () => {
      const v = req.result.version;
      req.result.close();
      resolve(Math.round(v / 10));
    };
    req.onerror = (ev) => {
      if (req.error?.name === 'AbortError') {
        ev.preventDefault();
        resolve(0);
      } else reject(req.error);
    };
    req.onblocked = () => undefined;
  });
}
