// The import / export worker: parses files and writes exports off the page (logic in io-core.ts, shared with Node).
// Its type is the protocol's method list; the client (src/bridge/io-bridge.ts) derives from it.
/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { createIoApi } from './io-api';

const api = createIoApi();
export type IoApi = typeof api;

Comlink.expose(api);
