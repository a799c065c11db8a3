// Deep search escalation through the services and the engine (seed 003): off does nothing, shadow
// changes nothing but the log, active merges with reasons, the rate limit stops the escalation
// after the limit in a session.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { loadNodeResources } from '../../scripts/lib/resources-node';
import { openDb } from '../db/db';
import { startServices } from '../testing/services';
import type { RecallOutcomeView } from './types';

const ids = (o: RecallOutcomeView) => o.results.map((r) => [r.memory.id, r.result.score]);

async function seeded() {
  const { s, dbName } = await startServices({ resources: await loadNodeResources() });
  await s.addMemory({ text: 'We sailed past the lighthouse with Marta in the morning.' });
  await s.addMemory({ text: 'Marta cooked a huge dinner for everyone.' });
  await s.addMemory({ text: 'Bought new running shoes downtown.' });
  await s.addMemory({ text: 'Never book meetings on Fridays.', tags: ['constraint'] });
  return { s, dbName };
}

describe('deep search through the services', () => {
  it('off (the default) escalates nothing and logs nothing', async () => {
    const { s, dbName } = await seeded();
    const got = await s.recall('lighthouse', { topK: 2 });
    expect(got.deepSearch).toBeUndefined();
    const db = await openDb(dbName);
    expect(await db.deepSearchLog.count()).toBe(0);
    db.close();
  });

  it('shadow mode changes nothing but the log', async () => {
    const { s, dbName } = await seeded();
    const plain = await s.recall('meetings on which day', { topK: 2 });
    // threshold 1: every query escalates
    const shadow = await s.recall('meetings on which day', { topK: 2, deepSearch: { mode: 'shadow', threshold: 1 } });
    expect(ids(shadow)).toEqual(ids(plain));
    expect(shadow.deepSearch?.status).toBe('shadow');
    const db = await openDb(dbName);
    const rows = await db.deepSearchLog.toArray();
    expect(rows.length).toBe(1);
    expect(rows[0]).toMatchObject({ query: 'meetings on which day', status: 'shadow', mode: 'shadow', threshold: 1, primaryIds: plain.results.map((r) => r.memory.id) });
    expect(rows[0].pool.length).toBeGreaterThan(0);
    expect(rows[0].scores.length).toBe(rows[0].pool.length);
    db.close();
  });

  it('active mode merges; what the reader read carries its reasons; the sixth escalation in a session is refused', async () => {
    const { s } = await seeded();
    const got = await s.recall('meetings on Fridays', { topK: 2, deepSearch: { mode: 'active', threshold: 1 } });
    expect(got.deepSearch?.status).toBe('merged');
    const rule = got.results.find((r) => r.memory.text.startsWith('Never book'));
    expect(rule?.result.deep?.reasons.join(' ')).toContain('meetings');
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await s.recall('meetings on Fridays', { topK: 2, deepSearch: { mode: 'active', threshold: 1 } })).deepSearch?.status);
    expect(statuses).toEqual(['merged', 'merged', 'merged', 'merged', 'rate-limited']);
  });

  it('every constraint memory in scope is read, found as a rule whatever the results (the engine passes them to the pool)', async () => {
    const { s } = await seeded();
    const rule = await s.addMemory({ text: 'Always carry water on long walks.', tags: ['constraint'] });
    await s.addMemory({ text: 'Always carry water on long walks, said the old guide.' }); // the same words, no rule
    // a weak query (nothing close), so the trigger's confidence stays below 1
    const got = await s.recall('a quiet garden', { topK: 1, deepSearch: { mode: 'shadow', threshold: 1 } });
    expect(got.deepSearch?.status).toBe('shadow');
    const rules = got.deepSearch?.pool.filter((p) => p.via.some((v) => v.strategy === 'rule')).map((p) => p.id).sort();
    const both = (await s.recall('Fridays water', { topK: 10 })).results.filter((r) => r.memory.tags.includes('constraint')).map((r) => r.memory.id).sort();
    expect(both).toContain(rule.id);
    expect(rules).toEqual(both);
  });

  it('bad deepSearch options are refused with the field named', async () => {
    const { s } = await seeded();
    await expect(s.recall('x', { deepSearch: { mode: 'always' as never } })).rejects.toMatchObject({ code: 'INVALID_OPTION', message: expect.stringContaining('deepSearch.mode') });
  });
});
