// Padded tokens the encoder computes for an import, by how the embed bridge cuts the featurize
// call into chunks (issue 13, ingest): the bench's texts (or LoCoMo turns with --locomo), every
// text the featurizing plan sends to the encoder (E1 + E5's clauses), MiniLM's own tokenizer,
// planBatches as the worker runs it (32 texts, 1,024 padded tokens). A count, not a timing: the
// machine's load does not move it.
//
//   npx tsx scripts/lab/ingest-padding.ts [--n 200] [--chunk 16]
import { join, resolve } from 'node:path';
import { AutoTokenizer, env } from '@huggingface/transformers';
import { chunksByLength } from '../../src/bridge/chunk-pool';
import { sampleTexts } from '../../src/diagnostics/bench';
import { planBatches } from '../../src/embed/transformers';
import { prepareForEmbedding } from '../../src/embed/types';
import { planFeatures } from '../../src/features';
import { loadNodeResources } from '../lib/resources-node';

const ROOT = resolve(import.meta.dirname ?? '.', '../..');
const argv = process.argv.slice(2);
const arg = (k: string, d: number) => (argv.includes(k) ? Number(argv[argv.indexOf(k) + 1]) : d);
const n = arg('--n', 200);
const chunk = arg('--chunk', 16);

async function main(): Promise<void> {
  env.allowRemoteModels = false;
  env.localModelPath = join(ROOT, 'public', 'models') + '/';
  const tok = await AutoTokenizer.from_pretrained('all-MiniLM-L6-v2-int8');
  const resources = await loadNodeResources();
  // the bench's import: the texts after its first capture, "Ingest "-prefixed (scripts/bench/ingest.ts)
  const texts = sampleTexts(n + 1).map((t) => `Ingest ${t}`).slice(1);
  const items = texts.map((text, i) => ({ text, createdAt: 0, sessionPosition: i }));
  const count = (t: string) => Math.min(512, tok.encode(prepareForEmbedding(t).text).length);
  const padded = (part: typeof items) => {
    const encTexts = planFeatures(part, resources).texts;
    const counts = encTexts.map(count);
    return planBatches(counts, 32, 1024).reduce((s, b) => s + b.length * Math.max(...b.map((i) => counts[i]!)), 0);
  };
  const real = planFeatures(items, resources).texts.map(count).reduce((s, c) => s + c, 0);
  const arrival = chunksByLength(items, chunk, () => 0).chunks.reduce((s, c) => s + padded(c), 0);
  const sorted = chunksByLength(items, chunk, (it) => it.text.length).chunks.reduce((s, c) => s + padded(c), 0);
  const whole = padded(items);
  console.log(JSON.stringify({ texts: n, chunk, realTokens: real, arrivalChunks: arrival, sortedChunks: sorted, oneCall: whole, sortedVsArrival: Math.round((sorted / arrival) * 1000) / 1000 }));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
