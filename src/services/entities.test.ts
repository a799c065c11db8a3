// The entity index follows every write: add, edit, delete, restore; and the v8 backfill.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { fnv1a } from '../core/features/hash';
import { MnemographDb } from '../db/db';
import { loadNodeResources } from '../../scripts/lib/resources-node';
import { freshDbName, startServices } from '../testing/services';

const nodes = async (db: MnemographDb) => (await db.entities.toArray()).map((e) => [e.key, e.name, e.aliases, e.mentionCount]);

describe('entity index', () => {
  it('adds, edits, deletes and restores keep nodes and mentions in step', async () => {
    const { s } = await startServices({ resources: await loadNodeResources() });
    const a = await s.addMemory({ text: 'I had lunch with Caroline at the Golden Gate Bridge.' });
    const b = await s.addMemory({ text: 'We saw the GOLDEN GATE BRIDGE in fog; later Caroline left.' });
    expect(await nodes(s.db)).toEqual([
      ['caroline', 'Caroline', ['Caroline'], 2],
      ['golden gate bridge', 'GOLDEN GATE BRIDGE', ['GOLDEN GATE BRIDGE', 'Golden Gate Bridge'], 2],
    ]);
    expect((await s.entitiesByHash([fnv1a('caroline')])).map((e) => e.name)).toEqual(['Caroline']);
    await s.updateMemory(a.id, { text: 'I had lunch with Priya.' });
    expect(await nodes(s.db)).toEqual([
      ['caroline', 'Caroline', ['Caroline'], 1],
      ['golden gate bridge', 'GOLDEN GATE BRIDGE', ['GOLDEN GATE BRIDGE'], 1],
      ['priya', 'Priya', ['Priya'], 1],
    ]);
    await s.deleteMemory(b.id);
    expect(await nodes(s.db)).toEqual([['priya', 'Priya', ['Priya'], 1]]);
    expect(await s.db.entityMentions.where('memoryId').equals(b.id).count()).toBe(0);
    await s.restoreMemory(b.id);
    expect((await nodes(s.db)).map((n) => n[0])).toEqual(['caroline', 'golden gate bridge', 'priya']);
  });

  it('backfills the memories stored before v8 once', async () => {
    const dbName = freshDbName();
    const { s } = await startServices({ resources: await loadNodeResources(), dbName });
    const m = await s.addMemory({ text: 'We had dinner in Lisbon with Marta.' });
    // as a v5 database upgraded to v8 would be: rows without entities, the backfill pending
    await s.db.entityMentions.clear();
    await s.db.entities.clear();
    await s.db.settings.put({ key: 'entityBackfill', value: 'pending' });
    expect(await s.backfillEntities()).toBe(1);
    expect((await s.entityMentionsOf(m.id)).map((r) => r.entityKey).sort()).toEqual(['lisbon', 'marta']);
    expect(await s.backfillEntities()).toBe(0); // done
  });

  it('an import takes the mentions its featurizing found (no second NER pass): the same nodes as a capture', async () => {
    const resources = await loadNodeResources();
    const { s, featurizer } = await startServices({ resources });
    const lines = ['We had dinner in Lisbon with Marta.', 'Marta called me from Lisbon.'];
    const asked: string[] = [];
    const second = featurizer!.entities!.bind(featurizer);
    featurizer!.entities = (texts) => (asked.push(...texts), second(texts));
    const preview = await s.previewImport({ files: [{ name: 'notes.txt', bytes: new TextEncoder().encode(lines.join('\n')) }], format: 'text', text: { mode: 'line' } });
    expect(await s.runImport(preview.planId)).toMatchObject({ written: 2 });
    expect(asked).toEqual([]);
    expect(await nodes(s.db)).toEqual([
      ['lisbon', 'Lisbon', ['Lisbon'], 2],
      ['marta', 'Marta', ['Marta'], 2],
    ]);
    // a capture still runs the pass (it does not featurize through the import): the same nodes
    await s.addMemory({ text: 'Lisbon again, without anyone.' });
    expect(asked).toEqual(['Lisbon again, without anyone.']);
    expect((await nodes(s.db)).map((n) => [n[0], n[3]])).toEqual([
      ['lisbon', 3],
      ['marta', 2],
    ]);
  });
});
