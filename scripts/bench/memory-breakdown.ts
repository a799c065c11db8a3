// Where the engine's memory goes at scale (issue 13, "engine memory <= 600 MB at 100k"): the same
// synthetic corpus and cached features as scale-node.ts, loaded into the app's EngineCore, then
// its parts dropped one after the other, the heap measured after each (settled, heapUsed +
// external: scripts/lib/heap.ts; it counts the typed arrays' backing stores and the wasm memory
// of the int8 codes). Then, per space, a SpaceIndex holding that space alone, beside the payload
// (the typed arrays' own bytes): what is left is per-object overhead.
//
//   node --expose-gc --max-old-space-size=6144 --import tsx scripts/bench/memory-breakdown.ts --n 100000 [--json] [--no-per-space]
//
// Everything is built by plain (synchronous) functions and reached only through `held`: an async
// function keeps or frees its locals by V8's liveness analysis at each await, which made the first
// version of this script's figures depend on where a variable was last read.
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import type { HybridIndex } from '../../src/core/hybrid';
import { SpaceIndex } from '../../src/core/pipeline';
import { deserializeFeatures, deserializeSpace, SPACE_IDS, type SpaceFeatures } from '../../src/core/spaces';
import type { SpaceId } from '../../src/core/types';
import type { EngineDoc } from '../../src/protocol/engine';
import { EngineCore } from '../../workers/engine-core';
import { settledHeap } from '../lib/heap';
import { corpus, engineDocsOf } from './recall';
import { features } from './scale-node';

const DIM = 384;
const MiB = 2 ** 20;
const heap = async () => (await settledHeap()).bytes;

/** Bytes of the typed arrays of one space's value (the payload, no object overhead). */
function payload(v: unknown): number {
  if (ArrayBuffer.isView(v)) return v.byteLength;
  if (v && typeof v === 'object') {
    let n = 0;
    for (const x of Object.values(v)) n += payload(x);
    return n;
  }
  return 0;
}

function loadEngine(docs: EngineDoc[]): EngineCore {
  const e = new EngineCore();
  e.load(docs, { dim: DIM });
  return e;
}

function oneSpace(docs: EngineDoc[], s: SpaceId): SpaceIndex {
  const one = new SpaceIndex();
  for (const d of docs) {
    const b = d.features![s];
    if (b) one.upsert(d.id, { [s]: deserializeSpace(s, b) } as SpaceFeatures);
  }
  return one;
}

function payloads(docs: EngineDoc[]): Map<SpaceId, { holders: number; bytes: number }> {
  const out = new Map<SpaceId, { holders: number; bytes: number }>(SPACE_IDS.map((s) => [s, { holders: 0, bytes: 0 }]));
  for (const d of docs) {
    const f = deserializeFeatures(d.features!);
    for (const s of SPACE_IDS) {
      if (f[s] === undefined) continue;
      const p = out.get(s)!;
      p.holders++;
      p.bytes += payload(f[s]);
    }
  }
  return out;
}

export async function run(): Promise<Record<string, unknown>> {
  const at = process.argv.indexOf('--n');
  const n = at >= 0 ? Number(process.argv[at + 1]) : 10_000;
  const perSpace = !process.argv.includes('--no-per-space');
  const held: { docs: EngineDoc[]; engine: EngineCore | null; one: SpaceIndex | null } = { docs: [], engine: null, one: null };
  {
    const c = corpus(n, 10, DIM);
    held.docs = engineDocsOf(c, (await features(c, n)).docs);
  }
  const texts = held.docs.reduce((a, d) => a + d.text.length, 0);
  const rows: { part: string; MiB: number }[] = [];
  let h0 = await heap();
  held.engine = loadEngine(held.docs);
  let h1 = await heap();
  rows.push({ part: 'EngineCore.load, all', MiB: (h1 - h0) / MiB });
  const parts = held.engine as unknown as Record<string, unknown>;
  const bytesOfStore = (parts.index as HybridIndex).vectors.bytes;
  // the engine's parts dropped one after the other: what each frees
  for (const [k, label] of [
    ['spaces', 'SpaceIndex (every space but E1)'],
    ['entities', 'EntityGraph'],
    ['meta', 'meta (createdAt, sessionId per memory)'],
    ['index', 'HybridIndex (docs, BM25, the E1 DenseStore)'],
  ] as const) {
    parts[k] = null;
    const h2 = await heap();
    rows.push({ part: `  ${label}`, MiB: (h1 - h2) / MiB });
    h1 = h2;
  }
  rows.push({ part: `  of which the E1 DenseStore (store.bytes)`, MiB: bytesOfStore / MiB });
  held.engine = null;

  const per: { space: SpaceId; holders: number; payloadMiB: number; heldMiB: number }[] = [];
  if (perSpace) {
    const pay = payloads(held.docs);
    for (const s of SPACE_IDS) {
      if (s === 'E1' || pay.get(s)!.holders === 0) continue;
      h0 = await heap();
      held.one = oneSpace(held.docs, s);
      const heldMiB = ((await heap()) - h0) / MiB;
      held.one = null;
      const p = pay.get(s)!;
      per.push({ space: s, holders: p.holders, payloadMiB: p.bytes / MiB, heldMiB });
    }
  }
  const load = (await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`n = ${n} (heapUsed + external, settled; texts ${(texts / MiB).toFixed(1)} MiB of characters; load average ${load})`);
  for (const r of rows) console.log(`  ${r.part.padEnd(56)} ${r.MiB.toFixed(1).padStart(8)} MiB`);
  if (per.length) {
    console.log(`  per space, a SpaceIndex with that space alone: holders, payload MiB (typed arrays' bytes), held MiB`);
    for (const p of per) console.log(`    ${p.space.padEnd(4)} ${String(p.holders).padStart(7)} ${p.payloadMiB.toFixed(1).padStart(8)} ${p.heldMiB.toFixed(1).padStart(8)}`);
  }
  return { n, dim: DIM, loadAverage: load, rows, perSpace: per };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  run().then((r) => {
    if (process.argv.includes('--json')) console.log(JSON.stringify(r));
  });
}
