// The engine worker's reads of the database (schema v9), so nothing big crosses the page's
// thread: the live memories in pages by primary key, then the current producers' feature blocks.
// The one worker folder allowed to import src/db (eslint.config.js, docs/ARCHITECTURE.md); it
// only reads, the page writes.

import { MnemographDb } from '../../src/db/db';
import type { FeatureDataRow, FeatureHeadRow, MemoryRow } from '../../src/db/schema';
import { SPACE_IDS } from '../../src/core/spaces';
import { isEncoderSpace } from '../../src/protocol/embed';
import type { EngineStoreSource } from '../../src/protocol/engine';

/** Memories per read: large pages (one IDB request each), small enough to yield between them. */
export const MEMORY_PAGE = 5000;

export async function openStore(source: EngineStoreSource): Promise<MnemographDb> {
  const db = new MnemographDb(source.dbName);
  await db.open();
  return db;
}

/**
 * Every memory row, page by page in id (= time) order; the caller keeps the live ones. The next
 * page is asked for as soon as a page arrives, before the caller works on it: the database reads
 * it meanwhile (issue 13: in a trace at 100k the texts pass waited on IndexedDB ~3 s of its ~5 s,
 * the worker idle between pages). At most two pages are held.
 */
export async function* memoryPages(db: MnemographDb, size = MEMORY_PAGE): AsyncGenerator<MemoryRow[]> {
  const read = (after: string | undefined): Promise<MemoryRow[]> =>
    after === undefined ? db.memories.orderBy(':id').limit(size).toArray() : db.memories.where(':id').above(after).limit(size).toArray();
  let next = read(undefined);
  for (;;) {
    const page = await next;
    if (page.length === 0) return;
    const more = page.length === size;
    if (more) {
      next = read(page[page.length - 1].id);
      next.catch(() => undefined); // a caller that stops early (a newer load) leaves it unread
    }
    yield page;
    if (!more) return;
  }
}

/** The heads of the blocks of current producers, E1 first (the vectors before the other spaces). */
export async function currentHeads(db: MnemographDb, producers: EngineStoreSource['producers']): Promise<FeatureHeadRow[]> {
  const out: FeatureHeadRow[] = [];
  for (const space of SPACE_IDS) {
    const model = isEncoderSpace(space) ? producers.encoder : producers.lexical;
    out.push(...(await db.featureHeads.where('[space+model]').equals([space, model]).toArray()));
  }
  return out;
}

export async function blockData(db: MnemographDb, heads: FeatureHeadRow[]): Promise<(FeatureDataRow | undefined)[]> {
  return db.featureData.bulkGet(heads.map((h) => h.key));
}
