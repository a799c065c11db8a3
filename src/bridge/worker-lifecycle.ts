// Owns one Comlink worker's life, for any worker API: lazy start (spawn + setup), calls one at a
// time in arrival order (or concurrently), AbortSignal first, per-call timeout, crash -> every
// pending call rejects WORKER_CRASHED and the next call starts a fresh worker, optional idle
// shutdown. Errors from the worker arrive as ErrorEnvelopes and leave as AppErrors.
import * as Comlink from 'comlink';
import { AppError, toAppError, type ErrorCode } from '../core/errors';

/** A started worker, abstracted so tests can drive a MessageChannel and simulate crashes. */
export interface WorkerHandle {
  port: Comlink.Endpoint;
  terminate(): void;
  /** Called when the worker dies (uncaught error, undeserialisable message). */
  onCrash(cb: (detail: string) => void): void;
}

/** Wraps a real module Worker as a WorkerHandle. */
export function handleFromWorker(worker: Worker): WorkerHandle {
  return {
    port: worker,
    terminate: () => worker.terminate(),
    onCrash(cb) {
      worker.addEventListener('error', (e) => {
        e.preventDefault();
        cb(e.message || 'worker error');
      });
      worker.addEventListener('messageerror', () => cb('a message could not be deserialised'));
    },
  };
}

export interface WorkerLifecycleOptions<Api> {
  spawn: () => WorkerHandle;
  /** Runs once per started worker before any call (e.g. load a model); its failure rejects the call. */
  setup?: (remote: Comlink.Remote<Api>) => Promise<void>;
  /** Default 30 s per call; setup gets setupTimeoutMs (default 180 s). 0 = none. */
  timeoutMs?: number;
  setupTimeoutMs?: number;
  /** Terminate after this long with nothing to do (0 = never, the default). */
  idleMs?: number;
  /** true (default): one call at a time, in order. */
  serial?: boolean;
  /** Code for a non-envelope error thrown by the worker. */
  fallbackErrorCode?: ErrorCode;
  /** Told whenever a worker died or hung; it restarts on next use. */
  onCrash?: (error: AppError) => void;
  /** Label for messages ("the encoder"). */
  name?: string;
}

export interface CallOptions<Api> {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Told the caller gave up (abort); e.g. forward a cancel(requestId) to the worker. */
  onAbort?: (remote: Comlink.Remote<Api>) => void;
}

interface Running<Api> {
  handle: WorkerHandle;
  remote: Comlink.Remote<Api>;
  ready: Promise<void>;
  dead: boolean;
  /** Reject functions of the calls in flight on this worker. */
  pending: Set<(e: AppError) => void>;
  /** Resolves when the worker is terminated. */
  died: Promise<void>;
  markDied: () => void;
}

const noop = (): void => undefined;

export class WorkerLifecycle<Api> {
  private running: Running<Api> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private active = 0;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private spawned = 0;
  private readonly opts: Required<Omit<WorkerLifecycleOptions<Api>, 'setup' | 'onCrash'>> &
    Pick<WorkerLifecycleOptions<Api>, 'setup' | 'onCrash'>;

  constructor(opts: WorkerLifecycleOptions<Api>) {
    this.opts = {
      timeoutMs: 30_000,
      setupTimeoutMs: 180_000,
      idleMs: 0,
      serial: true,
      fallbackErrorCode: 'WORKER_CRASHED',
      name: 'the worker',
      ...opts,
    };
  }

  /** How many workers have been started so far (for tests and diagnostics). */
  get starts(): number {
    return this.spawned;
  }

  get isRunning(): boolean {
    return this.running !== null && !this.running.dead;
  }

  /** Starts the worker now (and runs setup) instead of on first call. */
  async start(): Promise<void> {
    await this.ensure();
  }

  /** Runs fn against the worker: queued (if serial), with timeout, abort and crash handling. */
  call<T>(fn: (remote: Comlink.Remote<Api>) => Promise<T>, co: CallOptions<Api> = {}): Promise<T> {
    if (this.disposed) return Promise.reject(new AppError('WORKER_CRASHED', undefined, `${this.opts.name} was shut down`));
    if (co.signal?.aborted) return Promise.reject(new AppError('ABORTED'));
    this.active++;
    clearTimeout(this.idleTimer);
    return new Promise<T>((resolve, reject) => {
      // While queued, an abort answers at once; the task then sees the signal and skips.
      const abortQueued = () => reject(new AppError('ABORTED'));
      co.signal?.addEventListener('abort', abortQueued, { once: true });
      const task = async (): Promise<void> => {
        co.signal?.removeEventListener('abort', abortQueued);
        if (co.signal?.aborted) return reject(new AppError('ABORTED'));
        let r: Running<Api>;
        try {
          r = await this.ensure();
        } catch (e) {
          return reject(toAppError(e, 'WORKER_CRASHED'));
        }
        const { result, workerDone } = this.invoke(r, fn, co);
        result.then(resolve, reject);
        // Serial: the slot is held until the worker is done with the call (or dead), even if
        // the caller already gave up, so the next call does not pile onto a busy worker.
        await workerDone;
      };
      const finished = (this.opts.serial ? this.queue.then(task) : task()).finally(() => {
        this.active--;
        this.armIdle();
      });
      if (this.opts.serial) this.queue = finished.catch(noop);
      else finished.catch(noop);
    });
  }

