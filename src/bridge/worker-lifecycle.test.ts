// The lifecycle against a real Comlink endpoint (a MessageChannel standing in for a Worker). The
// clock is fake (timers only: the port's messages flow as they really do), so a wait, a timeout or
// an idle shutdown happens when the test moves time on, never by sleeping.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../core/errors';
import { channelWorkers } from '../testing/channel-worker';
import { codeOf } from '../testing/errors';
import { WorkerLifecycle } from './worker-lifecycle';

/** What the worker did, in order; `reached` resolves once an entry is logged (no polling). */
function workerLog() {
  const entries: string[] = [];
  const waiting = new Map<string, () => void>();
  return {
    entries,
    push(entry: string) {
      entries.push(entry);
      waiting.get(entry)?.();
    },
    reached(entry: string): Promise<void> {
      if (entries.includes(entry)) return Promise.resolve();
      return new Promise((r) => waiting.set(entry, r));
    },
  };
}
type WorkerLog = ReturnType<typeof workerLog>;

function makeApi(log: WorkerLog) {
  const cancelled = new Set<string>();
  return {
    async echo(x: string) {
      log.push(x);
      return x;
    },
    async wait(ms: number, id: string) {
      log.push(`${id}-start`);
      await new Promise((r) => setTimeout(r, ms));
      log.push(cancelled.has(id) ? `${id}-cancelled` : `${id}-end`);
      return id;
    },
    /** Marks the call; it still runs to its end (as a worker busy in a computation would). */
    cancel(id: string) {
      log.push(`${id}-cancel`);
      cancelled.add(id);
    },
    hang(id: string) {
      log.push(`${id}-start`);
      return new Promise<never>(() => undefined);
    },
    fail() {
      throw { code: 'INVALID_OPTION', message: 'bad option', detail: 'k' };
    },
    boom() {
      throw new Error('kaboom');
    },
  };
}
type Api = ReturnType<typeof makeApi>;

function harness(opts: Partial<ConstructorParameters<typeof WorkerLifecycle<Api>>[0]> = {}) {
  const log = workerLog();
  const crashes: AppError[] = [];
  const { spawn, workers } = channelWorkers(() => makeApi(log));
  const life = new WorkerLifecycle<Api>({ spawn, timeoutMs: 1000, onCrash: (e) => crashes.push(e), ...opts });
  return { life, log, crashes, workers };
}

