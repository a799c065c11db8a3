// The full list (issue 9, Browse) at 100k memories, in Node over fake-indexeddb (an in-memory
// IndexedDB in JavaScript: slower than Chromium's, so these are upper bounds): the count and a
// window of 100 headers (the first query reads index keys only, later windows hit the cached id
// list), a tag filter, the importance sort, tag counts; against the naive way (every full row read,
// filtered and sorted in JavaScript); then "Delete all" to the trash, its undo, and the permanent
// delete. Prints figures and ratios; never fails on timings.
//
//   npx tsx scripts/bench/browse.ts   (BENCH_BROWSE_N=100000)
//
// Data (seeded): N memories as newMemoryRow builds them (120-char texts, 1-3 of 200 tags,
// importance, createdAt over two years), written in batches of 5000.
import 'fake-indexeddb/auto';
import { openDb } from '../../src/db/db';
import { liveIds, purgeMemories, trashMemories, untrashMemories } from '../../src/db/keep';
import { createContext } from '../../src/services/context';
import { createBrowse } from '../../src/services/browse';
import { newMemoryRow } from '../../src/services/ingest';
import { createFakeEmbedder } from '../../src/testing/encoder';
import type { MemoryRow } from '../../src/db/schema';
import { withV6Fields } from '../../src/db/schema';
import { textKey } from '../../src/core/text-key';

const N = Number(process.env.BENCH_BROWSE_N ?? 100_000);

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const out = await fn();
  return [performance.now() - t0, out];
}

export async function run(): Promise<Record<string, number>> {
  const db = await openDb(`bench-browse-${Date.now()}`);
  const r = rng(7);
  const t0 = Date.UTC(2024, 0, 1);
  let n = 0;
  const ctx = createContext({ db, embedder: createFakeEmbedder(), engine: () => ({}) as never, newId: () => `m${String(n++).padStart(8, '0')}` });
  const [writeMs] = await time(async () => {
    for (let i = 0; i < N; i += 5000) {
      const rows: MemoryRow[] = [];
      for (let j = i; j < Math.min(N, i + 5000); j++) {
        const tags = Array.from({ length: 1 + Math.floor(r() * 3) }, () => `tag-${Math.floor(r() * 200)}`);
        const createdAt = t0 + Math.floor(r() * 730 * 86_400_000);
        const text = `Memory ${j}: ${'lorem ipsum dolor sit amet '.repeat(4)}`.slice(0, 120);
        const m = newMemoryRow(ctx, { text, tags: [...new Set(tags)], importance: Math.round(r() * 100) / 100, validTo: null, createdAt }, false, createdAt, 's');
        rows.push(withV6Fields(m, textKey));
      }
      await db.memories.bulkAdd(rows);
    }
  });
  const browse = createBrowse(ctx);
  const [firstMs, first] = await time(() => browse.browseMemories({}, { offset: 0, limit: 100 }));
  const [windowMs] = await time(() => browse.browseMemories({}, { offset: Math.floor(N / 2), limit: 100 }));
  const [tagMs, tagged] = await time(() => browse.browseMemories({ tags: ['tag-7'] }, { limit: 100 }));
  const [importanceMs] = await time(() => browse.browseMemories({ sort: 'importance', importanceMin: 0.5 }, { limit: 100 }));
  const [countsMs, counts] = await time(() => browse.tagCounts());
  const [naiveMs] = await time(async () => {
    const all = await db.memories.toArray();
    return all.filter((m) => m.deletedAt === null && m.supersededBy === undefined).sort((a, b) => b.createdAt - a.createdAt).slice(0, 100);
  });
  // "Delete all" to the trash, its undo, and "Delete all permanently" (the repository's transactions)
  const [trashMs, moved] = await time(async () => trashMemories(db, await liveIds(db), 1));
  const [undoMs] = await time(() => untrashMemories(db, moved, 2, { deletedAt: 1 }));
  const [purgeMs] = await time(() => purgeMemories(db, { everything: true }));
  browse.disposeBrowse();
  db.close();
  const f = (x: number) => x.toFixed(0);
  console.log(`${N} memories written in ${f(writeMs)} ms (fake-indexeddb)`);
  console.log(`first window (count ${first.total} + 100 headers, index keys only): ${f(firstMs)} ms`);
  console.log(`a window at offset ${Math.floor(N / 2)} (cached ids): ${f(windowMs)} ms`);
  console.log(`tag filter (${tagged.total} memories): ${f(tagMs)} ms; importance >= 0.5 by importance: ${f(importanceMs)} ms`);
  console.log(`tag counts (${counts.length} tags): ${f(countsMs)} ms`);
  console.log(`naive (every full row read, filtered, sorted): ${f(naiveMs)} ms = ${(naiveMs / firstMs).toFixed(1)}x the first window`);
  console.log(`delete all to the trash ${f(trashMs)} ms; its undo ${f(undoMs)} ms; delete all permanently ${f(purgeMs)} ms`);
  return { n: N, writeMs, firstMs, windowMs, tagMs, importanceMs, countsMs, naiveMs, trashMs, undoMs, purgeMs };
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
