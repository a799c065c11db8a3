// Lint for the whole repository. The part that matters most is the layer table of
// docs/ARCHITECTURE.md, written below as `boundaries/dependencies` policies: a lower layer never
// imports an upper one, and each layer reaches only the packages its row names.
// The non-type-checked recommended sets keep `npm run lint` fast (no program is built).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Packages the core must never see (it runs in Node, in a worker and on the main thread alike).
const CORE_FORBIDDEN = ['react', 'react-dom', 'dexie', 'dexie-react-hooks', 'comlink', 'zustand', 'd3', 'd3-*', '@tensorflow/*', '@huggingface/*', '@xenova/*', 'wink-*'];

// Tests and their Node-only helpers (src/testing): free to reach across layers.
const TESTS = ['**/*.test.ts', '**/*.test.tsx', 'src/testing/**', 'src/io/property-helpers.ts'];

/** One layer per folder (docs/ARCHITECTURE.md). `src/main.tsx` only mounts the UI. */
export const ELEMENTS = [
  { type: 'core', pattern: 'src/core', partialMatch: false },
  { type: 'embed', pattern: 'src/embed', partialMatch: false },
  { type: 'features', pattern: 'src/features', partialMatch: false },
  { type: 'db', pattern: 'src/db', partialMatch: false },
  // Import, export and backup formats: pure parsers and writers (run in a worker and in Node).
  { type: 'io', pattern: 'src/io', partialMatch: false },
  // The workers' protocols: message payloads and constants both sides of a worker import.
  { type: 'protocol', pattern: 'src/protocol', partialMatch: false },
  // The engine worker reads the database itself (schema v9's blocks), so nothing big passes
  // through the page's thread: this one module of the workers may import src/db, and only the
  // engine's API module may import it (no other worker reaches storage).
  { type: 'engine-store', pattern: 'workers/engine-store', partialMatch: false },
  { type: 'workers', pattern: 'workers', partialMatch: false },
  { type: 'bridge', pattern: 'src/bridge', partialMatch: false },
  { type: 'services', pattern: 'src/services', partialMatch: false },
  // The bundled sample memories: plain data the UI offers on first run.
  { type: 'sample', pattern: 'src/sample', partialMatch: false },
  // The UI and the other page entries (the diagnostics page, the graph lab).
  { type: 'ui', pattern: ['src/ui', 'src/state', 'src/diagnostics', 'src/graph-lab'], partialMatch: false },
];

/** DOM-free pure modules of other layers that a worker may run (the graph's d3-force layout). */
export const FILES = [
  { category: 'pure', pattern: 'src/ui/graph/layout.ts' },
  // The encoder's contract (the Embedder interface, the model's id and input bound, the text
  // preparation rule): plain TS the services and the bridge may use without loading the model.
  { category: 'contract', pattern: 'src/embed/types.ts' },
  // The encoders' metadata (id, dimension, prefixes, licence, size): plain data, no runtime.
  { category: 'contract', pattern: 'src/embed/encoders.ts' },
  // The encoder catalogue and the kept model files (Cache Storage, the opt-in hub download, a
  // picked folder): plain TS with no model runtime, used by the services' model manager and by
  // the embed worker (which looks its model's files up there).
  { category: 'contract', pattern: 'src/embed/{catalogue,model-store,model-download,model-folder}.ts' },
  // The engine's API module: the one module that may use the engine's store reader (below).
  { category: 'engine-api', pattern: 'workers/engine-api.ts' },
  // The scale benchmark's baselines (issue 13): the only file that may use the libraries we compare
  // against; only the bench build (MNEMOGRAPH_BENCH=1, bench.html) bundles it.
  { category: 'bench-baselines', pattern: 'src/diagnostics/scale-baselines.ts' },
];

const el = (...types) => ({ to: { element: { types: { anyOf: types } } } });
const pkg = (...sources) => ({ to: { module: { origin: 'external', source: sources } } });
const pure = { to: { file: { categories: 'pure' } } };
const contract = { to: { file: { categories: 'contract' } } };
const typesOf = (rule) => ({ ...rule, dependency: { kind: 'type' } });
const typesOnly = (...types) => ({ to: { element: { types: { anyOf: types } } }, dependency: { kind: 'type' } });

