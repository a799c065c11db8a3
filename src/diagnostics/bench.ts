// In-browser encoder throughput: texts per second through the bridge at batch 1 and batched.
import type { Embedder } from '../embed/types';

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
