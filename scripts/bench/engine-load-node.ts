// The engine worker's staged start (workers/engine-api.ts loadFromStore) replayed in Node over the
// scale corpus (scripts/bench/scale-corpus.ts), without IndexedDB: the memory rows in pages of
// 5,000 (EngineCore.load / upsertMany: tokenising), then every E1 (attachVectors), then every
// space (attachFeatures in chunks of 1,000), each stage timed. For profiling where a reload's
// engine time goes (run with --cpu-prof); never fails on a timing.
//
//   node --import tsx scripts/bench/engine-load-node.ts --n 30000 [--seed 13]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import type { SerializedFeatures } from '../../src/core/spaces';
import type { MemoryId, SpaceId } from '../../src/core/types';
import { MINILM_ID } from '../../src/embed/encoders';
import { parseBackup } from '../../src/io';
import { toIndexDoc } from '../../src/protocol/engine';
import { EngineCore } from '../../workers/engine-core';
import { ensureCorpus, SCALE_DIM } from './scale-corpus';

const arg = (k: string, d: number) => {
  const i = process.argv.indexOf(k);
  return i >= 0 ? Number(process.argv[i + 1]) : d;
};

async function main(): Promise<void> {
  const n = arg('--n', 10_000);
  const c = await ensureCorpus(n, arg('--seed', 13));
  const memories = [];
  const features = new Map<MemoryId, SerializedFeatures>();
  for (const name of c.chunks) {
    const parsed = parseBackup(readFileSync(join(c.dir, name)));
    if (!parsed.ok) throw new Error(`${name}: ${parsed.errors.at(-1)?.message}`);
    memories.push(...parsed.items.memories);
    for (const v of parsed.items.vectors) (features.get(v.memoryId) ?? features.set(v.memoryId, {}).get(v.memoryId)!)[v.space as SpaceId] = v.data;
  }
  const core = new EngineCore();
  const t: Record<string, number> = {};
  let t0 = performance.now();
  for (let i = 0; i < memories.length; i += 5000) {
    const docs = memories.slice(i, i + 5000).map((m) => toIndexDoc(m));
    if (i === 0) core.load(docs, { dim: SCALE_DIM, encoder: MINILM_ID });
    else core.upsertMany(docs);
  }
  t.keywordMs = performance.now() - t0;
  t0 = performance.now();
  core.attachVectors([...features].map(([id, f]) => ({ id, features: { E1: f.E1 } })));
  t.vectorsMs = performance.now() - t0;
  t0 = performance.now();
  const all = [...features];
  for (let i = 0; i < all.length; i += 1000) core.attachFeatures(all.slice(i, i + 1000).map(([id, f]) => ({ id, features: f })));
  t.featuresMs = performance.now() - t0;
  t0 = performance.now();
  await core.recall({ text: "garden tulips", features: {} }, { topK: 10 });
  t.firstRecallMs = performance.now() - t0;
  console.log(JSON.stringify({ n, load1m: Math.round(loadavg()[0]! * 10) / 10, ...Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v)])), heapMiB: Math.round(process.memoryUsage().heapUsed / 2 ** 20) }));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
