// The search engine worker: owns the HybridIndex. All logic is in engine-core.ts.
/// <reference lib="webworker" />
import * as Comlink from 'comlink';
import { createEngineApi } from './engine-core';

const api = createEngineApi();
export type EngineApi = typeof api;

Comlink.expose(api);
