// bench.html (issue 13's scale benchmark, `npm run bench:scale`): the app's own start-up (boot():
// the services on the app's database with the real engine, embed and import workers, no React)
// and a small typed hook, window.__scaleBench, for scripts/bench/scale.ts. Only the bench build
// has this page (vite.config.ts adds the entry when MNEMOGRAPH_BENCH=1); the production app never
// ships it. Everything written goes through the services: a corpus arrives as JSON backups and is
// restored by previewImport / runImport, exactly what a person's restore does.
//
// Start-up probes (from the module's first line, i.e. right after navigation): the first plain
// search with results (`semantic: false`, which needs no encoder: keyword results first), the
// first semantic search with results, the encoder ready, and "warm": the services resolved
// (initServices fills the engine before it resolves) and the engine's stats say loaded (plus a
// `warm` / `phase` field if a later engine reports one).
import Dexie from 'dexie';
import { boot, bootStatus } from '../ui/app/boot';
import { installedVersion, MnemographDb, openDb } from '../db/db';
import { DB_NAME, DB_VERSION, type VectorRow } from '../db/schema';
import { parseBackup } from '../io';
import { openRaw, snapshotsCurrent } from './snapshot-state';
import { services } from '../services';
import type { BaselineQuery } from './scale-baselines';
import type { EngineLoadProgress } from '../protocol/engine';
import type { EmbedInitOptions } from '../protocol/embed';
import { searchBreakdown, type Breakdown } from './scale-search';

export interface StartupTimes {
  firstKeywordMs: number | null;
  firstSemanticMs: number | null;
  servicesReadyMs: number | null;
  encoderReadyMs: number | null;
  warmMs: number | null;
  /** When the app's boot failed (navigation -> failure), if it did. */
  failedMs?: number;
  error?: string;
}

export interface MemoryBreakdown {
  totalBytes: number;
  engineBytes: number;
  workerBytes: number;
  /** Each worker's bytes by its script's name (engine, embed, io, …). */
  byWorker: Record<string, number>;
}

export interface TimedRun {
  /** Through the services, as the UI calls them (query featurized by the embed worker). */
  times: number[];
  /** The engine's own time for the same calls (engine stats). */
  inEngine: number[];
  results: number[];
}

/** Memories per second through each path (see `ingest`). */
export interface IngestRates {
  /** The full path at batch 1: captures, one at a time (encoder + featurizers + write + index + entities). */
  batch1PerSec: number;
  /** The full path batched: a plain-text import (preview + run) of the texts after the first `batchOne`. */
  importPerSec: number;
  /** The encoder alone, one text per call. */
  encoderBatch1PerSec: number;
  /** The encoder alone, 32 texts per call (each call sorted by length inside). */
  encoderBatchedPerSec: number;
  /** The encoder alone, all the import's texts in one call (as the import's featurizing calls it). */
  encoderOneCallPerSec: number;
  /** Encoder + the lexical featurizers of the import's texts (the embed worker's `featurize`), no write. */
  featurizePerSec: number;
  importBatch: number;
  /** The embed workers' memory right after the import (MiB; a helper encoder, if one ran, still alive), when the browser can measure it. */
  embedMiB: number | null;
}

export interface ScaleBenchApi {
  startup: Promise<StartupTimes>;
  /** The start-up times so far (for a driver that gives up waiting), with the boot state. */
  progress(): StartupTimes & { boot: string; probes: number };
  count(): Promise<number>;
  restore(urls: string[]): Promise<{ written: number; skipped: number; ms: number; chunkMs: number[] }>;
  search(queries: string[]): Promise<TimedRun>;
  /** Where a plain search's time goes, per query: the encoder alone, a keyword-only search (no encoder), the full search and its engine time. */
  searchBreakdown(queries: string[]): Promise<Record<Breakdown, number[]>>;
  recall(queries: string[], options: Record<string, unknown>): Promise<TimedRun>;
  memory(): Promise<MemoryBreakdown | null>;
  idbBytes(): Promise<{ indexedDB: number | null; usage: number | null }>;
  longTasks(): number[];
  /** `quick`: skip the encoder alone at one and at 32 texts per call (their fields are NaN). */
  ingest(texts: string[], batchOne: number, quick?: boolean): Promise<IngestRates>;
  /** The v8 -> v9 (-> newest) upgrade at scale: a v8 store filled from the backup chunks (one `vectors` row per memory and space), then opened by the app. */
  migrateV8(urls: string[]): Promise<{ memories: number; vectorRows: number; fillMs: number; upgradeMs: number; heads: number; error?: string }>;
  /** The baselines asked for over the corpus (the f32 scan always runs: it is HNSW's exact answer; `scan: false` leaves its times out). */
  baselines(e1Url: string, textsUrl: string, queries: BaselineQuery[], opts: { scan?: boolean; hnsw: boolean; orama: boolean; oramaQueries: number }): Promise<Record<string, unknown>>;
  /** The app's stored database as found, opened without a version (no upgrade runs): its schema version and memory rows (0 / 0 when there is none). For a page where the app does not start (`?baselines`). */
  storeInfo(): Promise<{ version: number; memories: number }>;
  /** Deletes the app's database (a reused profile that holds another size). For a page where the app does not start. */
  deleteStore(): Promise<void>;
  /** Whether the stored keyword snapshot is one this build adopts (its format and schema version), null when none is stored. */
  snapshotCurrent(): Promise<boolean | null>;
  /** Opens the app's database as the app does (`openDb`: any pending schema upgrade runs here) and closes it, timed. For a page where the app does not start. */
  openStore(): Promise<{ fromVersion: number; toVersion: number; openMs: number; error?: string }>;
}

