// The import / export worker as the services see it (an ImportParser), on the shared
// WorkerLifecycle: lazy start, a timeout sized to the input, crash -> the call rejects and the
// next one starts afresh. The parsers are synchronous, so a cancel cannot reach them inside the
// worker: an abort terminates the worker (its lifecycle is disposed) and the next parse starts a
// new one. Exports run there too, so building a big backup or zip never freezes the page.

import type { IoApi } from '../../workers/io.worker';
import type { BackupWriteRequest, ImportParser, MarkdownWriteRequest, ParseRequest } from '../protocol/io';
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

/**
 * An export's timeout: base plus 1 ms per row and per 4 KB of vectors (a 10k-memory backup with
 * every space measured well under 10 s in Node), plus the PBKDF2 key derivation when encrypting.
 */
export function writeTimeout(req: BackupWriteRequest | MarkdownWriteRequest, baseMs = 30_000): number {
  if (!('rows' in req)) return baseMs + req.memories.length;
  const { rows } = req;
  const vectorBytes = (rows.vectors ?? []).reduce((n, v) => n + v.data.byteLength, 0);
  return baseMs + rows.memories.length + rows.feedback.length + Math.ceil(vectorBytes / 4096) + (req.passphrase !== undefined ? 30_000 : 0);
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
    // The rows are copied (structured clone), not transferred: a 10k-memory store has ~90k small
    // vector buffers, and a transfer list that long cost 5x the copy on the sending thread in V8
    // (2.5 s against 0.5 s measured in Node), which here is the page. The bytes come back by transfer.
    writeBackup: (req) => life.call((r) => r.writeBackup(req), { timeoutMs: writeTimeout(req, opts.timeoutMs) }),
    writeMarkdown: (req) => life.call((r) => r.writeMarkdown(req), { timeoutMs: writeTimeout(req, opts.timeoutMs) }),
    dispose() {
      disposed = true;
      life.dispose();
    },
  };
}
