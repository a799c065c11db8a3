// One stored memory row for the database tests: every field a v12 row holds, with plain values
// (time 1000, session 's', active, importance 0.5); `over` changes any of them.
import type { MemoryRow } from '../db/schema';

/** A live memory row `id` with the text `memory <id>`, no tags, stamped at 1000. */
export const memoryRow = (id: string, over: Partial<MemoryRow> = {}): MemoryRow => ({
  id,
  text: `memory ${id}`,
  tags: [],
  suggestedTags: [],
  importance: 0.5,
  createdAt: 1000,
  updatedAt: 1000,
  validFrom: 1000,
  validTo: null,
  sessionId: 's',
  status: 'active',
  deletedAt: null,
  embedTruncated: false,
  recordedAt: 1000,
  lastAccessedAt: 1000,
  strength: 1,
  ...over,
});

/** The row as releases before schema v6 wrote it: without recordedAt, lastAccessedAt and strength (the upgrade fills them). */
export const memoryRowBeforeV6 = (id: string, over: Partial<MemoryRow> = {}): MemoryRow => {
  const { recordedAt: _r, lastAccessedAt: _l, strength: _s, ...row } = memoryRow(id);
  return { ...row, ...over };
};