declare global {
  interface Window {
    __scaleBench: ScaleBenchApi;
    /** Long tasks seen since navigation (durations, ms), collected by the driver's init script. */
    __longTasks?: number[];
  }
}

const since = () => Math.round(performance.now());
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));
const params = new URLSearchParams(location.search);
const probeQuery = params.get('probe');

// ?baselines: only the baselines run here (a context of its own, see scripts/bench/scale.ts); the
// app does not start
// ?threads=1&batch=16&budget=512&spin=0&workers=2&sort=1&models=models/x/: the encoder's settings for an A/B run (scripts/bench/ingest.ts --variants; `models` = another folder of model files)
const num = (k: string) => (params.has(k) ? Number(params.get(k)) : undefined);
const embedInit: EmbedInitOptions = {
  wasmThreads: num('threads'),
  batchSize: num('batch'),
  tokenBudget: num('budget'),
  spinning: params.has('spin') ? params.get('spin') !== '0' : undefined,
  encoderWorkers: num('workers'),
  sortChunks: params.has('sort') ? params.get('sort') !== '0' : undefined,
  modelsUrl: params.get('models') ?? undefined,
};
const app = params.has('baselines') ? { ready: new Promise<void>(() => undefined) } : boot({ embedInit });

let probes = 0;
async function probe(semantic: boolean): Promise<number | null> {
  if (!probeQuery) return null;
  for (;;) {
    probes++;
    try {
      const hits = await services().search(probeQuery, semantic ? { topK: 10 } : { topK: 10, semantic: false });
      if (hits.length > 0) return since();
    } catch {
      // not started yet (NOT_READY) unless the boot itself failed: then its own error, not the probe's
      const s = bootStatus.get();
      if (s.state === 'failed') {
        out.failedMs = since();
        throw s.error;
      }
    }
    await tick(20);
  }
}

/** True once the engine has everything; accepts a staged engine that reports `warm` or `phase`. */
/** Warm = the engine's staged start (schema v9: keywords, then the feature blocks) has attached everything. */
function isWarm(stats: { loaded: boolean }, load: EngineLoadProgress | null): boolean {
  return stats.loaded && (load === null || load.stage === 'warm');
}

const out: StartupTimes = { firstKeywordMs: null, firstSemanticMs: null, servicesReadyMs: null, encoderReadyMs: null, warmMs: null };
const startup: Promise<StartupTimes> = (async () => {
  const encoder = app.ready.then(() => (out.encoderReadyMs = since()));
  const servicesUp = new Promise<void>((ok, fail) => {
    const check = () => {
      const s = bootStatus.get();
      if (s.state === 'ready') {
        out.servicesReadyMs = since();
        ok();
      } else if (s.state === 'failed') {
        out.failedMs = since();
        fail(s.error);
      }
    };
    bootStatus.subscribe(check);
    check();
  });
  try {
    out.firstKeywordMs = await probe(false);
    await servicesUp;
    for (;;) {
      if (isWarm(await services().engineStats(), services().engineLoad())) break;
      await tick(20);
    }
    out.warmMs = since();
    await encoder;
    out.firstSemanticMs = await probe(true);
  } catch (e) {
    out.error = e instanceof Error ? `${(e as { code?: string }).code ?? 'ERROR'}: ${e.message}` : String(e);
  }
  return out;
})();

async function timed(run: () => Promise<number>, stat: 'lastSearchMs' | 'lastRecallMs', into: TimedRun): Promise<void> {
  const t0 = performance.now();
  into.results.push(await run());
  into.times.push(performance.now() - t0);
  into.inEngine.push((await services().engineStats())[stat]);
}

