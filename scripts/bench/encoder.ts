// Encoder benchmark in Node (tfjs wasm, single thread): load time, memories/s at batch 1 and
// batched, tokenizer speed against the reference, and peak memory. Prints figures; never fails
// on timing. Standalone: npx tsx scripts/bench/encoder.ts
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createTokenizer, type Vocabulary } from '../../src/core/tokenizer';
import { loadNodeEncoder, modelDir } from '../lib/node-encoder';

const require = createRequire(import.meta.url);

/** LoCoMo turn texts, as the eval protocol builds them, or synthetic ones if the data is missing. */
export function memoryTexts(n: number): string[] {
  try {
    const data = JSON.parse(readFileSync('/work/shared/data/locomo-dev.json', 'utf8')) as Array<{ conversation: Record<string, unknown> }>;
    const out: string[] = [];
    for (const item of data)
      for (const [k, v] of Object.entries(item.conversation))
        if (/^session_\d+$/.test(k) && Array.isArray(v))
          for (const t of v as Array<{ speaker: string; text: string; blip_caption?: string }>)
            out.push(`${t.speaker}: ${t.text}${t.blip_caption ? ` [image: ${t.blip_caption}]` : ''}`);
    if (out.length >= n) return out.slice(0, n);
  } catch {
    /* fall through */
  }
  return Array.from({ length: n }, (_, i) => `Memory ${i}: we went to the lake with my sister and talked about her new job.`);
}

/** Memories per second one at a time (64 texts) and in batches (320 texts), after a warm-up. */
export async function embedThroughput(enc: { embed(texts: string[]): Promise<unknown> }): Promise<{ batch1PerSec: number; batch32PerSec: number }> {
  const texts = memoryTexts(320);
  await enc.embed(texts.slice(0, 4)); // warm-up
  const single = texts.slice(0, 64);
  let t0 = performance.now();
  for (const t of single) await enc.embed([t]);
  const batch1PerSec = single.length / ((performance.now() - t0) / 1000);
  t0 = performance.now();
  await enc.embed(texts); // batches of 32, sorted by length
  return { batch1PerSec, batch32PerSec: texts.length / ((performance.now() - t0) / 1000) };
}

export async function run(): Promise<Record<string, number>> {
  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const sampler = setInterval(sample, 20);
  try {
    let t0 = performance.now();
    const enc = await loadNodeEncoder({ batchSize: 32 });
    const loadMs = performance.now() - t0;
    sample();
    const texts = memoryTexts(320);
    const { batch1PerSec, batch32PerSec } = await embedThroughput(enc);

    // Tokenizer alone: ours against the reference on the same texts.
    const vocabulary = JSON.parse(readFileSync(`${modelDir()}/vocab.json`, 'utf8')) as Vocabulary;
    const ours = createTokenizer(vocabulary);
    // The reference package drags in its own tfjs copy, which warns about every kernel it
    // re-registers: silence that while loading it.
    const { warn, log } = console;
    console.warn = console.log = () => undefined;
    let EmbeddingsModel: new (d: { vocabulary: Vocabulary; model: unknown }) => { tokenizer: { encode(s: string): number[] } };
    try {
      ({ EmbeddingsModel } = require('@energetic-ai/embeddings'));
    } finally {
      Object.assign(console, { warn, log });
    }
    const ref = new EmbeddingsModel({ vocabulary, model: null }).tokenizer;
    const reps = 5;
    t0 = performance.now();
    for (let r = 0; r < reps; r++) for (const t of texts) ours.encode(t);
    const oursPerSec = (reps * texts.length) / ((performance.now() - t0) / 1000);
    t0 = performance.now();
    for (let r = 0; r < reps; r++) for (const t of texts) ref.encode(t);
    const refPerSec = (reps * texts.length) / ((performance.now() - t0) / 1000);
    const long = texts.join(' ').slice(0, 2000);
    t0 = performance.now();
    for (let r = 0; r < 20; r++) ours.encode(long);
    const oursLongMs = (performance.now() - t0) / 20;
    t0 = performance.now();
    for (let r = 0; r < 20; r++) ref.encode(long);
    const refLongMs = (performance.now() - t0) / 20;

    sample();
    enc.dispose();
    const figures = {
      loadMs: Math.round(loadMs),
      batch1PerSec: +batch1PerSec.toFixed(1),
      batch32PerSec: +batch32PerSec.toFixed(1),
      batchSpeedup: +(batch32PerSec / batch1PerSec).toFixed(2),
      tokenizerTextsPerSec: Math.round(oursPerSec),
      referenceTokenizerTextsPerSec: Math.round(refPerSec),
      tokenizerSpeedup: +(oursPerSec / refPerSec).toFixed(1),
      tokenize2000CharsMs: +oursLongMs.toFixed(3),
      referenceTokenize2000CharsMs: +refLongMs.toFixed(3),
      peakRssMiB: Math.round(peakRss / 2 ** 20),
      peakHeapMiB: Math.round(peakHeap / 2 ** 20),
    };
    // Printed here so `npm run bench` (which runs every section's run()) shows them too.
    for (const [k, v] of Object.entries(figures)) console.log(`${k.padEnd(32)} ${v}`);
    return figures;
  } finally {
    clearInterval(sampler);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  run().then(
    () => undefined,
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
