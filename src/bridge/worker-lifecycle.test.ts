// The lifecycle against a real Comlink endpoint (a MessageChannel standing in for a Worker).
import * as Comlink from 'comlink';
import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../core/errors';
import { WorkerLifecycle, type WorkerHandle } from './worker-lifecycle';

function makeApi(log: string[]) {
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
    cancel(id: string) {
      cancelled.add(id);
    },
    hang() {
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
  const log: string[] = [];
  const crashes: AppError[] = [];
  const workers: Array<{ crash: (d: string) => void; terminated: boolean }> = [];
  const life = new WorkerLifecycle<Api>({
    spawn: (): WorkerHandle => {
      const { port1, port2 } = new MessageChannel();
      Comlink.expose(makeApi(log), port2 as unknown as Comlink.Endpoint);
      const w = { crash: (_d: string) => undefined as void, terminated: false };
      workers.push(w);
      return {
        port: port1 as unknown as Comlink.Endpoint,
        terminate: () => {
          w.terminated = true;
          port1.close();
          port2.close();
        },
        onCrash: (cb) => (w.crash = cb),
      };
    },
    timeoutMs: 1000,
    onCrash: (e) => crashes.push(e),
    ...opts,
  });
  return { life, log, crashes, workers };
}

const codeOf = (p: Promise<unknown>) => p.then(() => 'resolved', (e: unknown) => (e instanceof AppError ? e.code : `not an AppError: ${String(e)}`));

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
    await Promise.all([life.call((r) => r.wait(30, 'a')), life.call((r) => r.echo('b')), life.call((r) => r.wait(5, 'c'))]);
    expect(log).toEqual(['a-start', 'a-end', 'b', 'c-start', 'c-end']);
    life.dispose();
  });

  it('answers an abort at once, forwards it, and keeps the slot until the worker is done', async () => {
    const { life, log } = harness();
    const ac = new AbortController();
    // The worker's call runs long enough that the abort always lands while it runs, even on a
    // loaded machine; we wait for it to start rather than for a fixed time.
    const a = life.call((r) => r.wait(400, 'a'), { signal: ac.signal, onAbort: (r) => void r.cancel('a') });
    const b = life.call((r) => r.echo('b'));
    await vi.waitUntil(() => log.includes('a-start'), { timeout: 5000, interval: 2 });
    ac.abort();
    expect(await codeOf(a)).toBe('ABORTED');
    expect(log).toEqual(['a-start']); // rejected before the worker finished
    await b;
    expect(log).toEqual(['a-start', 'a-cancelled', 'b']);
    life.dispose();
  });

  it('drops a call aborted while queued without sending it', async () => {
    const { life, log } = harness();
    const ac = new AbortController();
    const a = life.call((r) => r.wait(20, 'a'));
    const b = life.call((r) => r.echo('b'), { signal: ac.signal });
    ac.abort();
    expect(await codeOf(b)).toBe('ABORTED');
    await a;
    expect(log).toEqual(['a-start', 'a-end']);
    const pre = new AbortController();
    pre.abort();
    expect(await codeOf(life.call((r) => r.echo('c'), { signal: pre.signal }))).toBe('ABORTED');
    life.dispose();
  });

  it('times out a hung call, restarts the worker, and the next call works', async () => {
    const { life, workers, crashes } = harness({ timeoutMs: 50 });
    expect(await codeOf(life.call((r) => r.hang()))).toBe('TIMEOUT');
    expect(workers[0].terminated).toBe(true);
    expect(crashes.map((e) => e.code)).toEqual(['WORKER_CRASHED']);
    expect(await life.call((r) => r.echo('x'))).toBe('x');
    expect(life.starts).toBe(2);
    life.dispose();
  });

  it('on a crash rejects every pending call with WORKER_CRASHED and restarts on the next call', async () => {
    const { life, workers, crashes } = harness({ serial: false });
    const a = life.call((r) => r.hang());
    const b = life.call((r) => r.hang());
    await new Promise((r) => setTimeout(r, 10));
    workers[0].crash('out of memory');
    expect([await codeOf(a), await codeOf(b)]).toEqual(['WORKER_CRASHED', 'WORKER_CRASHED']);
    expect(crashes[0].detail).toBe('out of memory');
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
    expect(life.isRunning).toBe(true);
    await new Promise((r) => setTimeout(r, 60));
    expect(life.isRunning).toBe(false);
    expect(workers[0].terminated).toBe(true);
    expect(crashes).toEqual([]);
    await life.call((r) => r.echo('b'));
    expect(life.starts).toBe(2);
    life.dispose();
    expect(await codeOf(life.call((r) => r.echo('c')))).toBe('WORKER_CRASHED');
  });
});