/** Whether a promise has settled yet (checked after the pending callbacks ran). */
function settledFlag(p: Promise<unknown>): () => boolean {
  let settled = false;
  p.then(
    () => (settled = true),
    () => (settled = true),
  );
  return () => settled;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('WorkerLifecycle', () => {
  it('starts lazily and runs setup once per worker', async () => {
    let setups = 0;
    const { life } = harness({ setup: async (r) => void (setups++, await r.echo('setup')) });
    expect(life.starts).toBe(0);
    expect(await life.call((r) => r.echo('a'))).toBe('a');
    expect(await life.call((r) => r.echo('b'))).toBe('b');
    expect([life.starts, setups]).toEqual([1, 1]);
    life.dispose();
  });

  it('runs calls one at a time in arrival order', async () => {
    const { life, log } = harness();
    // run together, c (5 ms) would end before a (30 ms)
    const all = Promise.all([life.call((r) => r.wait(30, 'a')), life.call((r) => r.echo('b')), life.call((r) => r.wait(5, 'c'))]);
    await log.reached('a-start');
    await vi.advanceTimersByTimeAsync(30);
    await log.reached('c-start');
    await vi.advanceTimersByTimeAsync(5);
    expect(await all).toEqual(['a', 'b', 'c']);
    expect(log.entries).toEqual(['a-start', 'a-end', 'b', 'c-start', 'c-end']);
    life.dispose();
  });

  it('answers an abort at once, forwards it, and keeps the slot until the worker is done', async () => {
    const { life, log } = harness();
    const ac = new AbortController();
    const a = life.call((r) => r.wait(400, 'a'), { signal: ac.signal, onAbort: (r) => void r.cancel('a') });
    const b = life.call((r) => r.echo('b'));
    await log.reached('a-start');
    ac.abort();
    expect(await codeOf(a)).toBe('ABORTED');
    expect(log.entries).toEqual(['a-start']); // rejected before the worker finished
    await log.reached('a-cancel');
    await vi.advanceTimersByTimeAsync(399);
    expect(log.entries).toEqual(['a-start', 'a-cancel']); // b waits while a still runs in the worker
    await vi.advanceTimersByTimeAsync(1);
    await b;
    expect(log.entries).toEqual(['a-start', 'a-cancel', 'a-cancelled', 'b']);
    life.dispose();
  });

  it('drops a call aborted while queued without sending it', async () => {
    const { life, log } = harness();
    const ac = new AbortController();
    const a = life.call((r) => r.wait(20, 'a'));
    const b = life.call((r) => r.echo('b'), { signal: ac.signal });
    ac.abort();
    expect(await codeOf(b)).toBe('ABORTED'); // at once: the clock has not moved, a still runs
    await log.reached('a-start');
    await vi.advanceTimersByTimeAsync(20);
    await a;
    expect(await life.call((r) => r.echo('c'))).toBe('c');
    expect(log.entries).toEqual(['a-start', 'a-end', 'c']); // b never reached the worker
    const pre = new AbortController();
    pre.abort();
    expect(await codeOf(life.call((r) => r.echo('d'), { signal: pre.signal }))).toBe('ABORTED');
    expect(log.entries).toEqual(['a-start', 'a-end', 'c']);
    life.dispose();
  });

  it('times out a hung call, restarts the worker, and the next call works', async () => {
    const { life, log, workers, crashes } = harness({ timeoutMs: 50 });
    const hung = codeOf(life.call((r) => r.hang('a')));
    const settled = settledFlag(hung);
    await log.reached('a-start');
    await vi.advanceTimersByTimeAsync(49);
    expect(settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await hung).toBe('TIMEOUT');
    expect(workers[0].terminated).toBe(true);
    expect(crashes.map((e) => e.code)).toEqual(['WORKER_CRASHED']);
    expect(await life.call((r) => r.echo('x'))).toBe('x');
    expect(life.starts).toBe(2);
    life.dispose();
  });

  it('on a crash rejects every pending call with WORKER_CRASHED and restarts on the next call', async () => {
    const { life, log, workers, crashes } = harness({ serial: false });
    const a = life.call((r) => r.hang('a'));
    const b = life.call((r) => r.hang('b'));
    await Promise.all([log.reached('a-start'), log.reached('b-start')]); // both are in the worker
    workers[0].crash('out of memory');
    expect([await codeOf(a), await codeOf(b)]).toEqual(['WORKER_CRASHED', 'WORKER_CRASHED']);
    expect(crashes.map((e) => [e.code, e.detail])).toEqual([['WORKER_CRASHED', 'out of memory']]);
    expect(workers[0].terminated).toBe(true);
    expect(await life.call((r) => r.echo('again'))).toBe('again');
    expect(life.starts).toBe(2);
    life.dispose();
  });

  it('turns envelopes into AppErrors and anything else into the fallback code', async () => {
    const { life } = harness({ fallbackErrorCode: 'MODEL_LOAD_FAILED' });
    const err = await life.call((r) => r.fail()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'INVALID_OPTION', message: 'bad option', detail: 'k' });
    const boom = await life.call((r) => r.boom()).catch((e: unknown) => e);
    expect(boom).toMatchObject({ code: 'MODEL_LOAD_FAILED', detail: 'Error: kaboom' });
    life.dispose();
  });

  it('retries a failed setup on the next call', async () => {
    let attempt = 0;
    const { life } = harness({
      setup: async () => {
        if (attempt++ === 0) throw { code: 'MODEL_LOAD_FAILED', message: 'no model' };
      },
    });
    expect(await codeOf(life.call((r) => r.echo('a')))).toBe('MODEL_LOAD_FAILED');
    expect(await life.call((r) => r.echo('b'))).toBe('b');
    expect(life.starts).toBe(2);
    life.dispose();
  });

  it('shuts down when idle and comes back on demand', async () => {
    const { life, workers, crashes } = harness({ idleMs: 20 });
    await life.call((r) => r.echo('a'));
    await vi.advanceTimersByTimeAsync(19);
    expect(life.isRunning).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(life.isRunning).toBe(false);
    expect(workers[0].terminated).toBe(true);
    expect(crashes).toEqual([]); // an idle shutdown is no crash
    await life.call((r) => r.echo('b'));
    expect(life.starts).toBe(2);
    life.dispose();
    expect(await codeOf(life.call((r) => r.echo('c')))).toBe('WORKER_CRASHED');
  });
});
