// The keyword stage of a start, with and without the keyword snapshot (issue 13), in Node with the
// engine's own code: per N, interleaved rounds of
//   A  today's keyword stage: `EngineCore.load` of every memory (tokenising every text);
//   B  the snapshot's: structuredClone of the stored rows (what an IndexedDB read costs to
//      deserialise) + `adoptSnapshot` (checksum, unpack, checks, no tokenising);
//   C  (with --base DIR: another checkout of the code, e.g. `git archive <commit> | tar -x -C DIR`
//      with node_modules linked) that checkout's B, on the same rows: an A/B of two versions
//      of the adoption in one process;
// each followed by the first keyword query (`firstQueryMs`: what a start answers first), and,
// once, the background work the snapshot path adds (filling the texts from the memory rows,
// hash-checked) and the cost of writing one (pack). The IndexedDB read itself is not in these
// figures (Chromium: `npm run bench:scale`). Checks that every engine answers the same.
//
//   npm run bench:lexical -- [--sizes 10000,100000] [--rounds 5] [--json] [--base DIR] [--no-tokenise]
import { loadavg } from 'node:os';
import { EngineCore } from '../../workers/engine-core';
import { adoptSnapshot, fillTexts, packWords } from '../../workers/engine-lexical';
import { snapshotOfRows, snapshotRows } from '../../src/db/lexical-snapshot';
import type { LexicalSnapshot } from '../../src/core/lexical-snapshot';
import type { EngineDoc } from '../../src/protocol/engine';
import { median } from '../lib/metrics';
import { corpus } from './recall';

const argv = process.argv.slice(2);
const arg = (k: string, d: string) => (argv.includes(k) ? argv[argv.indexOf(k) + 1]! : d);
const sizes = arg('--sizes', '10000,100000').split(',').map(Number);
const rounds = Number(arg('--rounds', '5'));
const json = argv.includes('--json');
const baseDir = argv.includes('--base') ? arg('--base', '') : null;
/** --no-tokenise: leave out variant A (12-20 s per round at 100k), to compare B and C alone. */
const tokenise = !argv.includes('--no-tokenise');
type Engine = { load(d: EngineDoc[], o: typeof OPTS): unknown; search(q: { text: string; vector: null }, o: { topK: number }): Promise<{ id: string; score: number }[]> };
interface Base {
  EngineCore: new () => Engine;
  adoptSnapshot: (core: Engine, s: unknown, o: typeof OPTS) => number;
  snapshotOfRows: (rows: unknown) => { snapshot: unknown } | undefined;
}
const base: Base | null = baseDir
  ? {
      ...((await import(`${baseDir}/workers/engine-core.ts`)) as Pick<Base, 'EngineCore'>),
      ...((await import(`${baseDir}/workers/engine-lexical.ts`)) as Pick<Base, 'adoptSnapshot'>),
      ...((await import(`${baseDir}/src/db/lexical-snapshot.ts`)) as Pick<Base, 'snapshotOfRows'>),
    }
  : null;
const OPTS = { dim: 8 };
const gc = () => (globalThis as { gc?: () => void }).gc?.();

function docsOf(n: number): EngineDoc[] {
  const c = corpus(n, 0, 8);
  return c.docs.map((d) => ({ id: d.id, text: d.text, tags: d.tags, importance: d.importance, createdAt: d.createdAt, validFrom: d.createdAt, validTo: null, status: 'active', deletedAt: null, sessionId: d.sessionId }));
}

function bytesOf(x: unknown): number {
  if (ArrayBuffer.isView(x)) return x.byteLength;
  if (typeof x === 'string') return x.length * 2;
  if (Array.isArray(x)) return x.reduce((a: number, y) => a + bytesOf(y), 0);
  if (x && typeof x === 'object') return Object.values(x).reduce((a: number, y) => a + bytesOf(y), 0);
  return 8;
}

const QUERIES = ['time people', 'year work way', 'good day', 'world life hand', 'part place', 'case week company', 'system program question', 'government number night'];
const answers = async (core: Engine) => JSON.stringify(await Promise.all(QUERIES.map(async (q) => (await core.search({ text: q, vector: null }, { topK: 20 })).map((h) => `${h.id}:${h.score.toFixed(9)}`))));

