// The engine's query path at scale, in Node (issue 13): the app's own EngineCore over a seeded
// synthetic corpus of N memories (N in 1k / 10k / 30k / 100k, up to --n), with the real
// featurizers for every space (E5 / E10 / E12 through a deterministic stand-in encoder, as
// scripts/bench/recall.ts does) and random unit vectors for E1 at the default encoder's
// dimension (384). Per N: engine load time, engine heap (after gc, settled:
// heapUsed + external, scripts/lib/heap.ts), then interleaved rounds of
// plain search, recall BALANCED (all spaces, top 10), DIVERGENT and assocHops 3 (median, p95).
// Prints figures against the targets; never fails on timings.
//
//   npm run bench:scale:node -- --n 100000 [--json]
//   (run with node --expose-gc for the heap figure: the npm script does)
//
// Featurizing 100k memories takes minutes; the serialised features are cached per N under
// os.tmpdir() (mnemograph-scale-<n>-<dim>.bin) so a second run starts at the engine's load.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserializeFeatures, serializeFeatures } from '../../src/core/spaces';
import { EngineCore } from '../../workers/engine-core';
import type { SerializedFeatures } from '../../src/protocol/engine';
import type { RecallOptionsInput } from '../../src/core/recall';
import { hasGc, settledHeap } from '../lib/heap';
import { median, percentile } from '../lib/metrics';
import { corpus, engineDocsOf, featuresOf, interleaved, type Corpus, type Variant } from './recall';

export const DIM = 384;
const SIZES = [1000, 10_000, 30_000, 100_000];
const QUERIES = 200;
const TARGETS: Record<string, number> = { recallP50Ms: 50, recallP95Ms: 120, divergentP50Ms: 80, assocHops3P50Ms: 150, searchP50Ms: 20, engineMiB: 600 };


/** Serialised features of every memory and query: computed once per (n, dim), then read from a cache file. */
export async function features(c: Corpus, n: number): Promise<{ docs: SerializedFeatures[]; queries: SerializedFeatures[] }> {
  const file = join(tmpdir(), `mnemograph-scale-${n}-${DIM}.bin`);
  if (existsSync(file) && !process.argv.includes('--no-cache')) {
    const buf = readFileSync(file);
    return decodeAll(buf);
  }
  const f = await featuresOf(c, true, DIM);
  const out = { docs: f.docs, queries: f.queries.map((q) => serializeFeatures(q)) };
  writeFileSync(file, encodeAll(out));
  return out;
}

// Cache format: JSON header (per record: space -> byte length) + the concatenated buffers.
function encodeAll(x: { docs: SerializedFeatures[]; queries: SerializedFeatures[] }): Buffer {
  const lens: Record<string, number>[][] = [[], []];
  const parts: Uint8Array[] = [];
  [x.docs, x.queries].forEach((list, k) => {
    for (const f of list) {
      const rec: Record<string, number> = {};
      for (const [s, b] of Object.entries(f)) {
        const bytes = new Uint8Array(b as ArrayBuffer);
        rec[s] = bytes.byteLength;
        parts.push(bytes);
      }
      lens[k].push(rec);
    }
  });
  const head = Buffer.from(JSON.stringify(lens));
  const len = Buffer.alloc(4);
  len.writeUInt32LE(head.length);
  return Buffer.concat([len, head, ...parts]);
}

function decodeAll(buf: Buffer): { docs: SerializedFeatures[]; queries: SerializedFeatures[] } {
  const headLen = buf.readUInt32LE(0);
  const lens = JSON.parse(buf.subarray(4, 4 + headLen).toString()) as Record<string, number>[][];
  let at = 4 + headLen;
  const [docs, queries] = lens.map((list) =>
    list.map((rec) => {
      const f: Record<string, ArrayBuffer> = {};
      for (const [s, l] of Object.entries(rec)) {
        f[s] = buf.buffer.slice(buf.byteOffset + at, buf.byteOffset + at + l) as ArrayBuffer;
        at += l;
      }
      return f as SerializedFeatures;
    }),
  );
  return { docs, queries };
}

