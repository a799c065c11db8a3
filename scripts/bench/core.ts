// Core query latency in Node (no encoder, no workers): BM25, dense scan and the shipped hybrid
// over 1k and 10k synthetic memories (seeded: random unit 512-d vectors, Zipf-distributed words
// from a generated vocabulary). Prints figures and ratios; never fails on timings.
//   npx tsx scripts/bench/core.ts
import { fileURLToPath } from 'node:url';
import { DEFAULT_HYBRID_CONFIG, HybridIndex } from '../../src/core/hybrid';
import { median, percentile } from '../lib/metrics';
import { rng, unitVector as unitVectorOf, zipf } from '../lib/synthetic';

const unitVector = (rand: () => number): Float32Array => unitVectorOf(rand, DIM);

const DIM = 512;
const QUERIES = 200;


function vocabulary(size: number): string[] {
  const on = ['b', 'c', 'd', 'f', 'g', 'h', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'st', 'tr', 'pl'];
  const nu = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou'];
  const words: string[] = [];
  for (let i = 0; words.length < size; i++) {
    let w = '';
    let x = i;
    do {
      w += on[x % on.length] + nu[Math.floor(x / on.length) % nu.length];
      x = Math.floor(x / (on.length * nu.length));
    } while (x > 0);
    words.push(w + 'n');
  }
  return words;
}



const ms = () => performance.now();

function timeQueries(fn: (i: number) => void): { median: number; p95: number } {
  for (let i = 0; i < 20; i++) fn(i); // warm-up (JIT), not measured
  const times: number[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const t0 = ms();
    fn(i);
    times.push(ms() - t0);
  }
  return { median: median(times), p95: percentile(times, 95) };
}

async function benchSize(n: number): Promise<Record<string, number>> {
  const rand = rng(1234 + n);
  const words = vocabulary(5000);
  const pick = zipf(words.length, rand);
  const sentence = (len: number) => Array.from({ length: len }, () => words[pick()]).join(' ');
  const docs = Array.from({ length: n }, (_, i) => ({
    id: `m${String(i).padStart(6, '0')}`,
    text: sentence(8 + Math.floor(rand() * 25)),
    vector: unitVector(rand),
  }));
  const queries = Array.from({ length: QUERIES + 20 }, () => ({ text: sentence(3 + Math.floor(rand() * 4)), vector: unitVector(rand) }));

  (globalThis as { gc?: () => void }).gc?.();
  const mem0 = process.memoryUsage();
  const heap0 = mem0.heapUsed + mem0.arrayBuffers;
  const t0 = ms();
  const index = new HybridIndex(DIM);
  for (const d of docs) {
    index.upsert({ ...d, tags: [], importance: 0.5, createdAt: 0, validFrom: 0, validTo: null, status: 'active' });
  }
  const buildMs = ms() - t0;
  (globalThis as { gc?: () => void }).gc?.();
  const mem1 = process.memoryUsage();
  // JS heap plus typed-array backing stores (the vector matrix lives outside heapUsed).
  const heapMiB = (mem1.heapUsed + mem1.arrayBuffers - heap0) / 2 ** 20;

  const topK = 10;
  const bm25 = timeQueries((i) => index.candidates({ text: queries[i].text, vector: null }, { topK, config: { candidateK: topK } }));
  const dense = timeQueries((i) => index.candidates({ text: '', vector: queries[i].vector }, { topK, config: { candidateK: topK } }));
  const hybrid = timeQueries((i) => index.search(queries[i], { topK }));
  const hybrid60 = timeQueries((i) => index.search(queries[i], { topK, config: { candidateK: 60 } }));

  const f = (x: number) => x.toFixed(3).padStart(8);
  console.log(`n = ${n}: build ${buildMs.toFixed(0)} ms (${((buildMs / n) * 1000).toFixed(0)} us/doc), heap + array buffers +${heapMiB.toFixed(1)} MiB`);
  console.log(`  ${'path'.padEnd(26)}  median ms    p95 ms`);
  for (const [name, r] of [
    ['bm25 (top 10)', bm25],
    ['dense scan (top 10)', dense],
    [`hybrid (default, K=${DEFAULT_HYBRID_CONFIG.candidateK})`, hybrid],
    ['hybrid (K=60)', hybrid60],
  ] as const) {
    console.log(`  ${name.padEnd(26)}  ${f(r.median)}  ${f(r.p95)}`);
  }
  console.log(`  hybrid / (bm25 + dense) median ratio: ${(hybrid.median / (bm25.median + dense.median)).toFixed(2)}`);
  const p = `n${n}_`;
  return {
    [`${p}build_ms`]: buildMs,
    [`${p}heap_mib`]: heapMiB,
    [`${p}bm25_median_ms`]: bm25.median,
    [`${p}bm25_p95_ms`]: bm25.p95,
    [`${p}dense_median_ms`]: dense.median,
    [`${p}dense_p95_ms`]: dense.p95,
    [`${p}hybrid_median_ms`]: hybrid.median,
    [`${p}hybrid_p95_ms`]: hybrid.p95,
    [`${p}hybrid_k60_median_ms`]: hybrid60.median,
    [`${p}hybrid_k60_p95_ms`]: hybrid60.p95,
  };
}

export async function run(): Promise<Record<string, number>> {
  return { ...(await benchSize(1000)), ...(await benchSize(10000)) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  run().then((r) => {
    if (process.argv.includes('--json')) console.log(JSON.stringify(r));
  });
}
