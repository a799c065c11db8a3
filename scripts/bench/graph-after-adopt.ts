// The first one-hop expansion (expandHops 1) after a start from the engine snapshot (issue 13), in
// Node over the scale corpus with the engine's own code. The entity graph is filled from the space
// index's E11 column in the background after the adoption (workers/engine-warm.ts lazyEntities);
// before, it was built whole by the first read, on that query's path. Interleaved rounds on one
// engine (the keyword stage once, the snapshot adopted again each round):
//   A  the query right after the adoption (the graph not filled yet: the query fills it, as before)
//   B  the query once the background fill is done (a person's first query a few seconds after warm)
// Also: the fill's wall time, its steps and its longest step (what a query can wait behind), and
// a second query (the graph there) for reference. Medians, with the load average.
//
//   node --expose-gc --max-old-space-size=8192 --import tsx scripts/bench/graph-after-adopt.ts [--n 100000] [--rounds 3]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import type { SerializedFeatures } from '../../src/core/spaces';
import type { MemoryId, SpaceId } from '../../src/core/types';
import { MINILM_ID } from '../../src/embed/encoders';
import { parseBackup } from '../../src/io';
import { toIndexDoc, type EngineDoc } from '../../src/protocol/engine';
import { EngineCore } from '../../workers/engine-core';
import { adoptBuilt, packBuilt } from '../../workers/engine-warm';
import { EntityGraph } from '../../workers/entity-graph';
import { median } from '../lib/metrics';
import { ensureCorpus, SCALE_DIM } from './scale-corpus';

const argv = process.argv.slice(2);
const arg = (k: string, d: number) => (argv.includes(`--${k}`) ? Number(argv[argv.indexOf(`--${k}`) + 1]) : d);
const n = arg('n', 100_000);
const OPTS = { dim: SCALE_DIM, encoder: MINILM_ID };
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const load = () => loadavg()[0].toFixed(1);

const c = await ensureCorpus(n, 13);
const docs: EngineDoc[] = [];
const features = new Map<MemoryId, SerializedFeatures>();
for (const name of c.chunks) {
  const parsed = parseBackup(readFileSync(join(c.dir, name)));
  if (!parsed.ok) throw new Error(`${name}: ${parsed.errors.at(-1)?.message}`);
  docs.push(...parsed.items.memories.map((m) => toIndexDoc(m)));
  for (const v of parsed.items.vectors) (features.get(v.memoryId) ?? features.set(v.memoryId, {}).get(v.memoryId)!)[v.space as SpaceId] = v.data;
}
const core = new EngineCore();
core.load(
  docs.map((d) => ({ ...d, features: features.get(d.id) })),
  OPTS,
);
const snapshot = await packBuilt(core);
const queries: [string, SerializedFeatures][] = [0, 7, 42, 99].map((i) => [docs[i].text.split(/\s+/).slice(0, 3).join(' '), features.get(docs[i].id)!]);
features.clear();
const graph = () => (core.built.entities as unknown as { filling: boolean }).filling;
const hop = async (q: number) => {
  const t0 = performance.now();
  const r = await core.recall({ text: queries[q][0], features: queries[q][1], now: 2e12 }, { topK: 10, expandHops: 1 });
  return { ms: performance.now() - t0, ids: r.results.map((x) => x.id).join(',') };
};

// each background step timed (what a query arriving meanwhile waits behind, at most)
const fillFor = EntityGraph.prototype.fillFor;
let stepMs: number[] = [];
EntityGraph.prototype.fillFor = function (this: EntityGraph, budget: number) {
  const t = performance.now();
  const done = fillFor.call(this, budget);
  if (budget !== Infinity) stepMs.push(performance.now() - t);
  return done;
};
const rows: Record<'A' | 'B', { first: number; second: number; ids: string }[]> = { A: [], B: [] };
const fills: { wall: number; steps: number; longest: number; stepP50: number; stepMax: number }[] = [];
for (let r = 0; r < arg('rounds', 3); r++) {
  for (const v of r % 2 ? (['B', 'A'] as const) : (['A', 'B'] as const)) {
    gc();
    stepMs = [];
    await adoptBuilt(core, snapshot);
    const q = r % queries.length;
    if (v === 'B') {
      // the background fill: timed from the adoption to its end, each event-loop turn it took
      const t0 = performance.now();
      let steps = 0;
      let longest = 0;
      while (graph()) {
        const t = performance.now();
        await new Promise((res) => setTimeout(res, 0));
        const d = performance.now() - t;
        steps++;
        longest = Math.max(longest, d);
      }
      fills.push({ wall: performance.now() - t0, steps, longest, stepP50: median(stepMs), stepMax: Math.max(...stepMs) });
    }
    const first = await hop(q);
    const second = await hop(q);
    if (first.ids !== second.ids) throw new Error('the first and second answers differ');
    rows[v].push({ first: first.ms, second: second.ms, ids: first.ids });
  }
}
const same = rows.A.every((a, i) => a.ids === rows.B[i].ids);
const m = (v: 'A' | 'B', k: 'first' | 'second') => median(rows[v].map((x) => x[k])).toFixed(0);
console.log(`N ${n}, ${rows.A.length} rounds (load ${load()})`);
console.log(`A  first expandHops 1 query right after the adoption (fills the graph): ${m('A', 'first')} ms; the next: ${m('A', 'second')} ms`);
console.log(`B  first expandHops 1 query after the background fill: ${m('B', 'first')} ms; the next: ${m('B', 'second')} ms`);
console.log(
  `   background fill: ${median(fills.map((f) => f.wall)).toFixed(0)} ms wall in ${median(fills.map((f) => f.steps))} turns, longest turn ${median(fills.map((f) => f.longest)).toFixed(1)} ms; fill step p50 ${median(fills.map((f) => f.stepP50)).toFixed(1)} ms, longest ${median(fills.map((f) => f.stepMax)).toFixed(1)} ms`,
);
console.log(`   ratio first query B/A ${(Number(m('B', 'first')) / Number(m('A', 'first'))).toFixed(2)}; same answers ${same}; rounds A ${rows.A.map((x) => x.first.toFixed(0)).join('/')} B ${rows.B.map((x) => x.first.toFixed(0)).join('/')}`);
