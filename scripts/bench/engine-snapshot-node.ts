// The warm stage of a start (every space of every memory), with and without the engine snapshot
// (schema v12, issue 13), in Node over the scale corpus (scripts/bench/scale-corpus.ts), with the
// engine's own code. Per N, after the same keyword stage (EngineCore.load of the memories' words),
// interleaved rounds of
//   A  today's warm stage: every E1 attached (attachVectors), then every memory's spaces
//      (attachFeatures in chunks of 1,000): deserialising and indexing each;
//   B  the snapshot's: structuredClone of the stored rows (what an IndexedDB read costs to
//      deserialise), joining the rows into the two streams, then adoptBuilt (checksums, unpack,
//      structural checks, the E1 rows copied into the store, the entity graph rebuilt).
// Also: the cost of writing one (pack + rows) and its size. Checks that both engines answer the
// same recall and search. The IndexedDB read itself is not in these figures (Chromium: `npm run
// bench:scale`).
//
//   npm run bench:engine -- [--sizes 10000,100000] [--rounds 3] [--json]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import type { SerializedFeatures } from '../../src/core/spaces';
import type { MemoryId, SpaceId } from '../../src/core/types';
import { MINILM_ID } from '../../src/embed/encoders';
import { parseBackup } from '../../src/io';
import { toIndexDoc, type EngineDoc } from '../../src/protocol/engine';
import { engineOfRows, engineRows, type EngineHeadRow } from '../../src/db/engine-snapshot';
import { streamBytes } from '../../src/core/snapshot-pack';
import { EngineCore } from '../../workers/engine-core';
import { adoptBuilt, packBuilt } from '../../workers/engine-warm';
import { median } from '../lib/metrics';
import { ensureCorpus, SCALE_DIM } from './scale-corpus';

const argv = process.argv.slice(2);
const arg = (k: string, d: string) => (argv.includes(k) ? argv[argv.indexOf(k) + 1]! : d);
const sizes = arg('--sizes', '10000,100000').split(',').map(Number);
const rounds = Number(arg('--rounds', '3'));
const json = argv.includes('--json');
const OPTS = { dim: SCALE_DIM, encoder: MINILM_ID };
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const ms = (t0: number) => Math.round(performance.now() - t0);

async function corpusOf(n: number): Promise<{ docs: EngineDoc[]; features: [MemoryId, SerializedFeatures][] }> {
  const c = await ensureCorpus(n, 13);
  const docs: EngineDoc[] = [];
  const features = new Map<MemoryId, SerializedFeatures>();
  for (const name of c.chunks) {
    const parsed = parseBackup(readFileSync(join(c.dir, name)));
    if (!parsed.ok) throw new Error(`${name}: ${parsed.errors.at(-1)?.message}`);
    docs.push(...parsed.items.memories.map((m) => toIndexDoc(m)));
    for (const v of parsed.items.vectors) (features.get(v.memoryId) ?? features.set(v.memoryId, {}).get(v.memoryId)!)[v.space as SpaceId] = v.data;
  }
  return { docs, features: [...features] };
}

async function answers(core: EngineCore, queries: [string, SerializedFeatures][]): Promise<string> {
  const out: unknown[] = [];
  for (const [text, features] of queries) {
    out.push((await core.recall({ text, features, now: 2e12 }, { topK: 10 })).results.map((h) => `${h.id}:${h.score.toFixed(9)}`));
    out.push((await core.search({ text, vector: null }, { topK: 10 })).map((h) => h.id));
  }
  return JSON.stringify(out);
}

const out: Record<string, Record<string, number | boolean | string>> = {};
for (const n of sizes) {
  const { docs, features } = await corpusOf(n);
  const keywordStage = () => {
    const core = new EngineCore();
    core.load(docs, OPTS);
    return core;
  };
  const queries: [string, SerializedFeatures][] = [0, 7, 42].map((i) => [docs[i].text.split(/\s+/).slice(0, 3).join(' '), features[i][1]]);
  const oldWarm = (core: EngineCore) => {
    core.attachVectors(features.map(([id, f]) => ({ id, features: { E1: f.E1 } })));
    for (let i = 0; i < features.length; i += 1000) core.attachFeatures(features.slice(i, i + 1000).map(([id, f]) => ({ id, features: f })));
    core.settle();
  };
  // the snapshot a warm engine writes
  const warmCore = keywordStage();
  oldWarm(warmCore);
  let t0 = performance.now();
  const snapshot = await packBuilt(warmCore);
  const packMs = ms(t0);
  t0 = performance.now();
  const rows = engineRows(snapshot, { seq: 1, dbVersion: 12, producers: { encoder: MINILM_ID, lexical: 'x' }, dim: SCALE_DIM, size: n, now: 0 });
  const rowsMs = ms(t0);
  const bytes = streamBytes(snapshot.vectors.bytes) + streamBytes(snapshot.spaces.bytes);
  const want = await answers(warmCore, queries);
  const a: number[] = [];
  const b: { clone: number; adopt: number; total: number }[] = [];
  let same = true;
  for (let r = 0; r < rounds; r++) {
    for (const variant of r % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
      gc();
      const core = keywordStage();
      gc();
      if (variant === 'A') {
        t0 = performance.now();
        oldWarm(core);
        a.push(ms(t0));
      } else {
        t0 = performance.now();
        const read = structuredClone(rows);
        const snap = engineOfRows(read[0] as EngineHeadRow, read.slice(1))!;
        const clone = ms(t0);
        const t1 = performance.now();
        await adoptBuilt(core, snap);
        const adopt = ms(t1);
        b.push({ clone, adopt, total: ms(t0) });
      }
      if (r === 0) same &&= (await answers(core, queries)) === want;
    }
  }
  out[n] = {
    load1m: Math.round(loadavg()[0]! * 10) / 10,
    warmWithoutMs: median(a),
    warmWithMs: median(b.map((x) => x.total)),
    ratio: Math.round((median(a) / median(b.map((x) => x.total))) * 10) / 10,
    cloneMs: median(b.map((x) => x.clone)),
    adoptMs: median(b.map((x) => x.adopt)),
    packMs,
    rowsMs,
    rows: rows.length,
    bytesPerMemory: Math.round(bytes / n),
    snapshotMiB: Math.round((bytes / 2 ** 20) * 10) / 10,
    vectorsMiB: Math.round((streamBytes(snapshot.vectors.bytes) / 2 ** 20) * 10) / 10,
    sameAnswers: same,
    rounds: `A ${a.join('/')} B ${b.map((x) => x.total).join('/')}`,
  };
  if (!json) console.log(n, JSON.stringify(out[n]));
}
if (json) console.log(JSON.stringify(out, null, 2));
