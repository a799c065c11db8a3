// The search engine worker: exposes the engine (logic in engine-core.ts) over Comlink. Its type
// is the protocol's method list; the client (src/bridge/engine-bridge.ts) derives from it.
/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { createEngineApi } from './engine-api';

const api = createEngineApi();
export type EngineApi = typeof api;

Comlink.expose(api);
