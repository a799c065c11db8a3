// The import worker as the services see it (an ImportParser), on the shared WorkerLifecycle: lazy
// start, a timeout sized to the input, crash -> the call rejects and the next one starts afresh.
// The parsers are synchronous, so a cancel cannot reach them inside the worker: an abort
// terminates the worker (its lifecycle is disposed) and the next parse starts a new one.

import type { IoApi } from '../../workers/io.worker';
import type { ImportParser, ParseRequest } from '../protocol/io';
import { handleFromWorker, WorkerLifecycle, type WorkerHandle } from './worker-lifecycle';

export interface IoBridgeOptions {
  spawn?: () => WorkerHandle;
  /** The base of every call's timeout (default 30 s); each byte of input adds to it (bytesPerMs). */
  timeoutMs?: number;
  /** Default 512: about 2 s per MB, above the slowest importer measured (Markdown, ~1.5 MB/s). */
  bytesPerMs?: number;
}

export function spawnIoWorker(): WorkerHandle {
  return handleFromWorker(new Worker(new URL('../../workers/io.worker.ts', import.meta.url), { type: 'module', name: 'io' }));
}

/** The call's timeout: a 100 MB file must not be taken for a hung worker. */
export function parseTimeout(req: ParseRequest, baseMs = 30_000, bytesPerMs = 512): number {
  const bytes = req.files.reduce((n, f) => n + (f.bytes?.byteLength ?? 0), 0);
  return baseMs + Math.ceil(bytes / bytesPerMs);
}

export function createIoBridge(opts: IoBridgeOptions = {}): ImportParser & { readonly starts: number } {
  let started = 0;
  const make = () =>
    new WorkerLifecycle<IoApi>({
      name: 'the import reader',
      spawn: opts.spawn ?? spawnIoWorker,
      fallbackErrorCode: 'IMPORT_INVALID',
      // one file set at a time: a second preview waits for the first
      serial: true,
      // an idle reader holds no memory of the last import
      idleMs: 60_000,
    });
  let life = make();
  let disposed = false;

  return {
    get starts() {
      return started;
    },
    async parse(req, signal) {
      const current = life;
      const before = current.starts;
      try {
        // the bytes are copied (structured clone): the caller keeps its files for a re-preview
        return await current.call((r) => r.parse(req), {
          signal,
          timeoutMs: parseTimeout(req, opts.timeoutMs, opts.bytesPerMs),
          onAbort: () => {
            // the parse runs on synchronously in the worker: stop the worker, start afresh next time
            current.dispose();
            if (life === current && !disposed) life = make();
          },
        });
      } finally {
        started += current.starts - before;
      }
    },
    dispose() {
      disposed = true;
      life.dispose();
    },
  };
}