const out: Record<string, Record<string, unknown>> = {};
for (const n of sizes) {
  const docs = docsOf(n);
  const built = new EngineCore();
  built.load(docs, OPTS);
  const tp = performance.now();
  const snapshot = packWords(built);
  const rows = snapshotRows(snapshot, 1, 11, 0);
  const packMs = performance.now() - tp;
  /** What a start gets from IndexedDB: the stored rows deserialised (structuredClone), then parsed. */
  const read = (): LexicalSnapshot => snapshotOfRows(structuredClone(rows))!.snapshot;
  const times: Record<string, number[]> = { A: [], B: [], C: [] };
  const firstQuery: Record<string, number[]> = { A: [], B: [], C: [] };
  let same = true;
  const variants = ['A', 'B', 'C'].filter((v) => (v !== 'A' || tokenise) && (v !== 'C' || base));
  const expected = await answers(built);
  for (let r = 0; r < rounds; r++) {
    for (const variant of r % 2 === 0 ? variants : [...variants].reverse()) {
      gc();
      const core: Engine = variant === 'C' ? new base!.EngineCore() : new EngineCore();
      const t0 = performance.now();
      if (variant === 'A') core.load(docs, OPTS);
      else if (variant === 'B') adoptSnapshot(core as EngineCore, read(), OPTS);
      else base!.adoptSnapshot(core, base!.snapshotOfRows(structuredClone(rows))!.snapshot, OPTS);
      const t1 = performance.now();
      await core.search({ text: QUERIES[r % QUERIES.length], vector: null }, { topK: 10 });
      firstQuery[variant].push(performance.now() - t1);
      times[variant].push(t1 - t0);
      if (r === 0 && variant !== 'A') same &&= (await answers(core)) === expected;
    }
  }
  const [a, b, cc] = [times.A, times.B, times.C];
  const med = (xs: number[]) => (xs.length ? Math.round(median(xs)) : null);
  // the background work the snapshot adds: the texts filled from the memory rows (hash-checked)
  const core = new EngineCore();
  adoptSnapshot(core, read(), OPTS);
  const tf = performance.now();
  const repaired = fillTexts(core, docs);
  const fillMs = performance.now() - tf;
  same &&= repaired === 0 && (await answers(core)) === (await answers(built));
  const row = {
    keywordStageTokeniseMs: med(a),
    keywordStageSnapshotMs: med(b),
    speedup: a.length ? Math.round((median(a) / median(b)) * 10) / 10 : null,
    ...(base && { keywordStageSnapshotBaseMs: med(cc), baseToSnapshot: Math.round((median(cc) / median(b)) * 100) / 100, firstQueryBaseMs: med(firstQuery.C) }),
    firstQueryMs: med(firstQuery.B),
    roundsMs: times,
    fillTextsMs: Math.round(fillMs),
    packMs: Math.round(packMs),
    snapshotMiB: Math.round((bytesOf(rows) / 2 ** 20) * 10) / 10,
    bytesPerMemory: Math.round(bytesOf(rows) / n),
    sameAnswers: same,
  };
  out[String(n)] = row;
  if (!json) console.log(`n=${n}: keyword stage ${row.keywordStageTokeniseMs} ms tokenising vs ${row.keywordStageSnapshotMs} ms from the snapshot (x${row.speedup})${base ? ` vs ${row.keywordStageSnapshotBaseMs} ms the base's (x${row.baseToSnapshot})` : ''}; first query ${row.firstQueryMs} ms; fill texts ${row.fillTextsMs} ms; pack ${row.packMs} ms; ${row.snapshotMiB} MiB (${row.bytesPerMemory} B/memory); same answers: ${row.sameAnswers}`);
}
const load = loadavg().map((x) => Math.round(x * 10) / 10);
if (json) console.log(JSON.stringify({ rounds, loadAverage: load, sizes: out }, null, 1));
else console.log(`load average ${load.join(' / ')}, ${rounds} interleaved rounds, medians`);
