// The entity nodes kept by tallies (restore at scale, issue 13): a write adjusts a node by its own
// mention rows, and the node stored is the one a full recount of every row gives (entityNodeOf).
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { entityNodeOf, mentionRows, type EntityMentionRow } from '../core/entities';
import { freshDbName } from '../testing/db';
import { openDb } from './db';
import { replaceEntityMentions } from './entities';

const m = (id: string, ...names: [string, string?][]) => mentionRows(id, names.map(([text, type]) => ({ text, type: type ?? 'NAME' })));

describe('replaceEntityMentions', () => {
  it('keeps each node equal to a recount of its rows through adds, edits and deletes', async () => {
    const db = await openDb(freshDbName());
    await replaceEntityMentions(db, new Map([
      ['a', m('a', ['Maria'], ['Lisbon', 'PLACE'])],
      ['b', m('b', ['maria'])],
      ['c', m('c', ['Maria'], ['Lisbon'])],
    ]));
    // Maria: spellings Maria x2, maria x1; Lisbon: type PLACE x1, NAME x1 (tie: alphabetical -> NAME)
    let maria = await db.entities.get('maria');
    expect([maria?.name, maria?.aliases, maria?.mentionCount]).toEqual(['Maria', ['Maria', 'maria'], 3]);
    expect((await db.entities.get('lisbon'))?.type).toBe('NAME');
    // c edited: Maria is now spelled "maria", Lisbon gone from it; a deleted: no mentions
    await replaceEntityMentions(db, new Map([
      ['c', m('c', ['maria'])],
      ['a', []],
    ]));
    maria = await db.entities.get('maria');
    expect([maria?.name, maria?.aliases, maria?.mentionCount]).toEqual(['maria', ['maria'], 2]);
    expect(maria?.counts).toEqual({ spellings: [['maria', 2]], types: [['NAME', 2]], rows: 2 });
    expect(await db.entities.get('lisbon')).toBeUndefined(); // its last mention went
    const all = await db.entityMentions.toArray();
    for (const node of await db.entities.toArray()) {
      const { counts: _, ...bare } = node;
      expect(bare).toEqual(entityNodeOf(node.key, all));
    }
    db.close();
  });

  it('a node stored without tallies (before them) is recounted from every row once', async () => {
    const db = await openDb(freshDbName());
    const rows: EntityMentionRow[] = [...m('a', ['Tom']), ...m('b', ['Tom']), ...m('c', ['TOM'])];
    await db.entityMentions.bulkPut(rows);
    await db.entities.put({ ...entityNodeOf('tom', rows)! }); // as v8 stored it: no counts
    await replaceEntityMentions(db, new Map([['d', m('d', ['TOM'])]]));
    const tom = await db.entities.get('tom');
    // Tom x2, TOM x2: tie, alphabetical ('TOM' < 'Tom'); four memories
    expect([tom?.name, tom?.mentionCount, tom?.counts?.rows]).toEqual(['TOM', 4, 4]);
    db.close();
  });
});
