// The services for tests: each test gets a database of its own (fake-indexeddb keeps every
// database for the whole run) and its services are disposed when it ends, pass or fail.
import { onTestFinished } from 'vitest';
import type { LexicalResources } from '../core/features';
import { openDb } from '../db/db';
import { createServices } from '../services/create';
import { disposeServices, initServices, type InitServicesOptions, type Services } from '../services/index';
import { createFakeEmbedder, createLocalFeaturizer } from './encoder';
import { createChannelEngine } from './engine';
import { createLocalParser } from './io';

import { freshDbName } from './db';

export { freshDbName };

/** initServices on a fresh database (unless `dbName` is given), disposed when the test ends. */
export function initTestServices(opts: InitServicesOptions = {}): Promise<Services> {
  onTestFinished(() => disposeServices());
  return initServices({ ...opts, dbName: opts.dbName ?? freshDbName() });
}

export interface EncoderOptions {
  /** The hashed embedder's width (default 32) and model id (default 'fake-hash/v1'). */
  dim?: number;
  model?: string;
  /** With these, the embed worker's featurizer computes every space; without, E1-E4 only. */
  resources?: LexicalResources;
}

export interface TestServicesOptions extends EncoderOptions, Omit<InitServicesOptions, 'embedder' | 'featurizer' | 'engine'> {}

/** What a test's services run on: the hashed embedder (with `resources`, the worker's featurizer over it) and the real engine over a MessageChannel. */
function testDeps({ dim, model, resources }: EncoderOptions) {
  const embedder = createFakeEmbedder(dim, model);
  const featurizer = resources ? createLocalFeaturizer(embedder, resources) : undefined;
  return { embedder, featurizer, engine: createChannelEngine(), parser: createLocalParser() };
}

/** The usual test services (see testDeps), on a fresh database unless `dbName` is given. */
export async function startServices(opts: TestServicesOptions = {}) {
  const { dim, model, resources, ...init } = opts;
  const { embedder, featurizer, engine, parser } = testDeps({ dim, model, resources });
  const dbName = init.dbName ?? freshDbName();
  const s = await initTestServices({ ...init, dbName, embedder, featurizer, engine: engine.factory, parser });
  return { s, embedder, featurizer, engine, parser, dbName };
}

/** Another tab: its own services (see testDeps) on the database `dbName`, disposed when the test ends. */
export async function openOtherTab(dbName: string, opts: EncoderOptions & { crossTab?: boolean } = {}): Promise<Services> {
  const { embedder, featurizer, engine, parser } = testDeps(opts);
  const tab = createServices({ db: await openDb(dbName), embedder, featurizer, engine: engine.factory, crossTab: opts.crossTab, parser });
  onTestFinished(() => tab.dispose());
  return tab;
}
