// The late-interaction stage alone on synthetic token matrices of realistic size (12 query tokens,
// 30 re-scored candidates of 35 tokens, idf over 100, 384 dimensions): ms per query, three rounds.
//   npx tsx scripts/lab/late-bench.ts
import { lateInteraction, type TokenMatrix } from '../../src/core/pipeline';
const rnd = (n: number, dim = 384): TokenMatrix => ({ ids: Array.from({ length: n }, () => Math.floor(Math.random() * 3000)), vectors: Float32Array.from({ length: n * dim }, () => Math.random() - 0.5), dim });
const docs = new Map(Array.from({ length: 100 }, (_, i) => [`m${i}`, rnd(35)]));
const hits = Array.from({ length: 100 }, (_, i) => ({ id: `m${i}`, score: 1 - i / 100, mode: 'standard' as const, why: { lexical: 0, semantic: 0, bm25: 0, cosine: 0, matchedTerms: [] } }));
const q = rnd(12);
for (let r = 0; r < 3; r++) {
  const t0 = performance.now();
  for (let i = 0; i < 200; i++) lateInteraction(hits, q, (id) => docs.get(id), { weight: 3, depth: 30, idfDepth: 100 });
  console.log(`lateInteraction, 12 query tokens x 30 candidates x 35 tokens: ${((performance.now() - t0) / 200).toFixed(2)} ms per query`);
}
