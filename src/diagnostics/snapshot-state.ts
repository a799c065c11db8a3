// The bench page's raw look at the app's database (no Dexie, no upgrade): what is stored, and
// whether both snapshots a start adopts (keyword, schema v11; engine, schema v12) are current.
import { ENGINE_FORMAT } from '../core/engine-snapshot';
import { LEXICAL_FORMAT } from '../core/lexical-snapshot';
import { installedVersion } from '../db/db';
import { DB_NAME, DB_VERSION } from '../db/schema';

/** The app's database opened without a version: whatever is stored, no upgrade. */
export function openRaw(): Promise<IDBDatabase> {
  return new Promise((ok, fail) => {
    const req = indexedDB.open(DB_NAME);
    req.onsuccess = () => ok(req.result);
    req.onerror = () => fail(req.error ?? new Error('the database did not open'));
  });
}

/** null: no snapshot stored; false: one this build refuses or one older than the change log; true: both current. */
export async function snapshotsCurrent(): Promise<boolean | null> {
  // current = both snapshots stored in this build's format and covering every logged change
  // (a head that exists but is older than the log, e.g. one written before a restore, would make
  // the timed reload start the slow way and measure that instead)
  if ((await installedVersion(DB_NAME)) === 0) return null;
  const idb = await openRaw();
  const ask = <T>(req: IDBRequest<T>) =>
    new Promise<T>((ok, fail) => {
      req.onsuccess = () => ok(req.result);
      req.onerror = () => fail(req.error ?? new Error('the read failed'));
    });
  const headOf = (table: string) => ask(idb.transaction(table, 'readonly').objectStore(table).get('head')) as Promise<{ format?: number; dbVersion?: number; seq?: number } | undefined>;
  const logAfter = (seq: number) => (idb.objectStoreNames.contains('lexicalLog') ? ask(idb.transaction('lexicalLog', 'readonly').objectStore('lexicalLog').count(IDBKeyRange.lowerBound(seq, true))) : Promise.resolve(0));
  try {
    if (!idb.objectStoreNames.contains('lexicalSnapshot')) return null;
    const head = await headOf('lexicalSnapshot');
    if (!head) return null;
    if (head.format !== LEXICAL_FORMAT || head.dbVersion !== DB_VERSION || (await logAfter(head.seq ?? 0)) > 0) return false;
    // and the engine snapshot (schema v12): a timed reload must find both, as a person's later reload does
    if (!idb.objectStoreNames.contains('engineSnapshot')) return true;
    const eh = await headOf('engineSnapshot');
    if (!eh) return null;
    // the first snapshots' rows (cut every 32 MiB) are rewritten once warm: a timed reload waits for that too
    return eh.format === ENGINE_FORMAT && eh.dbVersion === DB_VERSION && (eh as { cutAtArrays?: boolean }).cutAtArrays === true && (await logAfter(eh.seq ?? 0)) === 0;
  } finally {
    idb.close();
  }
}
