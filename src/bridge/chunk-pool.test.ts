import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import { chunksByLength, runOnPool, type ChunkRunner } from './chunk-pool';

/** A promise resolved from outside (to order the runners' steps by hand). */
function gate<T = void>() {
  let open!: (v: T) => void;
  const p = new Promise<T>((r) => (open = r));
  return { p, open };
}

/** A runner that doubles each chunk after `wait(chunk)`, logging which chunks it ran. */
function runner(name: string, log: string[], wait: (c: number) => Promise<void> = async () => undefined): ChunkRunner<number, number> {
  return {
    async run(c) {
      await wait(c);
      log.push(`${name}:${c}`);
      return c * 2;
    },
  };
}

describe('runOnPool', () => {
  it('keeps the chunks order whichever runner finishes first', async () => {
    const log: string[] = [];
    const slow = gate();
    // the helper takes chunk 1 and holds it until the main runner has done 0, 2 and 3
    const main = runner('main', log, async (c) => {
      if (c === 3) slow.open();
    });
    const helper = runner('helper', log, async (c) => {
      if (c === 1) await slow.p;
    });
    const got = await runOnPool([0, 1, 2, 3], [main, helper]);
    expect(got).toEqual([0, 2, 4, 6]);
    expect(log).toEqual(['main:0', 'main:2', 'main:3', 'helper:1']);
  });

  it('with one runner, runs the chunks one after another in order', async () => {
    const log: string[] = [];
    expect(await runOnPool([5, 6, 7], [runner('main', log)])).toEqual([10, 12, 14]);
    expect(log).toEqual(['main:5', 'main:6', 'main:7']);
  });

  it('runs every chunk on the main runner when the helper does not start, and says so', async () => {
    const log: string[] = [];
    const failures: unknown[] = [];
    const helper: ChunkRunner<number, number> = {
      ready: () => Promise.reject(new AppError('MODEL_LOAD_FAILED')),
      run: () => Promise.reject(new Error('never called')),
      onFailure: (e) => failures.push(e),
    };
    expect(await runOnPool([1, 2, 3], [runner('main', log), helper])).toEqual([2, 4, 6]);
    expect(log).toEqual(['main:1', 'main:2', 'main:3']);
    expect(failures).toHaveLength(1);
  });

  it('reruns a chunk of a helper that crashed on the main runner, and drops the helper', async () => {
    const log: string[] = [];
    const dropped: unknown[] = [];
    let helperCalls = 0;
    const helper: ChunkRunner<number, number> = {
      async run() {
        helperCalls++;
        throw new AppError('WORKER_CRASHED');
      },
      onFailure: (e) => dropped.push(e),
    };
    // chunk 1 goes to the helper (the main runner took 0), fails there, and is run by the main runner
    expect(await runOnPool([0, 1, 2, 3], [runner('main', log), helper])).toEqual([0, 2, 4, 6]);
    expect(helperCalls).toBe(1);
    expect(dropped.map((e) => (e as AppError).code)).toEqual(['WORKER_CRASHED']);
    expect([...log].sort()).toEqual(['main:0', 'main:1', 'main:2', 'main:3']);
  });

  it('reruns the chunk of a helper that fails after the main runner has run out of chunks', async () => {
    const log: string[] = [];
    const late = gate();
    const main = runner('main', log, async (c) => {
      if (c === 0) late.open();
    });
    const helper: ChunkRunner<number, number> = {
      async run() {
        await late.p;
        await new Promise((r) => setTimeout(r, 0)); // fails only once the main runner has found no chunk left
        throw new AppError('WORKER_CRASHED');
      },
      onFailure: () => undefined,
    };
    expect(await runOnPool([0, 1], [main, helper])).toEqual([0, 2]);
    expect(log).toEqual(['main:0', 'main:1']);
  });

  it("rejects with the main runner's error and starts no further chunk", async () => {
    const log: string[] = [];
    const main: ChunkRunner<number, number> = {
      async run(c) {
        log.push(`main:${c}`);
        if (c === 0) throw new AppError('INVALID_EMBEDDING');
        return c;
      },
    };
    const hold = gate();
    const helper = runner('helper', log, () => hold.p);
    const p = runOnPool([0, 1, 2, 3], [main, helper]);
    await expect(p.finally(() => undefined)).rejects.toMatchObject({ code: 'INVALID_EMBEDDING' });
    hold.open();
    await Promise.resolve();
    // the helper finished the chunk it held (1) but took no other
    expect(log.filter((l) => l.startsWith('main'))).toEqual(['main:0']);
    expect(log.some((l) => l === 'helper:2' || l === 'helper:3')).toBe(false);
  });

  it('an abort rejects ABORTED, is not retried on the main runner, and stops taking chunks', async () => {
    const ac = new AbortController();
    const log: string[] = [];
    const abortable = (name: string): ChunkRunner<number, number> => ({
      run: (c, signal) =>
        new Promise((ok, fail) => {
          if (c === 1) {
            // the caller gives up while chunk 1 runs
            signal?.addEventListener('abort', () => fail(new AppError('ABORTED')), { once: true });
            queueMicrotask(() => ac.abort());
            return;
          }
          log.push(`${name}:${c}`);
          ok(c);
        }),
      onFailure: () => log.push(`${name}:dropped`),
    });
    await expect(runOnPool([0, 1, 2, 3, 4, 5], [abortable('main'), abortable('helper')], ac.signal)).rejects.toMatchObject({ code: 'ABORTED' });
    expect(log).not.toContain('helper:dropped');
    expect(log.length).toBeLessThanOrEqual(2);
  });

  it('rejects ABORTED at once for a signal already aborted, running nothing', async () => {
    const log: string[] = [];
    const ac = new AbortController();
    ac.abort();
    await expect(runOnPool([1], [runner('main', log)], ac.signal)).rejects.toMatchObject({ code: 'ABORTED' });
    expect(log).toEqual([]);
  });
});

describe('chunksByLength', () => {
  it('cuts chunks of similar length (ties in input order) and puts results back in the input order', () => {
    const words = ['ccc', 'a', 'bb', 'dddd', 'e', 'ff'];
    const { chunks, back } = chunksByLength(words, 4, (w) => w.length);
    expect(chunks).toEqual([['a', 'e', 'bb', 'ff'], ['ccc', 'dddd']]);
    expect(back(chunks.flat().map((w) => w.toUpperCase()))).toEqual(['CCC', 'A', 'BB', 'DDDD', 'E', 'FF']);
  });

  it('with one length for all, keeps the input order', () => {
    const { chunks, back } = chunksByLength([3, 1, 2], 2, () => 0);
    expect(chunks).toEqual([[3, 1], [2]]);
    expect(back([30, 10, 20])).toEqual([30, 10, 20]);
  });
});
