// A/B of the engine's query paths at scale, in one process (issue 13): this checkout's EngineCore
// and another checkout's (--base <dir>, e.g. `git worktree`/`git archive` of the commit before a
// change) loaded with the same seeded corpus as scale-node.ts, then per round every variant on
// both engines, the order alternating, so load and drift hit both alike. Prints p50 / p95 per
// variant and engine and the ratio new / base, and checks that both engines return the same
// results (ids, modes and scores) for every query timed.
//
//   node --expose-gc --max-old-space-size=8192 --import tsx scripts/bench/scale-ab.ts \
//     --base /path/to/old/checkout [--n 100000] [--rounds 20] [--variants divergent,hops3,search,recall]
import { resolve } from 'node:path';
import { loadavg } from 'node:os';
import { deserializeFeatures } from '../../src/core/spaces';
import type { RecallOptionsInput } from '../../src/core/recall';
import { EngineCore } from '../../workers/engine-core';
import { median, percentile } from '../lib/metrics';
import { corpus, engineDocsOf } from './recall';
import { DIM, features } from './scale-node';

const arg = (name: string, dflt: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : dflt;
};

type Engine = Pick<EngineCore, 'load' | 'recall' | 'search'>;
/** One clock for both engines (lateral recency decay reads it): the corpus's newest memory is a day older. */
const NOW = Date.UTC(2026, 10, 2);

async function main(): Promise<void> {
  const n = Number(arg('n', '100000'));
  const rounds = Number(arg('rounds', '20'));
  const base = resolve(arg('base', ''));
  const wanted = arg('variants', 'divergent,hops3,search,recall').split(',');
  const Old = ((await import(`${base}/workers/engine-core.ts`)) as { EngineCore: new () => Engine }).EngineCore;
  const c = corpus(n, 200, DIM);
  const feats = await features(c, n);
  const engines: [string, Engine][] = [
    ['base', new Old()],
    ['new', new EngineCore()],
  ];
  for (const [, e] of engines) e.load(engineDocsOf(c, feats.docs), { dim: DIM });
  feats.docs.length = 0;
  c.docs.length = 0;
  const qVec = feats.queries.map((f) => (deserializeFeatures(f).E1 as Float32Array | undefined) ?? null);
  const recall = (e: Engine, o: RecallOptionsInput) => async (q: number) =>
    (await e.recall({ text: c.queries[q].text, features: feats.queries[q], now: NOW }, o)).results;
  const variants: Record<string, (e: Engine) => (q: number) => Promise<{ id: string; score: number; mode: string }[]>> = {
    search: (e) => (q) => e.search({ text: c.queries[q].text, vector: qVec[q] }, { topK: 10 }),
    recall: (e) => recall(e, { profile: 'BALANCED' }),
    divergent: (e) => recall(e, { profile: 'DIVERGENT' }),
    hops3: (e) => recall(e, { profile: 'BALANCED', assocHops: 3 }),
  };
  for (const [, e] of engines) await recall(e, { assocHops: 1 })(0); // the neighbour matrix, built once
  const times = new Map<string, number[]>();
  let mismatches = 0;
  let q = 0;
  for (let r = -2; r < rounds; r++) {
    for (const v of wanted) {
      const order = (r + q) % 2 === 0 ? engines : [...engines].reverse();
      const got: Record<string, string> = {};
      for (const [name, e] of order) {
        const t0 = performance.now();
        const res = await variants[v](e)(q % 200);
        const ms = performance.now() - t0;
        got[name] = JSON.stringify(res.map((x) => [x.id, x.mode, x.score]));
        if (r >= 0) times.set(`${v} ${name}`, [...(times.get(`${v} ${name}`) ?? []), ms]);
      }
      if (got.base !== got.new) mismatches++;
      q++;
    }
  }
  const load = loadavg().map((x) => x.toFixed(1)).join(' ');
  console.log(`n = ${n}, ${rounds} rounds, load average ${load}; results differing between base and new: ${mismatches}`);
  const out: Record<string, number> = { n, rounds, mismatches };
  for (const v of wanted) {
    const [b, w] = [times.get(`${v} base`)!, times.get(`${v} new`)!];
    const row = { bP50: median(b), bP95: percentile(b, 95), nP50: median(w), nP95: percentile(w, 95) };
    Object.assign(out, { [`${v}BaseP50Ms`]: row.bP50, [`${v}BaseP95Ms`]: row.bP95, [`${v}NewP50Ms`]: row.nP50, [`${v}NewP95Ms`]: row.nP95 });
    console.log(
      `  ${v.padEnd(10)} base p50 ${row.bP50.toFixed(1).padStart(7)} p95 ${row.bP95.toFixed(1).padStart(7)} | new p50 ${row.nP50.toFixed(1).padStart(7)} p95 ${row.nP95.toFixed(1).padStart(7)} | new/base p50 ${(row.nP50 / row.bP50).toFixed(2)} p95 ${(row.nP95 / row.bP95).toFixed(2)}`,
    );
  }
  if (process.argv.includes('--json')) console.log(JSON.stringify(out));
}

void main();
