// The import / export worker's work run in-process for Node tests (the services' `parser` option):
// the same parseImport / writeBackup / writeMarkdown the worker runs, with the request copied as
// structured clone would copy it.
import { AppError } from '../core/errors';
import type { BackupWriteRequest, ImportParser, MarkdownWriteRequest, ParseRequest } from '../protocol/io';
import { parseImport, writeBackup, writeMarkdown } from '../../workers/io-core';

export function createLocalParser(): ImportParser & { calls: number } {
  const p = {
    calls: 0,
    async parse(req: ParseRequest, signal?: AbortSignal) {
      if (signal?.aborted) throw new AppError('ABORTED');
      p.calls++;
      return parseImport(structuredClone(req));
    },
    writeBackup: (req: BackupWriteRequest) => writeBackup(structuredClone(req)),
    writeMarkdown: async (req: MarkdownWriteRequest) => writeMarkdown(structuredClone(req)),
    dispose: () => undefined,
  };
  return p;
}
