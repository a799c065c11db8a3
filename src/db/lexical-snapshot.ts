// Schema v11 (issue 13): the keyword index's snapshot and the change log that keeps it correct.
//
// - `lexicalSnapshot`: three rows written together by the engine worker (derived data: never in a
//   backup, rebuilt whenever it is missing, damaged or of another format):
//     'head'  { format, analyzer, checksum, seq, dbVersion, size, writtenAt }
//     'words' the packed BM25 index (src/core/bm25.ts `PackedBm25`)
//     'docs'  the packed doc fields (src/core/lexical-snapshot.ts `PackedDocs`)
//   `seq`: every change logged up to it is in the snapshot.
// - `lexicalLog` (`++seq`): one row `{ id }` per memory written (added, edited, trashed,
//   restored, purged), appended by a DBCore middleware inside the write's own transaction, so no
//   write path can forget it; `'*'` when a whole range was deleted (the snapshot is then rebuilt).
//   A start applies the rows after the snapshot's `seq` (re-reading those memories); writing a
//   snapshot deletes the rows it covers.
// Why a log and not an update of the snapshot in every write: the snapshot is a few large rows
// (~30 MB at 100k), so rewriting it per save would cost more than the save; a log row is a few
// bytes, and a start re-tokenises only the memories written since the snapshot.

import Dexie, { type DBCore, type DBCoreMutateRequest, type DBCoreTransaction, type Middleware } from 'dexie';
import { AppError } from '../core/errors';
import type { LexicalSnapshot, PackedDocs } from '../core/lexical-snapshot';
import type { PackedBm25 } from '../core/bm25';

export const STORES_V11 = {
  lexicalSnapshot: 'key',
  lexicalLog: '++seq',
} as const;

/** The log's mark for "a range of memories was deleted": every memory is re-read. */
export const LOG_ALL = '*';

export interface LexicalLogRow {
  seq?: number;
  id: string;
}

export interface LexicalHeadRow {
  key: 'head';
  format: number;
  analyzer: number;
  checksum: number;
  /** Every logged change up to this seq is in the snapshot. */
  seq: number;
  /** The schema version it was written under (an upgrade may change memories without logging). */
  dbVersion: number;
  size: number;
  writtenAt: number;
}
/** A string list as one string (one structured-clone item instead of 100k): each element after a NUL. */
type Joined = string;
const SEP = '\u0000';
function join(list: readonly string[]): Joined {
  for (const x of list) if (x.includes(SEP)) throw new AppError('SNAPSHOT_INVALID', undefined, 'a string with a NUL character');
  return list.length ? SEP + list.join(SEP) : '';
}
const split = (s: unknown): string[] => (typeof s === 'string' ? s.split(SEP).slice(1) : []);

type StoredBm25 = Omit<PackedBm25, 'ids' | 'terms'> & { ids: Joined; terms: Joined };
type StoredDocs = Omit<PackedDocs, 'strings'> & { strings: Joined };
export type LexicalSnapshotRow = LexicalHeadRow | { key: 'words'; bm25: StoredBm25 } | { key: 'docs'; docs: StoredDocs };

/** The snapshot's rows (head first) for `seq`; SNAPSHOT_INVALID for a string it cannot store (a NUL in an id or tag). */
export function snapshotRows(s: LexicalSnapshot, seq: number, dbVersion: number, now: number): LexicalSnapshotRow[] {
  return [
    { key: 'head', format: s.format, analyzer: s.analyzer, checksum: s.checksum, seq, dbVersion, size: s.bm25.ids.length, writtenAt: now },
    { key: 'words', bm25: { ...s.bm25, ids: join(s.bm25.ids), terms: join(s.bm25.terms) } },
    { key: 'docs', docs: { ...s.docs, strings: join(s.docs.strings) } },
  ];
}

/** The snapshot the rows hold (undefined when one is missing), with its head. */
export function snapshotOfRows(rows: (LexicalSnapshotRow | undefined)[]): { snapshot: LexicalSnapshot; head: LexicalHeadRow } | undefined {
  const head = rows.find((r): r is LexicalHeadRow => r?.key === 'head');
  const words = rows.find((r) => r?.key === 'words') as { bm25: StoredBm25 } | undefined;
  const docs = rows.find((r) => r?.key === 'docs') as { docs: StoredDocs } | undefined;
  if (!head || !words?.bm25 || !docs?.docs) return undefined;
  const bm25 = { ...words.bm25, ids: split(words.bm25.ids), terms: split(words.bm25.terms) };
  return { head, snapshot: { format: head.format, analyzer: head.analyzer, checksum: head.checksum, bm25, docs: { ...docs.docs, strings: split(docs.docs.strings) } } };
}

function idsOf(req: DBCoreMutateRequest): string[] {
  if (req.type === 'deleteRange') return [LOG_ALL];
  if (req.type === 'delete') return req.keys.map(String);
  const ids = new Set<string>();
  for (const v of req.values ?? []) if (v && typeof (v as { id?: unknown }).id === 'string') ids.add((v as { id: string }).id);
  for (const k of req.keys ?? []) ids.add(String(k));
  if (req.type === 'put') for (const k of req.updates?.keys ?? []) ids.add(String(k));
  return [...ids];
}

function holdsLog(trans: DBCoreTransaction): boolean {
  const names = (trans as unknown as { objectStoreNames?: DOMStringList }).objectStoreNames;
  return !!names && names.contains('lexicalLog');
}

/**
 * Every write to `memories` appends its ids to `lexicalLog` in the same transaction: a read-write
 * transaction over memories (or features: `logWritten`) takes the log in too (as dexie-cloud's
 * mutation tracking does).
 * Upgrades that run before the log exists are not logged (the head's `dbVersion` covers them).
 */
export const lexicalLogMiddleware: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'lexicalLog',
  create(down) {
    return {
      ...down,
      transaction(stores, mode, options) {
        const widen = mode === 'readwrite' && (stores.includes('memories') || stores.includes('featureHeads')) && !stores.includes('lexicalLog');
        return down.transaction(widen ? [...stores, 'lexicalLog'] : stores, mode, options);
      },
      table(name) {
        const table = down.table(name);
        if (name !== 'memories') return table;
        return {
          ...table,
          async mutate(req) {
            const res = await table.mutate(req);
            const ids = idsOf(req);
            if (ids.length && holdsLog(req.trans)) {
              await down.table('lexicalLog').mutate({ type: 'add', trans: req.trans, values: ids.map((id) => ({ id })) });
            }
            return res;
          },
        };
      },
    };
  },
};

/**
 * Appends `ids` to the log inside the current transaction (schema v12: a write of features alone,
 * the backfill or an encoder flip, changes what the engine snapshot holds without writing the
 * memory). A no-op outside a read-write transaction that holds the log (the middleware widens
 * every one over the feature tables).
 */
export async function logWritten(db: Dexie, ids: readonly string[]): Promise<void> {
  const trans = (Dexie.currentTransaction as unknown as { idbtrans?: DBCoreTransaction } | null)?.idbtrans;
  if (ids.length === 0 || !trans || !holdsLog(trans)) return;
  await db.core.table('lexicalLog').mutate({ type: 'add', trans, values: ids.map((id) => ({ id })) });
}

/**
 * The seq up to which log rows may be deleted when one snapshot covering `seq` is written: no
 * further than the other snapshot covers, when that one is of this schema (else it will be
 * rebuilt and needs none of them).
 */
export function coveredSeq(seq: number, other: { seq: number; dbVersion: number } | undefined, dbVersion: number): number {
  return other && other.dbVersion === dbVersion ? Math.min(seq, other.seq) : seq;
}
