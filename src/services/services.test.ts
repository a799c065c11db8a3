import 'fake-indexeddb/auto';
import { storedVectors } from '../testing/db';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import { isUuidV7, uuidV7Time } from '../core/ids';
import { MAX_EMBED_CHARS } from '../embed/types';
import { createSearchController, dbStatus, disposeServices, services } from './index';
import { createChannelEngine } from '../testing/engine';
import { codeOf } from '../testing/errors';
import { freshDbName, initTestServices, openOtherTab, startServices } from '../testing/services';
import type { Observable } from 'dexie';

const start = (dbName?: string) => startServices({ dbName, sessionId: 'session-1' });

function first<T>(o: Observable<T>): Promise<T> {
  return new Promise((res, rej) => {
    const sub = o.subscribe({
      next: (v) => {
        res(v);
        queueMicrotask(() => sub.unsubscribe());
      },
      error: rej,
    });
  });
}

describe('addMemory / getMemory', () => {
  it('validates, stores memory + E1 vector in one go, and indexes it', async () => {
    const { s } = await start();
    const m = await services().addMemory({ text: 'Walked the dog along the river', tags: ' Outdoors, Dog  Walks ,outdoors', importance: 0.8, source: 'diary' });
    expect(isUuidV7(m.id)).toBe(true);
    expect(m).toMatchObject({ tags: ['outdoors', 'dog-walks'], importance: 0.8, source: 'diary', status: 'active', deletedAt: null, embedTruncated: false, sessionId: 'session-1', validTo: null });
    expect(m.validFrom).toBe(m.createdAt);
    expect(await services().getMemory(m.id)).toEqual(m);
    const vec = await storedVectors.get(s.db, m.id, 'E1');
    // E1 is serialised like every space: a 4-byte header, then 32 floats
    expect(vec).toMatchObject({ memoryId: m.id, space: 'E1', dim: 4 + 32 * 4, dtype: 'space', model: 'fake-hash/v1' });
    expect(vec!.data.byteLength).toBe(4 + 32 * 4);
    expect((await services().engineStats()).size).toBe(1);
    const hits = await services().search('river dog');
    expect(hits.map((h) => h.memory.id)).toEqual([m.id]);
    expect(hits[0].hit.why.matchedTerms.length).toBeGreaterThan(0);
    expect(hits[0].explanation).toMatch(/words: /);
  });

  it('rejects bad input with its code and stores nothing', async () => {
    const { s } = await start();
    expect(await codeOf(services().addMemory({ text: '   ' }))).toBe('EMPTY_TEXT');
    expect(await codeOf(services().addMemory({ text: 'x', importance: 2 }))).toBe('INVALID_IMPORTANCE');
    expect(await codeOf(services().addMemory({ text: 'x', importance: NaN }))).toBe('INVALID_IMPORTANCE');
    expect(await s.db.memories.count()).toBe(0);
    expect(await codeOf(services().getMemory('nope'))).toBe('NOT_FOUND');
  });

  it('stores a several-MB memory whole; only a bounded prefix is embedded', async () => {
    const { s, embedder } = await start();
    const text = 'lorem ipsum dolor sit amet '.repeat(150_000); // 4.05 MB
    const m = await services().addMemory({ text });
    expect(m.embedTruncated).toBe(true);
    const row = await s.db.memories.get(m.id);
    expect(row!.text.length).toBe(4_050_000);
    expect(row!.text).toBe(text);
    expect(embedder.calls[0].length).toBeLessThanOrEqual(MAX_EMBED_CHARS);
    expect((await services().addMemory({ text: 'short' })).embedTruncated).toBe(false);
  });

  it('an encoder failure stores nothing', async () => {
    const { s, embedder } = await start();
    embedder.failNext = new AppError('MODEL_LOAD_FAILED');
    expect(await codeOf(services().addMemory({ text: 'hello' }))).toBe('MODEL_LOAD_FAILED');
    expect(await s.db.memories.count()).toBe(0);
  });
});

