// Careful ranking's background fill: one memory per judge call, recent answers' memories first,
// then the newest; it waits while a search or capture runs; stopped and started again (a reload)
// it reads only what is left; an edit is read again.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openDb } from '../db/db';
import { judgeVectorsOf } from '../db/judge-vectors';
import { insertMemories, modifyMemory } from '../db/repo';
import { freshDbName } from '../testing/db';
import { memoryRow } from '../testing/memory-row';
import { createJudgeFill, type JudgeFillProgress } from './judge-fill';

const J = 'all-mpnet-base-v2-int8';

async function store() {
  const db = await openDb(freshDbName());
  await insertMemories(
    db,
    [
      memoryRow('a', { text: 'oldest', createdAt: 1 }),
      memoryRow('b', { text: 'older', createdAt: 2 }),
      memoryRow('c', { text: 'newer', createdAt: 3 }),
      memoryRow('d', { text: 'newest', createdAt: 4 }),
    ],
    [],
  );
  return db;
}

function fakeJudge() {
  const calls: string[][] = [];
  let gate: (() => void) | null = null;
  let holdNext = false;
  return {
    calls,
    /** The next embed call waits until release(). */
    holdNext: () => void (holdNext = true),
    release: () => gate?.(),
    embed: async (texts: string[]) => {
      calls.push(texts);
      if (holdNext) {
        holdNext = false;
        await new Promise<void>((r) => (gate = r));
      }
      return texts.map((t) => Float32Array.from([t.length, 1]));
    },
  };
}

describe('the judge fill', () => {
  it('reads every live memory one at a time, newest first, and a recent answer\'s memories ahead', async () => {
    const db = await store();
    const judge = fakeJudge();
    const seen: JudgeFillProgress[] = [];
    const fill = createJudgeFill({ db, judgeId: J, embed: judge.embed, busy: () => false, whenIdle: async () => {}, onProgress: (p) => seen.push(p) });
    judge.holdNext(); // the first call ('newest') waits: meanwhile an answer names 'a'
    fill.start();
    await expect.poll(() => judge.calls.length).toBe(1);
    fill.prioritise(['a']);
    judge.release();
    await fill.settled();
    expect(judge.calls).toEqual([['newest'], ['oldest'], ['newer'], ['older']]);
    expect(fill.progress()).toMatchObject({ done: 4, total: 4, running: false });
    expect(seen.map((p) => p.done)).toContain(2);
    expect((await judgeVectorsOf(db, J, ['a', 'b', 'c', 'd'])).size).toBe(4);
    fill.stop();
    db.close();
  });

  it('waits while a search or capture runs, and goes on when it ends', async () => {
    const db = await store();
    const judge = fakeJudge();
    let busy = true;
    let idle!: () => void;
    const fill = createJudgeFill({
      db,
      judgeId: J,
      embed: judge.embed,
      busy: () => busy,
      whenIdle: () => new Promise<void>((r) => (idle = r)),
      onProgress: () => {},
    });
    fill.start();
    await expect.poll(() => fill.progress().paused).toBe(true);
    expect(judge.calls).toEqual([]); // nothing read while the search runs
    busy = false;
    idle();
    await fill.settled();
    expect(judge.calls.length).toBe(4);
    fill.stop();
    db.close();
  });

  it('stopped mid-way and started again (a reload) it reads only what is left; an edit is read again', async () => {
    const db = await store();
    const first = fakeJudge();
    const a = createJudgeFill({ db, judgeId: J, embed: first.embed, busy: () => false, whenIdle: async () => {}, onProgress: () => {} });
    first.holdNext();
    a.start();
    await expect.poll(() => first.calls.length).toBe(1);
    // the second item waits: stop after the first is stored
    a.stop();
    first.release();
    await a.settled();
    const kept = (await judgeVectorsOf(db, J, ['a', 'b', 'c', 'd'])).size;
    expect(kept).toBeLessThanOrEqual(1);

    const second = fakeJudge();
    const b = createJudgeFill({ db, judgeId: J, embed: second.embed, busy: () => false, whenIdle: async () => {}, onProgress: () => {} });
    b.start();
    await b.settled();
    expect(second.calls.length).toBe(4 - kept);
    expect(b.progress()).toMatchObject({ done: 4, total: 4 });
    await modifyMemory(db, 'b', (m) => ({ ...m, text: 'older, edited' }));
    b.kick();
    await expect.poll(() => second.calls.at(-1)).toEqual(['older, edited']);
    await b.settled();
    expect(b.progress()).toMatchObject({ done: 4, total: 4 });
    b.stop();
    db.close();
  });
});
