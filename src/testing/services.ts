// The services for tests: each test gets a database of its own (fake-indexeddb keeps every
// database for the whole run) and its services are disposed when it ends, pass or fail.
import { onTestFinished } from 'vitest';
import type { LexicalResources } from '../core/features';
import { disposeServices, initServices, type InitServicesOptions, type Services } from '../services/index';
import { createFakeEmbedder, createLocalFeaturizer } from './encoder';
import { createChannelEngine } from './engine';

let n = 0;
/** A database name no other test has used in this run. */
export const freshDbName = (): string => `test-${Date.now()}-${n++}`;

/** initServices on a fresh database (unless `dbName` is given), disposed when the test ends. */
export function initTestServices(opts: InitServicesOptions = {}): Promise<Services> {
  onTestFinished(() => disposeServices());
  return initServices({ ...opts, dbName: opts.dbName ?? freshDbName() });
}

export interface TestServicesOptions extends Omit<InitServicesOptions, 'embedder' | 'featurizer' | 'engine'> {
  /** The hashed embedder's width (default 32) and model id (default 'fake-hash/v1'). */
  dim?: number;
  model?: string;
  /** With these, the embed worker's featurizer computes every space; without, E1-E4 only. */
  resources?: LexicalResources;
}

/** The usual test services: the hashed embedder and the real engine over a MessageChannel. */
export async function startServices(opts: TestServicesOptions = {}) {
  const { dim, model, resources, ...init } = opts;
  const embedder = createFakeEmbedder(dim, model);
  const featurizer = resources ? createLocalFeaturizer(embedder, resources) : undefined;
  const engine = createChannelEngine();
  const dbName = init.dbName ?? freshDbName();
  const s = await initTestServices({ ...init, dbName, embedder, featurizer, engine: engine.factory });
  return { s, embedder, featurizer, engine, dbName };
}