async function benchSize(n: number): Promise<Record<string, number>> {
  const big = n >= 30_000;
  // the baseline before the corpus exists: the engine keeps the feature buffers it is given
  const heap0 = await settledHeap();
  const c = corpus(n, QUERIES, DIM);
  const tf = performance.now();
  const feats = await features(c, n);
  const featMs = performance.now() - tf;
  const engineDocs = engineDocsOf(c, feats.docs);
  const t0 = performance.now();
  const engine = new EngineCore();
  engine.load(engineDocs, { dim: DIM });
  const loadMs = performance.now() - t0;
  // the corpus's own copies go before the engine's heap is measured (what is left: the queries)
  engineDocs.length = 0;
  feats.docs.length = 0;
  c.docs.length = 0;
  // heapUsed + external, settled (scripts/lib/heap.ts): the wasm codes counted, no unswept garbage
  const loaded = await settledHeap();
  const engineMiB = (loaded.bytes - heap0.bytes) / 2 ** 20;
  // the figure as measured before (heapUsed + arrayBuffers: without the wasm memory), now settled
  const engineJsMiB = (loaded.heapUsed + loaded.arrayBuffers - heap0.heapUsed - heap0.arrayBuffers) / 2 ** 20;

  const qVectors = feats.queries.map((f) => (deserializeFeatures(f).E1 as Float32Array | undefined) ?? null);
  const queryVector = (q: number) => qVectors[q];
  const recall = (o: RecallOptionsInput) => (q: number) => engine.recall({ text: c.queries[q].text, features: feats.queries[q] }, o);
  const search = (q: number) => engine.search({ text: c.queries[q].text, vector: queryVector(q) }, { topK: 10 });
  // the first hop / lateral recall builds the engine's neighbour structure: timed apart
  const m0 = performance.now();
  await recall({ assocHops: 1 })(0);
  const firstHopMs = performance.now() - m0;
  // with the neighbour matrix the first hop built (lateral and hops keep it until the next change)
  const engineWarmMiB = ((await settledHeap()).bytes - heap0.bytes) / 2 ** 20;
  const block = 1;

  const variants: Variant[] = [
    { key: 'search', label: 'search (top 10)', block, run: search },
    { key: 'recall', label: 'recall BALANCED (all spaces, top 10)', block, run: recall({ profile: 'BALANCED' }) },
    { key: 'divergent', label: 'recall DIVERGENT', block, run: recall({ profile: 'DIVERGENT' }) },
    { key: 'hops3', label: 'recall BALANCED, assocHops 3', block, run: recall({ profile: 'BALANCED', assocHops: 3 }) },
  ];
  // SCALE_VARIANTS=recall,divergent runs only those (for a profile of one path)
  const only = process.env.SCALE_VARIANTS?.split(',');
  if (only) variants.splice(0, variants.length, ...variants.filter((v) => only.includes(v.key)));
  const rounds = Number(process.env.SCALE_ROUNDS) || (n >= 100_000 ? 30 : big ? 40 : 80);
  const times = await interleaved(variants, rounds, QUERIES);
  const stat = (k: string) => ({ p50: median(times.get(k) ?? [NaN]), p95: percentile(times.get(k) ?? [NaN], 95) });
  const out = {
    n,
    loadMs,
    engineMiB,
    engineJsMiB,
    engineWarmMiB,
    firstHopMs,
    searchP50Ms: stat('search').p50,
    searchP95Ms: stat('search').p95,
    recallP50Ms: stat('recall').p50,
    recallP95Ms: stat('recall').p95,
    divergentP50Ms: stat('divergent').p50,
    divergentP95Ms: stat('divergent').p95,
    assocHops3P50Ms: stat('hops3').p50,
    assocHops3P95Ms: stat('hops3').p95,
  };
  const f = (x: number) => x.toFixed(1).padStart(9);
  const load = (await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(
    `n = ${n}: engine load ${(loadMs / 1000).toFixed(2)} s, engine heap +${engineMiB.toFixed(0)} MiB (without the wasm memory +${engineJsMiB.toFixed(0)}; +${engineWarmMiB.toFixed(0)} MiB with the neighbour matrix), first hop recall ${firstHopMs.toFixed(0)} ms` +
      ` (features ${(featMs / 1000).toFixed(1)} s; ${rounds} rounds; load average ${load})`,
  );
  console.log(`  ${'path'.padEnd(40)} ${'p50 ms'.padStart(9)} ${'p95 ms'.padStart(9)}`);
  for (const v of variants) console.log(`  ${v.label.padEnd(40)} ${f(stat(v.key).p50)} ${f(stat(v.key).p95)}`);
  if (n === 100_000) {
    const rows = Object.entries(TARGETS).map(([k, t]) => `${k} ${(out[k as keyof typeof out] as number).toFixed(1)} / ${t} ${(out[k as keyof typeof out] as number) <= t ? 'ok' : 'MISSED'}`);
    console.log(`  targets at 100k: ${rows.join('; ')}`);
  }
  return out;
}

export async function run(): Promise<Record<string, unknown>> {
  const at = process.argv.indexOf('--n');
  const max = at >= 0 ? Number(process.argv[at + 1]) : 10_000;
  const only = process.env.SCALE_SIZES?.split(',').map(Number);
  const sizes = only ?? SIZES.filter((s) => s <= max);
  if (!hasGc()) console.log('(no --expose-gc: heap figures include garbage)');
  const results: Record<string, number>[] = [];
  for (const n of sizes) results.push(await benchSize(n));
  return { dim: DIM, loadAverage: (await import('node:os')).loadavg(), sizes: results };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  run().then((r) => {
    if (process.argv.includes('--json')) console.log(JSON.stringify(r));
  });
}
