// The import worker's parsing run in-process for Node tests (the services' `parser` option): the
// same parseImport the worker runs, with the request copied as structured clone would copy it.
import { AppError } from '../core/errors';
import type { ImportParser, ParseRequest } from '../protocol/io';
import { parseImport } from '../../workers/io-core';

export function createLocalParser(): ImportParser & { calls: number } {
  const p = {
    calls: 0,
    async parse(req: ParseRequest, signal?: AbortSignal) {
      if (signal?.aborted) throw new AppError('ABORTED');
      p.calls++;
      return parseImport(structuredClone(req));
    },
    dispose: () => undefined,
  };
  return p;
}
