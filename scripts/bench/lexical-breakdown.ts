// Where the keyword stage of a start from the snapshot goes, step by step, in Node (issue 13):
// structuredClone of the stored rows (the IndexedDB read's deserialising), parsing the rows,
// the checksum, checking the docs' columns, the BM25 unpack (also alone, outside the total), the
// adoption, and the first query; then what is deferred (every doc made, the meta).
//   node --expose-gc --import tsx scripts/bench/lexical-breakdown.ts [--n 100000] [--rounds 3]
import { loadavg } from 'node:os';
import { EngineCore } from '../../workers/engine-core';
import { packWords } from '../../workers/engine-lexical';
import { snapshotOfRows, snapshotRows } from '../../src/db/lexical-snapshot';
import { checksumOf, SnapshotDocs } from '../../src/core/lexical-snapshot';
import { Bm25Index } from '../../src/core/bm25';
import type { EngineDoc } from '../../src/protocol/engine';
import { median } from '../lib/metrics';
import { corpus } from './recall';

const argv = process.argv.slice(2);
const arg = (k: string, d: string) => (argv.includes(k) ? argv[argv.indexOf(k) + 1]! : d);
const n = Number(arg('--n', '100000'));
const rounds = Number(arg('--rounds', '3'));
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const OPTS = { dim: 8 };
const c = corpus(n, 0, 8);
const docs: EngineDoc[] = c.docs.map((d) => ({ id: d.id, text: d.text, tags: d.tags, importance: d.importance, createdAt: d.createdAt, validFrom: d.createdAt, validTo: null, status: 'active', deletedAt: null, sessionId: d.sessionId }));
const built = new EngineCore();
built.load(docs, OPTS);
const rows = snapshotRows(packWords(built), 1, 11, 0);
const steps: Record<string, number[]> = {};
const time = <T>(k: string, f: () => T): T => {
  const t = performance.now();
  const r = f();
  (steps[k] ??= []).push(performance.now() - t);
  return r;
};
for (let r = 0; r < rounds; r++) {
  gc();
  const t0 = performance.now();
  const cloned = time('structuredClone', () => structuredClone(rows));
  const s = time('parse rows (split strings)', () => snapshotOfRows(cloned)!.snapshot);
  time('checksum', () => checksumOf(s));
  const ud = time('SnapshotDocs.check', () => new SnapshotDocs(s).check());
  time('Bm25Index.unpack alone', () => Bm25Index.unpack(s.bm25));
  const core = new EngineCore();
  time('core.load([])', () => core.load([], OPTS));
  time('adoptWordsLazy', () => core.hybrid.adoptWordsLazy(s.bm25, ud));
  time('setMeta (columns)', () => core.setMeta({ ids: ud.ids, at: (i) => ud.meta(i) }));
  (steps.total ??= []).push(performance.now() - t0);
  const tq = performance.now();
  await core.search({ text: 'time people', vector: null }, { topK: 10 });
  (steps['first query'] ??= []).push(performance.now() - tq);
  time('later: every doc made (ids())', () => core.hybrid.ids());
  time('later: the meta made', () => core.sessionOf('x'));
}
for (const [k, v] of Object.entries(steps)) console.log(`${k.padEnd(28)} ${median(v).toFixed(0).padStart(6)} ms`);
console.log(`n=${n}, ${rounds} rounds, medians, load ${loadavg().map((x) => x.toFixed(1)).join(' / ')}`);
