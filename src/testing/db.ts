// Database names for tests: fake-indexeddb keeps every database for the whole run, so each test
// opens one no other test has used.
let n = 0;

/** A database name no other test has used in this run. */
export const freshDbName = (): string => `test-${Date.now()}-${n++}`;

import type { MnemographDb } from '../db/db';
import { allFeatureRows, featureRowsOf, featureTables, putFeatureRows } from '../db/feature-blocks';
import type { VectorRow } from '../db/schema';
import type { MemoryId, SpaceId } from '../core/types';

/** Schema v9 keeps features in blocks: the logical rows tests used to read from the `vectors` table. */
export const storedVectors = {
  /** The row of (memory, space), or undefined. */
  async get(db: MnemographDb, memoryId: MemoryId, space: SpaceId): Promise<VectorRow | undefined> {
    return (await featureRowsOf(db, [memoryId])).get(memoryId)?.find((r) => r.space === space);
  },
  /** Every row of a memory. */
  async of(db: MnemographDb, memoryId: MemoryId): Promise<VectorRow[]> {
    return (await featureRowsOf(db, [memoryId])).get(memoryId) ?? [];
  },
  /** Every stored row (optionally of one space). */
  async all(db: MnemographDb, space?: SpaceId): Promise<VectorRow[]> {
    const rows = await allFeatureRows(db);
    return space ? rows.filter((r) => r.space === space) : rows;
  },
  async count(db: MnemographDb): Promise<number> {
    return (await db.featureHeads.toArray()).reduce((n, h) => n + h.ids.length, 0);
  },
  /** Writes rows as the repository does (each replaces the memory's entry of its space). */
  async put(db: MnemographDb, rows: VectorRow[]): Promise<void> {
    await db.transaction('rw', featureTables(db), async () => {
      await putFeatureRows(db, rows);
    });
  },
};
