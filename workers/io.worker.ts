// The import worker: parses files off the page (logic in io-core.ts, shared with the Node tests).
// Its type is the protocol's method list; the client (src/bridge/io-bridge.ts) derives from it.
/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import type { ParseOutcome, ParseRequest } from '../src/protocol/io';
import { guardApi } from '../src/protocol/guard';
import { parseImport } from './io-core';

const api = guardApi(
  {
    async parse(req: ParseRequest): Promise<ParseOutcome> {
      const out = await parseImport(req);
      // a backup's stored vectors go back without a copy
      return Comlink.transfer(out, (out.backup?.vectors ?? []).map((v) => v.data));
    },
    ping: (): 'pong' => 'pong',
  },
  'IMPORT_INVALID',
);
export type IoApi = typeof api;

Comlink.expose(api);
