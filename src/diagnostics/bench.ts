// In-browser encoder throughput: texts per second through the bridge at batch 1 and batched; the
// judge's load, per-memory and query times and memory.
import type { Embedder } from '../embed/types';
import { createJudgeBridge } from '../bridge/judge-bridge';
import { measureAgentMemory } from './engine-bench';

export interface BrowserBenchResult {
  backend: string;
  texts: number;
  batch: number;
  batch1PerSec: number;
  batchedPerSec: number;
  /** Median ms to embed one short search query (30 queries, one at a time). */
  queryMedianMs: number;
}

const QUERIES = ['fixing my automobile', 'when did I last see the dentist', 'houseplant watering', 'what did my sister say about her new job', 'concert tickets'];

/** Synthetic memory-like texts of 8-30 words, deterministic. */
export function sampleTexts(n: number): string[] {
  const words = 'we went to the lake with my sister and talked about her new job painting pottery class last weekend dog park birthday concert'.split(' ');
  const out: string[] = [];
  let seed = 7;
  for (let i = 0; i < n; i++) {
    const len = 8 + (i % 23);
    const w: string[] = [];
    for (let k = 0; k < len; k++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      w.push(words[seed % words.length]);
    }
    out.push(`Memory ${i}: ${w.join(' ')}.`);
  }
  return out;
}

export async function benchEmbedder(e: Embedder, count = 200, batch = 32): Promise<BrowserBenchResult> {
  const texts = sampleTexts(count);
  await e.embed(texts.slice(0, 2)); // warm
  const ones = texts.slice(0, Math.min(40, count));
  let t0 = performance.now();
  for (const t of ones) await e.embed([t]);
  const batch1PerSec = ones.length / ((performance.now() - t0) / 1000);
  t0 = performance.now();
  for (let i = 0; i < texts.length; i += batch) await e.embed(texts.slice(i, i + batch));
  const batchedPerSec = texts.length / ((performance.now() - t0) / 1000);
  const times: number[] = [];
  for (let r = 0; r < 6; r++)
    for (const q of QUERIES) {
      t0 = performance.now();
      await e.embed([q]);
      times.push(performance.now() - t0);
    }
  times.sort((a, b) => a - b);
  return { backend: e.info().backend, texts: count, batch, batch1PerSec, batchedPerSec, queryMedianMs: times[times.length >> 1] };
}

export interface JudgeBenchResult {
  backend: string;
  /** Worker start to ready (the 111 MB read, the session created, a warm-up run). */
  loadMs: number;
  /** Median ms per memory, one text per call as the background fill reads them (n calls). */
  perMemoryMs: number;
  /** Median ms of a short query's judge vector (10 calls). */
  queryMedianMs: number;
  /** Page + workers memory (MiB) before the judge's worker started, after its calls, and its workers' share after; null where not measurable. */
  memoryBeforeMiB: number | null;
  memoryAfterMiB: number | null;
  workersAfterMiB: number | null;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const mib = (b: number | undefined) => (b === undefined ? null : Math.round(b / 2 ** 20));

/** Careful ranking's judge (MPNet) in its own worker, as the app runs it (scripts/bench/browser-judge.ts). */
export async function judgeBench(n = 20, opts: { graphOptimization?: 'disabled' | 'basic' | 'extended' | 'all' } = {}): Promise<JudgeBenchResult> {
  const before = await measureAgentMemory();
  const judge = createJudgeBridge({ init: opts.graphOptimization ? { graphOptimization: opts.graphOptimization } : {} });
  try {
    let t0 = performance.now();
    const info = await judge.ready();
    const loadMs = Math.round(performance.now() - t0);
    const per: number[] = [];
    for (const t of sampleTexts(n)) {
      t0 = performance.now();
      await judge.embed([t]);
      per.push(performance.now() - t0);
    }
    const q: number[] = [];
    for (const text of [...QUERIES, ...QUERIES]) {
      t0 = performance.now();
      await judge.embed([text]);
      q.push(performance.now() - t0);
    }
    const after = await measureAgentMemory();
    return {
      backend: info.backend,
      loadMs,
      perMemoryMs: Math.round(median(per)),
      queryMedianMs: Math.round(median(q)),
      memoryBeforeMiB: mib(before?.totalBytes),
      memoryAfterMiB: mib(after?.totalBytes),
      workersAfterMiB: mib(after?.workerBytes),
    };
  } finally {
    judge.dispose();
  }
}