describe('importMemories', () => {
  it('imports with past times and sessions in one transaction, indexed, with progress', async () => {
    const { s, embedder } = await start();
    const progress: string[] = [];
    const inputs = [
      { text: 'started sourdough', tags: ['Bread'], createdAt: 1_000, sessionId: 's-a' },
      { text: 'fed the starter', createdAt: 2_000, sessionId: 's-a' },
      { text: 'baked first loaf', createdAt: 3_000, sessionId: 's-b', importance: 0.9 },
    ];
    const out = await services().importMemories(inputs, { batchSize: 2, onProgress: (p) => progress.push(`${p.phase} ${p.embedded}/${p.total}`) });
    // per batch while embedding, then the phases that follow, named
    expect(progress).toEqual(['embedding 2/3', 'embedding 3/3', 'saving 3/3', 'indexing 3/3']);
    expect(embedder.calls.length).toBe(3);
    expect(out.map((m) => [m.createdAt, m.validFrom, m.sessionId, m.tags])).toEqual([
      [1000, 1000, 's-a', ['bread']],
      [2000, 2000, 's-a', []],
      [3000, 3000, 's-b', []],
    ]);
    expect(await storedVectors.count(s.db)).toBe(3 * 4); // E1 + the temporal E2-E4 (a plain embedder cannot featurize more)
    expect(out.map((m) => uuidV7Time(m.id))).toEqual([1000, 2000, 3000]);
    expect((await services().engineStats()).size).toBe(3);
    expect((await services().search('loaf')).map((h) => h.memory.id)).toEqual([out[2].id]);
    expect((await first(services().liveMemories())).map((m) => m.text)).toEqual(['baked first loaf', 'fed the starter', 'started sourdough']);
  });

  it('uses stored E1 vectors only from the encoder now running: those texts are not encoded again', async () => {
    const { embedder } = await start();
    const known = new Float32Array(32);
    known[3] = 1; // a unit vector the hashed embedder would never make for this text
    const inputs = [
      { text: 'started sourdough', semantic: known },
      { text: 'fed the starter' }, // no vector: encoded
      { text: 'baked first loaf', semantic: new Float32Array(31) }, // wrong size: encoded
    ];
    const out = await services().importMemories(inputs, { semanticFrom: 'fake-hash/v1' });
    expect(embedder.calls).toEqual(['fed the starter', 'baked first loaf']);
    const e1 = (await storedVectors.get(services().db, out[0].id, 'E1'))!;
    expect(Array.from(new Float32Array(e1.data.slice(4)))).toEqual(Array.from(known)); // after the 4-byte header
    // vectors of another encoder: ignored, every text encoded
    embedder.calls.length = 0;
    await services().importMemories([{ text: 'rye flour order', semantic: known }], { semanticFrom: 'use-lite/other' });
    expect(embedder.calls).toEqual(['rye flour order']);
  });

  it('one bad item or a full disk stores nothing', async () => {
    const { s, embedder } = await start();
    const err = await services().importMemories([{ text: 'fine' }, { text: '  ' }]).catch((e) => e);
    expect((err as AppError).code).toBe('EMPTY_TEXT');
    expect((err as AppError).message).toMatch(/^Item 2: /);
    expect(embedder.calls.length).toBe(0); // validated before any encoding
    s.db.featureData.hook('creating', () => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    expect(await codeOf(services().importMemories([{ text: 'a' }, { text: 'b' }]))).toBe('QUOTA_EXCEEDED');
    expect(await s.db.memories.count()).toBe(0);
    expect((await services().engineStats()).size).toBe(0);
    const ac = new AbortController();
    ac.abort();
    expect(await codeOf(services().importMemories([{ text: 'a' }], { signal: ac.signal }))).toBe('ABORTED');
  });
});

describe('quota', () => {
  it('QUOTA_EXCEEDED mid-write leaves neither memory nor vector, nor an index entry', async () => {
    const { s } = await start();
    await services().addMemory({ text: 'before the disk filled up' });
    // schema v9: the second memory's features go into the first one's blocks (an update of them)
    const full = () => {
      throw new DOMException('quota', 'QuotaExceededError');
    };
    s.db.featureData.hook('creating', full);
    s.db.featureData.hook('updating', full);
    expect(await codeOf(services().addMemory({ text: 'this one does not fit' }))).toBe('QUOTA_EXCEEDED');
    expect(await s.db.memories.count()).toBe(1);
    expect(await storedVectors.count(s.db)).toBe(4); // the first memory's E1-E4
    expect((await services().engineStats()).size).toBe(1);
    expect(await services().search('fit')).toEqual([]);
  });
});

describe('update / delete / status', () => {
  it('tombstones on delete, hides from lists and search, and restores', async () => {
    let t = 1_000;
    const { s } = await startServices({ now: () => t });
    const a = await services().addMemory({ text: 'alpha apples' });
    const b = await services().addMemory({ text: 'beta bananas' });
    t = 5_000;
    await services().deleteMemory(a.id);
    const row = await s.db.memories.get(a.id);
    expect(row).toMatchObject({ id: a.id, text: 'alpha apples', deletedAt: 5_000 }); // a tombstone, not a removal
    expect(await storedVectors.get(s.db, a.id, 'E1')).toMatchObject({ memoryId: a.id, space: 'E1', model: 'fake-hash/v1' }); // kept with it
    expect(await codeOf(services().getMemory(a.id))).toBe('NOT_FOUND');
    expect((await services().getMemory(a.id, { includeDeleted: true })).id).toBe(a.id);
    expect(await services().search('apples')).toEqual([]);
    expect((await first(services().liveMemories())).map((m) => m.id)).toEqual([b.id]);
    expect(await first(services().liveMemoryCount())).toBe(1);
    expect(await codeOf(services().deleteMemory(a.id))).toBe('NOT_FOUND');
    await services().restoreMemory(a.id);
    expect((await services().search('apples')).map((h) => h.memory.id)).toEqual([a.id]);
    expect(await first(services().liveMemoryCount())).toBe(2);
  });

  it('lists newest first', async () => {
    let t = 1000;
    await startServices({ now: () => (t += 10) });
    const ids = [];
    for (const text of ['one', 'two', 'three']) ids.push((await services().addMemory({ text })).id);
    expect((await first(services().liveMemories(2))).map((m) => m.id)).toEqual([ids[2], ids[1]]);
  });

  it('quarantine hides from search unless asked; archive likewise', async () => {
    await start();
    const m = await services().addMemory({ text: 'suspicious claim about comets' });
    await services().setStatus(m.id, 'quarantined');
    expect(await services().search('comets')).toEqual([]);
    expect((await services().search('comets', { includeQuarantined: true })).map((h) => h.memory.status)).toEqual(['quarantined']);
    await services().setStatus(m.id, 'archived');
    expect(await services().search('comets', { includeQuarantined: true })).toEqual([]);
    expect((await services().search('comets', { includeArchived: true })).length).toBe(1);
    await services().setStatus(m.id, 'active');
    expect((await services().search('comets')).length).toBe(1);
    expect(await codeOf(services().setStatus(m.id, 'gone' as never))).toBe('INVALID_OPTION');
  });

  it('updating the text re-embeds and re-indexes; tags are normalised', async () => {
    const { s, embedder } = await start();
    const m = await services().addMemory({ text: 'old words here' });
    const before = embedder.calls.length;
    const u = await services().updateMemory(m.id, { text: 'completely fresh vocabulary', tags: 'New Tag' });
    expect(embedder.calls.length).toBe(before + 1);
    expect(u.tags).toEqual(['new-tag']);
    expect(u.createdAt).toBe(m.createdAt);
    // the old text is an earlier version now (issue 9): still found by its words, marked as replaced by m
    expect((await services().search('old words')).map((h) => h.memory.supersededBy)).toEqual([m.id]);
    expect((await services().search('fresh vocabulary')).map((h) => h.memory.id)).toEqual([m.id]);
    // a tag-only change does not re-embed, and keeps the vector in the index
    await services().updateMemory(m.id, { importance: 0.9 });
    expect(embedder.calls.length).toBe(before + 1 + 2); // + the two searches' query embeddings
    const hits = await services().search('fresh vocabulary');
    expect(hits[0].hit.why.cosine).toBeGreaterThan(0.5);
    expect((await s.db.memories.get(m.id))!.importance).toBe(0.9);
    expect(await codeOf(services().updateMemory(m.id, { importance: -1 }))).toBe('INVALID_IMPORTANCE');
  });
});

describe('search', () => {
  it('validates options and returns [] for an empty query', async () => {
    await start();
    expect(await services().search('   ')).toEqual([]);
    expect(await codeOf(services().search('x', { topK: 0 }))).toBe('INVALID_OPTION');
    expect(await codeOf(services().search('x', { topK: 1.5 }))).toBe('INVALID_OPTION');
    expect(await codeOf(services().search('x', { asOf: NaN }))).toBe('INVALID_OPTION');
    const ac = new AbortController();
    ac.abort();
    expect(await codeOf(services().search('x', {}, ac.signal))).toBe('ABORTED');
  });

  it('semantic: false searches keywords only without calling the encoder', async () => {
    const { embedder } = await start();
    await services().addMemory({ text: 'orange cat' });
    const calls = embedder.calls.length;
    const hits = await services().search('cat', { semantic: false });
    expect(hits.map((h) => h.memory.text)).toEqual(['orange cat']);
    expect(hits[0].hit.why.semantic).toBe(0);
    expect(embedder.calls.length).toBe(calls);
    expect(await codeOf(services().search('cat', { semantic: 'no' as never }))).toBe('INVALID_OPTION');
  });

  it('asOf filters by the valid-time interval', async () => {
    await start();
    await services().addMemory({ text: 'lived in paris', validFrom: 100, validTo: 200 });
    await services().addMemory({ text: 'lived in rome', validFrom: 200 });
    expect((await services().search('lived', { asOf: 150 })).map((h) => h.memory.text)).toEqual(['lived in paris']);
    expect((await services().search('lived', { asOf: 250 })).map((h) => h.memory.text)).toEqual(['lived in rome']);
  });

  it('the controller drops a stale answer that arrives after a fresh one', async () => {
    await start();
    await services().addMemory({ text: 'a memory' });
    const real = services();
    const resolvers: (() => void)[] = [];
    const signals: AbortSignal[] = [];
    const orig = real.search.bind(real);
    // delay each search until the test releases it, so answers can come back out of order
    real.search = (q, o, signal) => {
      signals.push(signal!);
      return new Promise<void>((r) => resolvers.push(r)).then(() => orig(q, o));
    };
    const c = createSearchController();
    const p1 = c.run('memory');
    const p2 = c.run('a memory');
    expect(signals[0].aborted).toBe(true); // the previous request was aborted
    expect(signals[1].aborted).toBe(false);
    resolvers[1](); // the fresh one answers first
    const r2 = await p2;
    resolvers[0](); // then the stale one
    const r1 = await p1;
    expect(r2).toMatchObject({ status: 'fresh', requestId: 2, query: 'a memory' });
    expect(r1).toEqual({ status: 'stale', requestId: 1 });
    expect(c.latestRequestId()).toBe(2);
  });
});

describe('engine lifecycle', () => {
  it('initServices fills the engine from existing data; a crash reloads from the db', async () => {
    const first = await start();
    const a = await services().addMemory({ text: 'persistent penguin' });
    disposeServices();
    const { engine } = await start(first.dbName);
    expect((await services().engineStats()).size).toBe(1);
    const b = await services().addMemory({ text: 'second penguin' });
    engine.crash();
    expect(engine.cores.length).toBe(first.engine.cores.length); // one worker per start so far
    const hits = await services().search('penguin');
    expect(engine.cores.length).toBe(2); // restarted
    expect(hits.map((h) => h.memory.id).sort()).toEqual([a.id, b.id].sort());
  });
});

describe('featurizeMissing after a model change', () => {
  it('never moves a store to the encoder running instead of its own; a memory saved meanwhile is filled by the store\'s encoder later', async () => {
    const { dbName } = await start();
    const a = await services().addMemory({ text: 'violin practice scales' });
    disposeServices();
    await startServices({ dbName, model: 'fake-hash/v2' }); // another encoder: old vectors must not be mixed in
    const before = await services().search('violin');
    expect(before[0].hit.why.cosine).toBe(0); // no vector in the index: lexical only
    expect(await services().featurizeMissing()).toBe(0); // moving the store is the switch's job
    expect((await storedVectors.get(services().db, a.id, 'E1'))!.model).toBe('fake-hash/v1');
    const b = await services().addMemory({ text: 'violin lesson on tuesday' });
    disposeServices();
    await startServices({ dbName }); // the store's encoder again
    const progress: number[] = [];
    expect(await services().featurizeMissing({ onProgress: (p) => progress.push(p.embedded) })).toBe(1);
    expect(progress).toEqual([1]);
    expect((await storedVectors.get(services().db, b.id, 'E1'))!.model).toBe('fake-hash/v1');
    const after = await services().search('violin');
    expect(after.every((r) => r.hit.why.cosine > 0.3)).toBe(true);
    expect(await services().featurizeMissing()).toBe(0); // nothing left
  });
});

describe('other tabs', () => {
  it("a second tab's engine follows this tab's writes", async () => {
    const { dbName } = await start();
    const tabB = await openOtherTab(dbName);
    await tabB.engine.start();
    const m = await services().addMemory({ text: 'written in tab A about zebras' });
    await expect.poll(async () => (await tabB.search('zebras')).map((h) => h.memory.id)).toEqual([m.id]);
    await services().setStatus(m.id, 'quarantined');
    await expect.poll(async () => (await tabB.search('zebras')).length).toBe(0);
    await services().setStatus(m.id, 'active');
    await services().deleteMemory(m.id);
    await expect.poll(async () => (await tabB.engine.stats()).size).toBe(0);
  });
});

describe('feedback', () => {
  it('stores events and validates them', async () => {
    const { s } = await start();
    const m = await services().addMemory({ text: 'x marks the spot' });
    const f = await services().recordFeedback({ memoryId: m.id, kind: 'suppress', valence: -0.5, reason: 'off topic', mode: 'lateral' });
    expect(await s.db.feedback.get(f.id)).toEqual({ id: f.id, memoryId: m.id, kind: 'suppress', valence: -0.5, reason: 'off topic', mode: 'lateral', at: f.at });
    expect(await codeOf(services().recordFeedback({ memoryId: m.id, kind: 'like' as never }))).toBe('INVALID_OPTION');
    expect(await codeOf(services().recordFeedback({ memoryId: m.id, kind: 'reinforce', valence: 101 }))).toBe('INVALID_OPTION'); // -100..100
    expect(await codeOf(services().recordFeedback({ memoryId: 'missing', kind: 'reinforce' }))).toBe('NOT_FOUND');
  });
});

describe('database status', () => {
  it('another tab upgrading the schema surfaces SCHEMA_OUTDATED', async () => {
    const { dbName } = await start();
    await services().addMemory({ text: 'kept safe' });
    const seen: string[] = [];
    const unsub = dbStatus.subscribe((st) => seen.push(st.state));
    const newer = new Dexie(dbName);
    newer.version(4).stores({ memories: 'id', vectors: '[memoryId+space]', settings: 'key', feedback: 'id', extra: 'id' });
    await newer.open();
    expect(seen).toEqual(['outdated']);
    expect(dbStatus.get().error?.code).toBe('SCHEMA_OUTDATED');
    expect(await codeOf(services().addMemory({ text: 'after the upgrade' }))).toBe('SCHEMA_OUTDATED');
    expect(await newer.table('memories').count()).toBe(1); // nothing lost
    unsub();
    newer.close();
  });

  it('two overlapping initServices calls leave one live instance', async () => {
    const dbName = freshDbName();
    const [{ s: a }, { s: b }] = await Promise.all([startServices({ dbName }), startServices({ dbName })]);
    expect(services()).toBe(b);
    expect(a.db.isOpen()).toBe(false); // the first was replaced and closed
    expect(b.db.isOpen()).toBe(true);
    expect(await codeOf(a.engine.stats())).toBe('WORKER_CRASHED'); // its engine is shut down
  });

  it('init checks the embedder; without one it starts the stored (else the default) encoder in an embed worker bridge', async () => {
    expect(await codeOf(initTestServices({ embedder: {} as never }))).toBe('INVALID_CONFIG');
    const s = await initTestServices({ engine: createChannelEngine().factory });
    // before the model has loaded the bridge says which encoder it was asked for: the default, MiniLM
    expect(s.embedder.info()).toMatchObject({ id: 'all-MiniLM-L6-v2-int8', dim: 384 });
    expect((await services().engineStats()).dim).toBe(384);
  });
});
