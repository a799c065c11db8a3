// The plain search's engine part at scale, in Node, split into its stages (issue 13, helper
// s5-search): the browser bench's corpus (scale-corpus.ts: texts.json + e1.f32) in a HybridIndex,
// then per query the keyword candidates (BM25), the dense scan, and the whole search, interleaved.
//   node --expose-gc --import tsx scripts/bench/search-parts.ts --n 100000 [--rounds 3]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HybridIndex } from '../../src/core/hybrid';
import { ensureCorpus, type CorpusQuery } from './scale-corpus';
import { percentile } from '../lib/metrics';

const argv = process.argv.slice(2);
const num = (k: string, d: number) => (argv.includes(k) ? Number(argv[argv.indexOf(k) + 1]) : d);
const n = num('--n', 100_000);
const rounds = num('--rounds', 3);
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : null;

const c = await ensureCorpus(n, 13, (s) => console.error(s));
const texts = JSON.parse(readFileSync(join(c.dir, 'texts.json'), 'utf8')) as string[];
const raw = readFileSync(join(c.dir, 'e1.f32'));
const e1 = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
const queries = JSON.parse(readFileSync(join(c.dir, 'queries.json'), 'utf8')) as CorpusQuery[];
const dim = queries[0]!.vector.length;
const index = new HybridIndex(dim);
let t0 = performance.now();
const now = Date.now();
texts.forEach((text, i) =>
  index.upsert({ id: `m${i}`, text, tags: [], importance: 0.5, createdAt: now - i * 60_000, validFrom: now - i * 60_000, validTo: null, status: 'active', vector: e1.subarray(i * dim, (i + 1) * dim) }),
);
console.error(`built ${n} in ${Math.round(performance.now() - t0)} ms`);
const qs = queries.slice(0, 30).map((q) => ({ text: q.text, vector: Float32Array.from(q.vector) }));
const times: Record<string, number[]> = { lexical: [], dense: [], full: [], keywordOnly: [] };
for (let r = 0; r < rounds; r++)
  for (const q of qs) {
    if (only === 'dense') {
      t0 = performance.now();
      index.candidates({ text: '', vector: q.vector }, { topK: 10 });
      times.dense.push(performance.now() - t0);
      continue;
    }
    t0 = performance.now();
    index.candidates({ text: q.text, vector: null }, { topK: 10 });
    times.lexical.push(performance.now() - t0);
    t0 = performance.now();
    index.candidates({ text: '', vector: q.vector }, { topK: 10 });
    times.dense.push(performance.now() - t0);
    t0 = performance.now();
    index.search(q, { topK: 10 });
    times.full.push(performance.now() - t0);
    t0 = performance.now();
    index.search({ text: q.text, vector: null }, { topK: 10 });
    times.keywordOnly.push(performance.now() - t0);
  }
console.log(JSON.stringify(Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.round(percentile(v, 50) * 100) / 100]))));
