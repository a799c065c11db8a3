// memoryPages: every row once, in id order, and the next page asked for before the caller works
// on the current one (issue 13: the texts pass at a start).
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/db/db';
import { insertMemories } from '../../src/db/repo';
import type { MemoryRow } from '../../src/db/schema';
import { freshDbName } from '../../src/testing/db';
import { memoryPages } from './read';

const memory = (id: string): MemoryRow => ({ id, text: `note ${id}`, tags: [], suggestedTags: [], importance: 0.5, createdAt: 1, updatedAt: 1, validFrom: 1, validTo: null, sessionId: 's', status: 'active', deletedAt: null, embedTruncated: false });

async function storeOf(ids: string[]) {
  const db = await openDb(freshDbName());
  await insertMemories(db, ids.map(memory), []);
  // counts the page reads as they are asked for (orderBy: the first page, where: the others)
  const asked: string[] = [];
  const t = db.memories;
  const [orderBy, where] = [t.orderBy.bind(t), t.where.bind(t)];
  Object.assign(t, {
    orderBy: (...a: Parameters<typeof orderBy>) => (asked.push('first'), orderBy(...a)),
    where: (...a: Parameters<typeof where>) => (asked.push('next'), where(...a)),
  });
  return { db, asked };
}

describe('memoryPages', () => {
  it('gives 7 rows in pages of 3, 3 and 1, in id order, asking for each next page when the one before arrives', async () => {
    const { db, asked } = await storeOf(['m5', 'm1', 'm3', 'm7', 'm2', 'm6', 'm4']);
    const pages = memoryPages(db, 3);
    const first = await pages.next();
    expect((first.value as MemoryRow[]).map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);
    expect(asked).toEqual(['first', 'next']); // the second page is being read while the caller holds the first
    const rest: string[][] = [];
    for await (const p of { [Symbol.asyncIterator]: () => pages }) rest.push(p.map((m) => m.id));
    expect(rest).toEqual([['m4', 'm5', 'm6'], ['m7']]);
    expect(asked).toEqual(['first', 'next', 'next']); // a short page is the last: nothing read after it
    db.close();
  });

  it('a store of exactly two pages ends on the empty third read; an empty store gives no page', async () => {
    const { db, asked } = await storeOf(['a1', 'a2', 'a3', 'a4']);
    const got: string[][] = [];
    for await (const p of memoryPages(db, 2)) got.push(p.map((m) => m.id));
    expect(got).toEqual([['a1', 'a2'], ['a3', 'a4']]);
    expect(asked).toEqual(['first', 'next', 'next']);
    db.close();
    const empty = await storeOf([]);
    const none: MemoryRow[][] = [];
    for await (const p of memoryPages(empty.db, 2)) none.push(p);
    expect(none).toEqual([]);
    empty.db.close();
  });

  it('a caller that stops after the first page leaves the read ahead unawaited without an error', async () => {
    const { db } = await storeOf(['b1', 'b2', 'b3']);
    for await (const p of memoryPages(db, 2)) {
      expect(p.map((m) => m.id)).toEqual(['b1', 'b2']);
      break;
    }
    db.close(); // the read ahead may fail now: caught, no unhandled rejection fails the run
  });
});
