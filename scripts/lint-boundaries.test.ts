// The layer table of docs/ARCHITECTURE.md is enforced by eslint.config.js. This test lints small
// made-up files placed in each layer, so a config edit that stops catching a crossing fails here.
// The imported targets are real files, since the rule resolves an import before judging it.
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** The rules that fired when `code` sits at `file` (relative to the repository). */
async function rulesFired(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${file}` });
  return result.messages.map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

const LAYER = 'boundaries/dependencies';

describe('the layer rule', () => {
  it('lets the core import the core', async () => {
    expect(await rulesFired('src/core/fixture.ts', "export { toAppError } from './errors';\n")).toEqual([]);
  });

  it('stops the core from importing an upper layer', async () => {
    expect(await rulesFired('src/core/fixture.ts', "export { openDb } from '../db/db';\n")).toEqual([LAYER]);
  });

  it('stops the core from importing a browser package (twice over, tests included)', async () => {
    expect(await rulesFired('src/core/fixture.ts', "export { default } from 'dexie';\n")).toEqual(['no-restricted-imports', LAYER]);
    expect(await rulesFired('src/core/fixture.test.ts', "export { useState } from 'react';\n")).toEqual(['no-restricted-imports']);
  });

  it('stops the db from importing the services', async () => {
    expect(await rulesFired('src/db/fixture.ts', "export * from '../services/index';\n")).toEqual([LAYER]);
  });

  it('lets the UI import a worker by type but not its implementation', async () => {
    expect(await rulesFired('src/ui/fixture.ts', "export type { LayoutApi } from '../../workers/layout.worker';\n")).toEqual([]);
    expect(await rulesFired('src/ui/fixture.ts', "export * from '../../workers/engine-core';\n")).toEqual([LAYER]);
  });

  it('lets a worker run the pure layout module but nothing else of the UI', async () => {
    expect(await rulesFired('workers/fixture.ts', "export * from '../src/ui/graph/layout';\n")).toEqual([]);
    expect(await rulesFired('workers/fixture.ts', "export * from '../src/ui/graph/model';\n")).toEqual([LAYER]);
  });

  it('keeps the pure layout module free of what a worker cannot run', async () => {
    expect(await rulesFired('src/ui/graph/layout.ts', "export { forceSimulation } from 'd3';\n")).toEqual([]);
    expect(await rulesFired('src/ui/graph/layout.ts', "export { useState } from 'react';\n")).toEqual([LAYER]);
    expect(await rulesFired('src/ui/graph/layout.ts', "export * from '../../services/index';\n")).toEqual([LAYER]);
  });

  it('lets the engine worker read the database through its store module alone (schema v9)', async () => {
    expect(await rulesFired('workers/engine-store/fixture.ts', "export { MnemographDb } from '../../src/db/db';\n")).toEqual([]);
    expect(await rulesFired('workers/engine-store/fixture.ts', "export * from '../../src/services/index';\n")).toEqual([LAYER]);
    expect(await rulesFired('workers/engine-store/fixture.ts', "export * from '../engine-core';\n")).toEqual([LAYER]);
    expect(await rulesFired('workers/engine-api.ts', "export * from './engine-store/read';\n")).toEqual([]);
    // no other worker reaches storage, directly or through the store module
    expect(await rulesFired('workers/fixture.ts', "export { MnemographDb } from '../src/db/db';\n")).toEqual([LAYER]);
    expect(await rulesFired('workers/fixture.ts', "export * from './engine-store/read';\n")).toEqual([LAYER]);
    expect(await rulesFired('workers/embed.worker.ts', "export * from './engine-store/read';\n")).toEqual([LAYER]);
  });

  it('keeps storage in the db layer: the services reach Dexie only through src/db', async () => {
    expect(await rulesFired('src/services/fixture.ts', "export { openDb } from '../db/db';\n")).toEqual([]);
    expect(await rulesFired('src/services/fixture.ts', "export { default } from 'dexie';\n")).toEqual([LAYER]);
  });

  it('keeps the bridge to worker types and comlink', async () => {
    expect(await rulesFired('src/bridge/fixture.ts', "export * from '../../workers/engine-core';\n")).toEqual([LAYER]);
    expect(await rulesFired('src/bridge/fixture.ts', "export { wrap } from 'comlink';\n")).toEqual([]);
    expect(await rulesFired('src/bridge/fixture.ts', "export { default } from 'dexie';\n")).toEqual([LAYER]);
  });

  it('keeps the worker protocols to the core, and lets both sides of a worker import them', async () => {
    expect(await rulesFired('src/protocol/fixture.ts', "export type { PipelineResult } from '../core/pipeline';\n")).toEqual([]);
    expect(await rulesFired('src/protocol/fixture.ts', "export * from '../bridge/engine-bridge';\n")).toEqual([LAYER]);
    expect(await rulesFired('workers/fixture.ts', "export { LEXICAL_ID } from '../src/protocol/embed';\n")).toEqual([]);
    expect(await rulesFired('src/bridge/fixture.ts', "export { guardApi } from '../protocol/guard';\n")).toEqual([]);
  });

  it('lets the services use the encoder contract and Dexie types, not the model runtime', async () => {
    expect(await rulesFired('src/services/fixture.ts', "export { prepareForEmbedding } from '../embed/types';\n")).toEqual([]);
    expect(await rulesFired('src/services/fixture.ts', "export type { Observable } from 'dexie';\n")).toEqual([]);
    expect(await rulesFired('src/services/fixture.ts', "export * from '../embed/use-lite';\n")).toEqual([LAYER]);
  });

  it('keeps the import / export layer pure: the core and its parsers, no storage', async () => {
    expect(await rulesFired('src/io/fixture.ts', "export { parse } from 'valibot';\n")).toEqual([]);
    expect(await rulesFired('src/io/fixture.ts', "export { openDb } from '../db/db';\n")).toEqual([LAYER]);
    expect(await rulesFired('src/io/fixture.ts', "export { default } from 'dexie';\n")).toEqual([LAYER]);
  });
});