async function measureMemory(): Promise<MemoryBreakdown | null> {
  type M = { bytes: number; breakdown: { bytes: number; attribution: { url?: string; scope?: string }[] }[] };
  const p = performance as Performance & { measureUserAgentSpecificMemory?: () => Promise<M> };
  if (typeof p.measureUserAgentSpecificMemory !== 'function' || !crossOriginIsolated) return null;
  const m = await p.measureUserAgentSpecificMemory();
  const byWorker: Record<string, number> = {};
  for (const b of m.breakdown)
    for (const a of b.attribution)
      if (a.scope === 'DedicatedWorkerGlobalScope') {
        const name = (a.url ?? '').split('/').pop()?.replace(/[-.].*$/, '') || 'worker';
        byWorker[name] = (byWorker[name] ?? 0) + b.bytes / b.attribution.length;
      }
  const workerBytes = Object.values(byWorker).reduce((s, x) => s + x, 0);
  return { totalBytes: m.bytes, engineBytes: byWorker.engine ?? 0, workerBytes, byWorker };
}

async function fetchBytes(url: string): Promise<Uint8Array> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

window.__scaleBench = {
  startup,
  progress: () => ({ ...out, boot: bootStatus.get().state, probes }),
  count: async () => {
    await app.ready;
    return services().countMemories();
  },
  async restore(urls) {
    await app.ready;
    const t0 = performance.now();
    let written = 0;
    let skipped = 0;
    const chunkMs: number[] = [];
    for (const url of urls) {
      const c0 = performance.now();
      const bytes = await fetchBytes(url);
      const name = url.split('/').pop() ?? 'backup.json';
      const preview = await services().previewImport({ files: [{ name, bytes }], format: 'backup' });
      const res = await services().runImport(preview.planId);
      written += res.written;
      skipped += res.skipped;
      chunkMs.push(Math.round(performance.now() - c0));
    }
    return { written, skipped, ms: performance.now() - t0, chunkMs };
  },
  async search(queries) {
    const out: TimedRun = { times: [], inEngine: [], results: [] };
    for (const q of queries) await timed(async () => (await services().search(q, { topK: 10 })).length, 'lastSearchMs', out);
    return out;
  },
  searchBreakdown,
  async recall(queries, options) {
    const out: TimedRun = { times: [], inEngine: [], results: [] };
    for (const q of queries) await timed(async () => (await services().recall(q, { topK: 10, ...options })).results.length, 'lastRecallMs', out);
    return out;
  },
  memory: measureMemory,
  async idbBytes() {
    const e = (await navigator.storage.estimate()) as StorageEstimate & { usageDetails?: { indexedDB?: number } };
    return { indexedDB: e.usageDetails?.indexedDB ?? null, usage: e.usage ?? null };
  },
  longTasks: () => (window.__longTasks ?? []).slice(),
  async ingest(texts, batchOne, quick = false) {
    await app.ready;
    const s = services();
    // full path at batch 1: what a capture does (encoder + featurizers + write + index + entities)
    let t0 = performance.now();
    for (const text of texts.slice(0, batchOne)) await s.addMemory({ text });
    const batch1PerSec = batchOne / ((performance.now() - t0) / 1000);
    // full path batched: a plain-text import of the rest, one memory per line (preview + run)
    const rest = texts.slice(batchOne);
    const bytes = new TextEncoder().encode(rest.join('\n'));
    t0 = performance.now();
    const preview = await s.previewImport({ files: [{ name: 'bench-ingest.txt', bytes }], format: 'text', text: { mode: 'line' } });
    const res = await s.runImport(preview.planId);
    const importPerSec = res.written / ((performance.now() - t0) / 1000);
    const mem = await measureMemory().catch(() => null);
    // the embed workers and onnxruntime's thread workers they start (named after its script, ort-wasm-…)
    const embedBytes = mem ? Object.entries(mem.byWorker).reduce((s, [k, b]) => s + (k === 'embed' || k.startsWith('ort') ? b : 0), 0) : 0;
    const embedMiB = mem ? Math.round((embedBytes / 2 ** 20) * 10) / 10 : null;
    console.debug(`[mnemograph] helper bench: workers' memory ${JSON.stringify(mem?.byWorker ?? {})}`);
    // the encoder alone, the same texts
    const rt = s.currentEncoder();
    const enc = rt.embedder;
    // (on at most 200 of the import's texts: the rate is the encoder's, whatever the import's length)
    const fresh = texts.slice(0, batchOne + 200).map((t) => `${t} (again)`);
    const alone = fresh.slice(batchOne);
    let encoderBatch1PerSec = NaN;
    let encoderBatchedPerSec = NaN;
    if (!quick) {
      t0 = performance.now();
      for (const t of fresh.slice(0, batchOne)) await enc.embed([t]);
      encoderBatch1PerSec = batchOne / ((performance.now() - t0) / 1000);
      t0 = performance.now();
      for (let i = 0; i < alone.length; i += 32) await enc.embed(alone.slice(i, i + 32));
      encoderBatchedPerSec = alone.length / ((performance.now() - t0) / 1000);
    }
    // as the import calls it: every text in one call; then with the featurizers (no write)
    const again = alone.map((t) => `${t}!`);
    t0 = performance.now();
    await enc.embed(again);
    const encoderOneCallPerSec = again.length / ((performance.now() - t0) / 1000);
    const now = Date.now();
    t0 = performance.now();
    await rt.featurizer.featurize(again.map((text, i) => ({ text: `${text}?`, createdAt: now, sessionPosition: i })));
    const featurizePerSec = again.length / ((performance.now() - t0) / 1000);
    return { batch1PerSec, importPerSec, encoderBatch1PerSec, encoderBatchedPerSec, encoderOneCallPerSec, featurizePerSec, importBatch: 200, embedMiB };
  },
  async migrateV8(urls) {
    const name = `bench-v8-${Date.now()}`;
    const v8 = new MnemographDb(name, { upTo: 8 });
    await v8.open();
    let t0 = performance.now();
    let memories = 0;
    let vectorRows = 0;
    for (const url of urls) {
      const parsed = parseBackup(await fetchBytes(url));
      if (!parsed.ok) throw new Error(`${url}: ${parsed.errors.at(-1)?.message ?? 'not a backup'}`);
      const rows: VectorRow[] = parsed.items.vectors.map((v) => ({ memoryId: v.memoryId, space: v.space, dim: v.dim, dtype: v.dtype, model: v.model, data: v.data }));
      await v8.transaction('rw', v8.memories, v8.vectors, async () => {
        await v8.memories.bulkAdd(parsed.items.memories);
        await v8.vectors.bulkAdd(rows);
      });
      memories += parsed.items.memories.length;
      vectorRows += rows.length;
    }
    v8.close();
    const fillMs = performance.now() - t0;
    t0 = performance.now();
    try {
      const db = await openDb(name);
      const upgradeMs = performance.now() - t0;
      const heads = await db.featureHeads.count();
      db.close();
      return { memories, vectorRows, fillMs, upgradeMs, heads };
    } catch (e) {
      return { memories, vectorRows, fillMs, upgradeMs: performance.now() - t0, heads: 0, error: e instanceof Error ? e.message : String(e) };
    } finally {
      await Dexie.delete(name);
    }
  },
  async storeInfo() {
    const version = await installedVersion(DB_NAME);
    if (version === 0) return { version, memories: 0 };
    const idb = await openRaw();
    try {
      if (!idb.objectStoreNames.contains('memories')) return { version, memories: 0 };
      const req = idb.transaction('memories', 'readonly').objectStore('memories').count();
      const memories = await new Promise<number>((ok, fail) => {
        req.onsuccess = () => ok(req.result);
        req.onerror = () => fail(req.error ?? new Error('the count failed'));
      });
      return { version, memories };
    } finally {
      idb.close();
    }
  },
  async deleteStore() {
    await Dexie.delete(DB_NAME);
  },
  snapshotCurrent: () => snapshotsCurrent(),
  async openStore() {
    const fromVersion = await installedVersion(DB_NAME);
    const t0 = performance.now();
    try {
      const db = await openDb(DB_NAME);
      const openMs = performance.now() - t0;
      db.close();
      return { fromVersion, toVersion: DB_VERSION, openMs };
    } catch (e) {
      return { fromVersion, toVersion: DB_VERSION, openMs: performance.now() - t0, error: e instanceof Error ? e.message : String(e) };
    }
  },
  async baselines(e1Url, textsUrl, queries, opts) {
    const { bruteForce, fetchParts, hnsw, orama } = await import('./scale-baselines');
    const raw = await fetchParts(e1Url);
    const data = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
    const dim = queries[0]?.vector.length ?? 384;
    const brute = opts.scan !== false || opts.hnsw ? bruteForce(data, dim, queries) : null;
    const out: Record<string, unknown> = opts.scan !== false && brute ? { bruteForce: brute.times } : {};
    if (opts.hnsw && brute) out.hnsw = await hnsw(data, dim, queries, brute.top);
    if (opts.orama) {
      const texts = JSON.parse(new TextDecoder().decode(await fetchBytes(textsUrl))) as string[];
      out.orama = await orama(texts, data, dim, queries.slice(0, opts.oramaQueries));
    }
    return out;
  },
};
