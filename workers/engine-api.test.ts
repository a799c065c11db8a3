// The staged start from the database (schema v9): keyword-searchable first, then the stored
// features attached; writes that reach the engine meanwhile win over the stored features.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { serializeSpace, sparseFromEntries } from '../src/core/spaces';
import { openDb } from '../src/db/db';
import { insertMemories, tombstoneMemory } from '../src/db/repo';
import { putFeatureRows } from '../src/db/feature-blocks';
import type { MemoryRow } from '../src/db/schema';
import { packSpace } from '../src/db/vectors';
import type { EngineLoadProgress } from '../src/protocol/engine';
import { engineDoc } from '../src/testing/engine';
import { freshDbName } from '../src/testing/db';
import { EngineCore } from './engine-core';
import { createEngineApi } from './engine-api';
import { MEMORY_PAGE } from './engine-store/read';

const ENC = 'enc/v1';
const LEX = 'lex/v1';
function memory(id: string, text: string): MemoryRow {
  return { id, text, tags: [], suggestedTags: [], importance: 0.5, createdAt: 1, updatedAt: 1, validFrom: 1, validTo: null, sessionId: 's', status: 'active', deletedAt: null, embedTruncated: false };
}
const e1 = (id: string, v: number[], model = ENC) => packSpace(id, 'E1', serializeSpace('E1', new Float32Array(v)), model);
const e6 = (id: string) => packSpace(id, 'E6', serializeSpace('E6', sparseFromEntries([[3, 1]])), LEX);

async function store(n: number) {
  const name = freshDbName();
  const db = await openDb(name);
  const ms = Array.from({ length: n }, (_, i) => memory(`m${String(i).padStart(6, '0')}`, i === 0 ? 'red apple orchard' : i === 1 ? 'green pear' : `filler note ${i}`));
  // m0 points along x, m1 along y, the rest along z; m1's E1 is of another encoder (stale), m0 has an E6 too
  await insertMemories(db, ms, [...ms.map((m, i) => e1(m.id, i === 0 ? [1, 0, 0] : i === 1 ? [0, 1, 0] : [0, 0, 1], i === 1 ? 'old/v0' : ENC)), e6(ms[0].id)]);
  return { db, name, ms };
}

describe('loadFromStore', () => {
  it('answers by words first, then by meaning once the blocks are in; stale producers and the trash stay out', async () => {
    const { db, name, ms } = await store(MEMORY_PAGE + 20); // two pages of memories
    await tombstoneMemory(db, ms[2].id, 5);
    const core = new EngineCore();
    const api = createEngineApi(core);
    const seen: EngineLoadProgress[] = [];
    const { size } = await api.loadFromStore({ dbName: name, producers: { encoder: ENC, lexical: LEX } }, { dim: 3 }, (p) => void seen.push(p));
    expect(size).toBe(MEMORY_PAGE + 19); // the trashed one is not indexed
    expect(seen.map((p) => p.stage).slice(0, 3)).toEqual(['memories', 'memories', 'keyword']);
    expect(seen[0]).toMatchObject({ done: MEMORY_PAGE, total: MEMORY_PAGE + 20 });
    // keyword-searchable now; no vector attached yet
    expect((await api.stats()).warm).toBe(false);
    const byWords = await api.search({ text: 'pear', vector: null }, { topK: 3 });
    expect(byWords.map((h) => h.id)).toEqual([ms[1].id]);
    await api.whenWarm();
    expect(seen.at(-1)!.stage).toBe('warm');
    expect((await api.stats()).warm).toBe(true);
    // by meaning alone: m0 along x
    const byMeaning = await api.search({ text: 'zzz', vector: new Float32Array([1, 0, 0]) }, { topK: 1 });
    expect(byMeaning.map((h) => h.id)).toEqual([ms[0].id]);
    expect(core.stats().spaces).toBe(MEMORY_PAGE + 18); // every live memory with a current feature: m1's E1 is another encoder's
    // m1 (stale E1) has no vector: a query along y finds nothing near it
    const y = await api.search({ text: 'zzz', vector: new Float32Array([0, 1, 0]) }, { topK: 1 });
    expect(y[0]?.id).not.toBe(ms[1].id);
    db.close();
  });

  it('a write that reaches the engine while the features load keeps its own features', async () => {
    const { db, name, ms } = await store(50);
    const api = createEngineApi(new EngineCore());
    await api.loadFromStore({ dbName: name, producers: { encoder: ENC, lexical: LEX } }, { dim: 3 });
    // an edit arrives before the stored features are attached: m0 now points along y
    await api.upsert({ ...engineDoc(ms[0].id, 'red apple orchard', [0, 1, 0]) });
    await api.remove(ms[3].id);
    await api.whenWarm();
    const y = await api.search({ text: 'zzz', vector: new Float32Array([0, 1, 0]) }, { topK: 1 });
    expect(y.map((h) => h.id)).toEqual([ms[0].id]);
    expect((await api.stats()).size).toBe(49);
    db.close();
  });

  it('a memory whose spaces sit in blocks of different numbers is attached once, with every space', async () => {
    const name = freshDbName();
    const db = await openDb(name);
    // 600 memories with E1 and E6: blocks 1 (512) and 2 (88) of each space; then m0's E6 replaced
    // (an edit): it leaves E6 block 1 for the last E6 block, so its spaces are in blocks 1 and 2
    const ms = Array.from({ length: 600 }, (_, i) => memory(`m${String(i).padStart(6, '0')}`, `note ${i}`));
    await insertMemories(db, ms, ms.flatMap((m) => [e1(m.id, [0, 0, 1]), e6(m.id)]));
    const moved = packSpace(ms[0].id, 'E6', serializeSpace('E6', sparseFromEntries([[9, 1]])), LEX);
    await db.transaction('rw', db.featureHeads, db.featureData, () => putFeatureRows(db, [moved]));
    const core = new EngineCore();
    const api = createEngineApi(core);
    const seen: EngineLoadProgress[] = [];
    await api.loadFromStore({ dbName: name, producers: { encoder: ENC, lexical: LEX } }, { dim: 3 }, (p) => void seen.push(p));
    await api.whenWarm();
    expect(seen.at(-1)).toMatchObject({ stage: 'warm', done: 600 });
    const spaces = (core as unknown as { spaces: { features(id: string): Record<string, unknown> | undefined } }).spaces;
    // m0 carries its new E6 (term 9) and its vector; a memory of block 2 its own E6
    expect(spaces.features(ms[0].id)?.E6).toEqual(sparseFromEntries([[9, 1]]));
    expect(spaces.features(ms[599].id)?.E6).toEqual(sparseFromEntries([[3, 1]]));
    expect(core.stats().spaces).toBe(600);
    db.close();
  });

  it('an empty store loads empty and is warm at once', async () => {
    const name = freshDbName();
    (await openDb(name)).close();
    const api = createEngineApi(new EngineCore());
    expect(await api.loadFromStore({ dbName: name, producers: { encoder: ENC, lexical: LEX } }, { dim: 3 })).toEqual({ size: 0 });
    await api.whenWarm();
    expect((await api.stats()).warm).toBe(true);
  });
});
