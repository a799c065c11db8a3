// The import worker's API (exposed by io.worker.ts; Node tests expose it on a MessageChannel).
import * as Comlink from 'comlink';
import type { ParseOutcome, ParseRequest } from '../src/protocol/io';
import { guardApi } from '../src/protocol/guard';
import { parseImport } from './io-core';

export function createIoApi(parse: (req: ParseRequest) => Promise<ParseOutcome> = parseImport) {
  return guardApi(
    {
      async parse(req: ParseRequest): Promise<ParseOutcome> {
        const out = await parse(req);
        // a backup's stored vectors go back without a copy
        return Comlink.transfer(out, (out.backup?.vectors ?? []).map((v) => v.data));
      },
      ping: (): 'pong' => 'pong',
    },
    'IMPORT_INVALID',
  );
}