  /** Terminates the worker; pending calls reject ABORTED. Later calls reject. */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.idleTimer);
    if (this.running) this.kill(this.running, new AppError('ABORTED', `${this.opts.name} was shut down.`), false);
  }

  /** Terminates the worker as if it had crashed (for tests and diagnostics). */
  crashForTest(detail = 'simulated crash'): void {
    if (this.running) this.kill(this.running, new AppError('WORKER_CRASHED', undefined, detail));
  }

  private armIdle(): void {
    if (this.opts.idleMs > 0 && this.active === 0 && this.running) {
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => {
        if (this.active === 0 && this.running) this.kill(this.running, new AppError('ABORTED'), false);
      }, this.opts.idleMs);
    }
  }

  private kill(r: Running<Api>, error: AppError, notify = true): void {
    if (r.dead) return;
    r.dead = true;
    if (this.running === r) this.running = null;
    try {
      r.remote[Comlink.releaseProxy]();
    } catch (e) {
      // the port is already closed (the worker died first): nothing left to release
      console.debug('[mnemograph] worker proxy already released', e);
    }
    r.handle.terminate();
    r.markDied();
    for (const reject of [...r.pending]) reject(error);
    r.pending.clear();
    if (notify) this.opts.onCrash?.(error);
  }

  private invoke<T>(
    r: Running<Api>,
    fn: (remote: Comlink.Remote<Api>) => Promise<T>,
    co: CallOptions<Api>,
    ms = co.timeoutMs ?? this.opts.timeoutMs,
  ): { result: Promise<T>; workerDone: Promise<void> } {
    let workerDone: Promise<void> = Promise.resolve();
    const result = new Promise<T>((resolve, reject) => {
      if (r.dead) return reject(new AppError('WORKER_CRASHED', undefined, `${this.opts.name} stopped`));
      if (co.signal?.aborted) return reject(new AppError('ABORTED'));
      let settled = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (f: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        r.pending.delete(rejectPending);
        co.signal?.removeEventListener('abort', abort);
        f();
      };
      const rejectPending = (e: AppError) => finish(() => reject(e));
      const abort = () => {
        if (!r.dead) co.onAbort?.(r.remote);
        finish(() => reject(new AppError('ABORTED')));
      };
      if (ms > 0) {
        // A worker stuck in a computation answers nothing more: restart it rather than queue behind it.
        timer = setTimeout(() => {
          finish(() => reject(new AppError('TIMEOUT')));
          this.kill(r, new AppError('WORKER_CRASHED', undefined, `${this.opts.name} stopped answering (timeout after ${ms} ms)`));
        }, ms);
      }
      r.pending.add(rejectPending);
      co.signal?.addEventListener('abort', abort, { once: true });
      const p = fn(r.remote);
      workerDone = Promise.race([p.then(noop, noop), r.died]);
      p.then(
        (v) => finish(() => resolve(v)),
        (e: unknown) => finish(() => reject(toAppError(e, this.opts.fallbackErrorCode))),
      );
    });
    return { result, workerDone };
  }

  private ensure(): Promise<Running<Api>> {
    if (this.disposed) return Promise.reject(new AppError('WORKER_CRASHED', undefined, `${this.opts.name} was shut down`));
    const current = this.running;
    if (current) return current.ready.then(() => (current.dead ? this.ensure() : current));
    const handle = this.opts.spawn();
    this.spawned++;
    const remote = Comlink.wrap<Api>(handle.port);
    let markDied = noop;
    const died = new Promise<void>((res) => (markDied = res));
    const r: Running<Api> = { handle, remote, ready: Promise.resolve(), dead: false, pending: new Set(), died, markDied };
    this.running = r;
    handle.onCrash((detail) => this.kill(r, new AppError('WORKER_CRASHED', undefined, detail)));
    const setup = this.opts.setup;
    r.ready = setup ? this.invoke(r, (rem) => setup(rem), {}, this.opts.setupTimeoutMs).result : Promise.resolve();
    // A failed start must not poison later calls: drop this worker so the next call retries.
    r.ready.catch((e: unknown) => {
      if (!r.dead) this.kill(r, toAppError(e, 'WORKER_CRASHED'), false);
    });
    return r.ready.then(() => r);
  }
}
