// The sentence encoders side by side in Node (issue 8): for MiniLM and the judge (all-mpnet-base-v2
// int8, which re-scores the top 30; Transformers.js; native onnxruntime-node on the CPU, and
// onnxruntime-web WASM) and USE-lite (tfjs WASM), each in a
// fresh child process so its peak memory is its own: load time, memories/s at batch 1 and 32,
// query-embedding latency, model bytes, peak RSS. Prints figures; never fails on timing.
//
//   npx tsx scripts/bench/encoders.ts                  (all five)
//   npx tsx scripts/bench/encoders.ts --one minilm cpu (one, as JSON: what the children run)
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { embedThroughput, memoryTexts } from './encoder';
import { loadNodeEmbedder, resolveEncoder, type NodeEmbedder } from '../lib/node-embedder';
import { MPNET_JUDGE, type EncoderMeta } from '../../src/embed/encoders';

/** The app's encoders, and the judge (not one a person picks, so not in ENCODERS). */
const metaOf = (id: string): EncoderMeta => (id === MPNET_JUDGE.id ? MPNET_JUDGE : resolveEncoder(id));

async function load(id: string, runtime: 'cpu' | 'wasm' | 'auto'): Promise<NodeEmbedder> {
  if (id !== MPNET_JUDGE.id) return loadNodeEmbedder(id, { batchSize: 32, runtime });
  const { loadNodeTransformers } = await import('../lib/node-transformers');
  const enc = await loadNodeTransformers(MPNET_JUDGE, { batchSize: 32, runtime });
  return { embed: enc.embed, info: enc.info, meta: MPNET_JUDGE, queries: enc.forQueries(), dispose: () => enc.dispose() };
}

const QUERIES = ['fixing my automobile', 'when did I last see the dentist', 'houseplant watering', 'what did my sister say about her new job', 'concert tickets'];

function folderBytes(dir: string): number {
  let n = 0;
  for (const f of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, f.name);
    n += f.isDirectory() ? folderBytes(p) : statSync(p).size;
  }
  return n;
}

/** The bytes a browser fetches for the model (weights, tokenizer / vocabulary, config). */
async function modelBytes(id: string): Promise<number> {
  const meta = metaOf(id);
  if (meta.runtime === 'tfjs') return folderBytes((await import('../lib/node-encoder')).modelDir());
  return folderBytes(join((await import('../lib/node-transformers')).MODELS_DIR, meta.folder!));
}

export interface EncoderFigures {
  encoder: string;
  runtime: string;
  loadMs: number;
  batch1PerSec: number;
  batch32PerSec: number;
  queryMedianMs: number;
  modelMB: number;
  peakRssMiB: number;
}

/** One encoder on one runtime, in this process. */
export async function benchOne(id: string, runtime: 'cpu' | 'wasm' | 'auto'): Promise<EncoderFigures> {
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  try {
    let t0 = performance.now();
    const enc = await load(id, runtime);
    const loadMs = performance.now() - t0;
    const { batch1PerSec, batch32PerSec } = await embedThroughput(enc);
    const times: number[] = [];
    for (let r = 0; r < 6; r++)
      for (const q of QUERIES) {
        t0 = performance.now();
        await enc.queries.embed([q]);
        times.push(performance.now() - t0);
      }
    times.sort((a, b) => a - b);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const backend = enc.info().backend;
    await enc.dispose();
    return {
      encoder: enc.meta.id,
      runtime: backend,
      loadMs: Math.round(loadMs),
      batch1PerSec: +batch1PerSec.toFixed(1),
      batch32PerSec: +batch32PerSec.toFixed(1),
      queryMedianMs: +times[times.length >> 1].toFixed(1),
      modelMB: +((await modelBytes(id)) / 1e6).toFixed(1),
      peakRssMiB: Math.round(peakRss / 2 ** 20),
    };
  } finally {
    clearInterval(sampler);
  }
}

const RUNS: [string, 'cpu' | 'wasm' | 'auto'][] = [
  ['all-MiniLM-L6-v2-int8', 'cpu'],
  ['all-MiniLM-L6-v2-int8', 'wasm'],
  ['use-lite-en/v1', 'auto'],
  [MPNET_JUDGE.id, 'cpu'],
  [MPNET_JUDGE.id, 'wasm'],
];

export async function run(): Promise<Record<string, number>> {
  const me = fileURLToPath(import.meta.url);
  const out: Record<string, number> = {};
  const rows: EncoderFigures[] = [];
  for (const [id, runtime] of RUNS) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', me, '--one', id, runtime], { encoding: 'utf8', timeout: id === MPNET_JUDGE.id ? 1_800_000 : 600_000 }); // the judge is ~5-10x MiniLM's work
    const line = r.stdout.trim().split('\n').at(-1) ?? '';
    try {
      const f = JSON.parse(line) as EncoderFigures;
      rows.push(f);
      const key = `${f.encoder.replace(/[^a-z0-9]+/gi, '_')}_${f.runtime}`;
      for (const [k, v] of Object.entries(f)) if (typeof v === 'number') out[`${key}_${k}`] = v;
    } catch {
      console.log(`  ${id} on ${runtime}: failed (${(r.stderr || r.error?.message || '').trim().split('\n').slice(-2).join(' ')})`);
    }
  }
  const head = ['encoder', 'runtime', 'load ms', 'mem/s b1', 'mem/s b32', 'query ms', 'model MB', 'peak RSS MiB'];
  const cells = rows.map((f) => [f.encoder, f.runtime, f.loadMs, f.batch1PerSec, f.batch32PerSec, f.queryMedianMs, f.modelMB, f.peakRssMiB].map(String));
  const w = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  for (const row of [head, ...cells]) console.log('  ' + row.map((c, i) => (i < 2 ? c.padEnd(w[i]) : c.padStart(w[i]))).join('  '));
  console.log(`  (${memoryTexts(320).length} LoCoMo turns; batch 1 = 64 texts one at a time; query ms = median of ${QUERIES.length * 6} short queries, one at a time)`);
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf('--one');
  if (i >= 0) {
    benchOne(process.argv[i + 1], (process.argv[i + 2] ?? 'auto') as 'cpu').then(
      (f) => console.log(JSON.stringify(f)),
      (e: unknown) => {
        console.error(e);
        process.exitCode = 1;
      },
    );
  } else {
    run().catch((e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    });
  }
}