/** The layer table: what each layer may import (everything else is refused). */
export const LAYER_POLICIES = [
  { from: { element: { type: 'core' } }, allow: el('core') },
  { from: { element: { type: 'embed' } }, allow: [el('core', 'embed'), pkg('@tensorflow/*')] },
  { from: { element: { type: 'features' } }, allow: [el('core', 'features'), pkg('wink-*')] },
  { from: { element: { type: 'db' } }, allow: [el('core', 'db'), pkg('dexie')] },
  // The import worker's payloads are src/io's result types: by type only (protocols carry no code of io).
  // The embed worker's init names the encoder to run by its catalogue entry (a type of the contract).
  { from: { element: { type: 'protocol' } }, allow: [el('core', 'protocol'), typesOnly('io'), typesOf(contract)] },
  { from: { element: { type: 'io' } }, allow: [el('core', 'io'), pkg('valibot', 'fflate', 'yaml')] },
  // A worker wraps the core and the models: the embed worker runs tfjs and Transformers.js itself.
  // graphology: the engine worker's memory-entity graph (and Louvain communities over it); the
  // core reads that graph through its EntityLookup interface, so the package stays in the workers.
  { from: { element: { type: 'workers' } }, allow: [el('core', 'embed', 'features', 'io', 'protocol', 'workers'), pure, pkg('comlink', '@tensorflow/*', '@huggingface/transformers', 'graphology', 'graphology-*')] },
  // The engine's store reader, and only it, reads the database; only the engine's API uses it.
  { from: { file: { categories: 'engine-api' } }, allow: el('engine-store') },
  { from: { element: { type: 'engine-store' } }, allow: [el('core', 'protocol', 'db'), pkg('dexie')] },
  // The core is the leaf every layer may use (errors, types). Workers are reached by type only,
  // and so is the encoder (the embed bridge is an `Embedder`, but runs none of it on the page).
  // The layout bridge runs the pure layout on the main thread when the worker fails: it takes the
  // function from the UI, so it needs the request / result types only.
  { from: { element: { type: 'bridge' } }, allow: [el('core', 'protocol', 'bridge'), contract, typesOnly('workers', 'embed'), typesOf(pure), pkg('comlink')] },
  // Services hand the UI Dexie live queries (the Observable type only; the queries are built in src/db).
  { from: { element: { type: 'services' } }, allow: [el('core', 'db', 'io', 'protocol', 'bridge', 'services'), contract, typesOf(pkg('dexie'))] },
  { from: { element: { type: 'sample' } }, allow: el('core', 'sample') },
  // The UI may use every layer below it, but a worker's implementation only by type: a worker
  // runs in its own thread, started by the bridge (or `new Worker(new URL(...))`).
  {
    from: { element: { type: 'ui' } },
    allow: [
      el('core', 'embed', 'features', 'db', 'io', 'protocol', 'bridge', 'services', 'sample', 'ui'),
      typesOnly('workers'),
      pkg('react', 'react-dom', 'react-dom/*', 'zustand', 'd3', 'd3-*', 'dexie', 'dexie-react-hooks', 'comlink', 'virtual:*', '@tanstack/react-virtual'),
    ],
  },
  // The scale benchmark's baselines: the core and the libraries compared with, nothing else.
  { from: { file: { categories: 'bench-baselines' } }, allow: [el('core'), pkg('hnswlib-wasm', '@orama/orama')] },
  // A pure module runs inside a worker too, so it keeps to the core and d3 (the last matching
  // policy wins, so this narrows the UI row above for those files).
  {
    from: { file: { categories: 'pure' } },
    disallow: [
      el('embed', 'features', 'db', 'io', 'protocol', 'workers', 'bridge', 'services', 'sample', 'ui'),
      pkg('react', 'react-dom', 'react-dom/*', 'zustand', 'dexie', 'dexie-react-hooks', 'comlink', 'virtual:*'),
    ],
  },
];

export default defineConfig(
  { ignores: ['dist/**', 'dist-bench/**', 'public/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'bench-results/**', 'e2e/screenshots/**', '.vite/**', '.cache/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_name` marks an argument kept for its position (it.each rows, callbacks).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  // Browser code (the page and the workers); Node code (scripts, tests, configs, e2e).
  { files: ['src/**', 'workers/**'], languageOptions: { globals: { ...globals.browser, ...globals.worker } } },
  {
    files: ['scripts/**', 'e2e/**', '*.config.ts', '*.config.js', '**/*.mjs', ...TESTS],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'workers/**/*.ts'],
    ignores: TESTS,
    plugins: { boundaries },
    settings: {
      'boundaries/elements': ELEMENTS,
      'boundaries/files': FILES,
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] } },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', checkAllOrigins: true, policies: LAYER_POLICIES }],
    },
  },
  // The two classic hook rules only; the React Compiler rules of the v7 preset are not adopted.
  {
    files: ['src/**/*.tsx', 'src/ui/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // Playwright reads a test's fixtures from its first parameter, so `({}, testInfo)` is the idiom.
  { files: ['e2e/**'], rules: { 'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }] } },
  // Tests may reach across layers (a worker's core run in-process), but the core's tests stay
  // free of the browser and UI packages too.
  {
    files: ['src/core/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: CORE_FORBIDDEN, message: 'src/core is a leaf: no DOM, React, Dexie, Comlink, zustand, d3 or model runtime.' }] }],
    },
  },
);
