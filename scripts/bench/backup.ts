// Backup export and import in Node, timing the app's own code: the export's worker half
// (workers/io-core.ts writeBackup = buildBackup + serializeBackup [+ encryptBackup]), the same
// through the io bridge over a MessageChannel (structured clone in, bytes back by transfer),
// parseBackup (and decryptBackup), and the services round trip (createServices over
// fake-indexeddb with the in-process engine / parser / featurizer of src/testing): exportBackup,
// previewImport + runImport of that backup into a fresh database (vectors reused, nothing
// re-embedded), against 10k plain-text memories imported (featurized) and exported as Markdown.
// Each step: memories/s, the file's bytes, peak RSS and heap (process.memoryUsage sampled every
// 10 ms and at the step's end; a long synchronous step is seen only at its end; RSS is the
// process's, so it carries what earlier steps left; +heap is the step's own growth). The baseline,
// in the same process: JSON.stringify / JSON.parse of the same memory rows. Prints figures and
// ratios; never fails on timings.
//
//   npx tsx scripts/bench/backup.ts   (BENCH_BACKUP_N=10000; BENCH_BACKUP_SVC_N, BENCH_BACKUP_TEXT_N=4000 for the services steps)
//
// Data (seeded): 10k memories as the app stores them (newMemoryRow: 8-32 Zipf-sampled English
// words, 1-3 tags, importance, createdAt over a year, 25 a session), with every space's feature
// rows made by the app's featurizer (the embed worker's featurizeItems) over a deterministic
// hashed 512-d stand-in encoder (src/testing/encoder.ts), packed by featureRows as the services
// store them. Featurizing 10k texts would take minutes here, so a pool of POOL texts is featurized
// and memory i gets its own copy of pool entry i % POOL's rows (real sizes, distinct buffers).
import { featureTables, putFeatureRows } from '../../src/db/feature-blocks';
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Memory } from '../../src/core/types';
import { openDb } from '../../src/db/db';
import type { VectorRow } from '../../src/db/schema';
import { decryptBackup, parseBackup, type BackupRows, type BuildBackupOptions } from '../../src/io';
import { createIoBridge } from '../../src/bridge/io-bridge';
import { LEXICAL_ID } from '../../src/protocol/embed';
import { createServices } from '../../src/services/create';
import { featureRows } from '../../src/services/featurizer';
import { newMemoryRow } from '../../src/services/ingest';
import { channelWorkers } from '../../src/testing/channel-worker';
import { createFakeEmbedder, createLocalFeaturizer } from '../../src/testing/encoder';
import { createChannelEngine } from '../../src/testing/engine';
import { createLocalParser } from '../../src/testing/io';
import { createIoApi } from '../../workers/io-api';
import { writeBackup } from '../../workers/io-core';
import { loadNodeResources } from '../lib/resources-node';
import { rng, zipf } from '../lib/synthetic';

const ROOT = resolve(import.meta.dirname ?? '.', '../..');
const N = Number(process.env.BENCH_BACKUP_N ?? 10_000);
const SVC_N = Number(process.env.BENCH_BACKUP_SVC_N ?? N);
// Importing plain text featurizes every memory (~9 ms each over fake-indexeddb on the loaded
// 2-core machine: 10k took 88 s, the section nearly 3 min), so the comparison runs on fewer.
const TEXT_N = Number(process.env.BENCH_BACKUP_TEXT_N ?? 4000);
const POOL = 500;
const DIM = 512;
const MODEL = 'bench-hash/v1';
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 1);
const TAGS = ['work', 'family', 'health', 'travel', 'music', 'cooking', 'garden', 'books', 'code', 'finance', 'sport', 'friends'];
const APP: BuildBackupOptions['app'] = { name: 'Mnemograph', version: 'bench' };
const MiB = 2 ** 20;

function englishWords(limit: number): string[] {
  try {
    const lex = JSON.parse(readFileSync(join(ROOT, 'public/generated/lexicon.json'), 'utf8')) as { synonyms?: Record<string, unknown> };
    const words = Object.keys(lex.synonyms ?? {}).filter((w) => /^[a-z]{3,10}$/.test(w));
    if (words.length >= 500) return words.filter((_, i) => i % Math.max(1, Math.floor(words.length / limit)) === 0).slice(0, limit);
  } catch (e) {
    console.log(`(lexicon not readable, generated words used: ${(e as Error).message})`);
  }
  return Array.from({ length: limit }, (_, i) => `w${i.toString(36)}`);
}

/** Peak RSS / heap while `fn` runs (10 ms samples plus one at the end) and its wall time. */
async function measure<T>(fn: () => Promise<T> | T): Promise<{ out: T; ms: number; rss: number; heap: number; grew: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const start = process.memoryUsage().heapUsed;
  let rss = 0;
  let heap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  sample();
  const timer = setInterval(sample, 10);
  const t0 = performance.now();
  try {
    const out = await fn();
    const ms = performance.now() - t0;
    sample();
    return { out, ms, rss, heap, grew: heap - start };
  } finally {
    clearInterval(timer);
  }
}

const results: Record<string, number> = {};
function report(key: string, label: string, n: number, m: { ms: number; rss: number; heap: number; grew: number }, bytes?: number): void {
  const perS = (n / m.ms) * 1000;
  Object.assign(results, { [`${key}_ms`]: m.ms, [`${key}_per_s`]: perS, [`${key}_peak_rss_mib`]: m.rss / MiB, [`${key}_peak_heap_mib`]: m.heap / MiB, [`${key}_heap_growth_mib`]: m.grew / MiB });
  if (bytes !== undefined) results[`${key}_bytes`] = bytes;
  console.log(`  ${label.padEnd(46)} ${String(n).padStart(6)} ${m.ms.toFixed(0).padStart(8)} ms ${perS.toFixed(0).padStart(8)}/s ${(bytes === undefined ? '' : (bytes / MiB).toFixed(1) + ' MiB').padStart(10)}  rss ${(m.rss / MiB).toFixed(0)} heap ${(m.heap / MiB).toFixed(0)} (+${(m.grew / MiB).toFixed(0)}) MiB`);
}

async function synthetic(n: number) {
  const rand = rng(1010 + n);
  const words = englishWords(4000);
  const pick = zipf(words.length, rand);
  const embedder = createFakeEmbedder(DIM, MODEL);
  const featurizer = createLocalFeaturizer(embedder, await loadNodeResources());
  const memories: Memory[] = [];
  for (let i = 0; i < n; i++) {
    const tags = [...new Set(Array.from({ length: 1 + Math.floor(rand() * 3) }, () => TAGS[Math.floor(rand() * TAGS.length)]))];
    const createdAt = NOW - Math.floor(rand() * 365 * DAY);
    const text = Array.from({ length: 8 + Math.floor(rand() * 25) }, () => words[pick()]).join(' ');
    const id = `0190${String(i).padStart(8, '0')}-0000-7000-8000-000000000000`;
    memories.push(newMemoryRow({ newId: () => id }, { text, tags, importance: Math.round(rand() * 100) / 100, createdAt, validTo: null }, false, createdAt, `s${Math.floor(i / 25)}`));
  }
  const t0 = performance.now();
  const pool = await featurizer.featurize(memories.slice(0, POOL).map((m, i) => ({ text: m.text, createdAt: m.createdAt, sessionPosition: i % 25 })));
  const featurizeMs = performance.now() - t0;
  const ids = { encoder: MODEL, lexical: LEXICAL_ID };
  const vectors: VectorRow[] = [];
  for (let i = 0; i < n; i++)
    for (const r of featureRows(memories[i].id, pool[i % POOL].spaces, ids)) vectors.push({ ...r, data: r.data.slice(0) });
  return { memories, vectors, embedder, featurizer, featurizeMs };
}

export async function run(): Promise<Record<string, number>> {
  console.log(`  building ${N} memories + feature rows (pool of ${POOL} featurized by the app's featurizer, 512-d hashed stand-in encoder)…`);
  const data = await synthetic(N);
  const { memories, vectors } = data;
  const bySpace = new Map<string, { n: number; bytes: number }>();
  for (const v of vectors) {
    const s = bySpace.get(v.space) ?? { n: 0, bytes: 0 };
    bySpace.set(v.space, { n: s.n + 1, bytes: s.bytes + v.data.byteLength });
  }
  const vectorBytes = vectors.reduce((a, v) => a + v.data.byteLength, 0);
  console.log(`  featurizing ${POOL} texts: ${((data.featurizeMs / POOL) * 1000).toFixed(0)} µs/memory; ${vectors.length} feature rows, ${(vectorBytes / MiB).toFixed(1)} MiB raw`);
  console.log(`  bytes per memory by space: ${[...bySpace].map(([s, x]) => `${s} ${Math.round(x.bytes / x.n)}`).join(', ')}`);
  results.vector_rows = vectors.length;
  results.vector_raw_bytes = vectorBytes;
  console.log(`\n  ${'step'.padEnd(46)} ${'N'.padStart(6)} ${'time'.padStart(11)} ${'memories'.padStart(10)} ${'file'.padStart(10)}  peak`);

  const settings = [{ key: 'theme', value: 'dark' }];
  const backupRows = (withVectors: boolean): BackupRows => ({ memories, feedback: [], settings, links: [], ...(withVectors ? { vectors } : {}) });
  // warm-up (JIT) on a slice, so the first measured step is not the only cold one
  const few = new Set(memories.slice(0, 200).map((m) => m.id));
  const warm = await writeBackup({ rows: { memories: memories.slice(0, 200), feedback: [], settings, vectors: vectors.filter((v) => few.has(v.memoryId)) }, options: { app: APP, includeVectors: true } });
  parseBackup(warm);
  JSON.parse(JSON.stringify(memories.slice(0, 200)));
  // baseline: the same memory rows through JSON alone (no build, no base64, no schema)
  const base = await measure(() => JSON.stringify(memories));
  report('baseline_stringify', 'baseline: JSON.stringify(memory rows)', N, base, Buffer.byteLength(base.out));
  const baseParse = await measure(() => JSON.parse(base.out) as unknown[]);
  report('baseline_parse', 'baseline: JSON.parse(memory rows)', N, baseParse);

  const plain = await measure(() => writeBackup({ rows: backupRows(false), options: { app: APP, now: NOW, includeVectors: false } }));
  report('export_plain', 'export: build+serialise, no vectors', N, plain, plain.out.byteLength);
  const withV = await measure(() => writeBackup({ rows: backupRows(true), options: { app: APP, now: NOW, includeVectors: true } }));
  report('export_vectors', 'export: build+serialise, with vectors', N, withV, withV.out.byteLength);
  const enc = await measure(() => writeBackup({ rows: backupRows(true), options: { app: APP, now: NOW, includeVectors: true }, passphrase: 'bench passphrase' }));
  report('export_encrypted', 'export: + encrypt (AES-GCM, PBKDF2 600k)', N, enc, enc.out.byteLength);

  const parsedPlain = await measure(() => parseBackup(plain.out));
  report('parse_plain', 'import: parseBackup, no vectors', N, parsedPlain);
  const parsedV = await measure(() => parseBackup(withV.out));
  report('parse_vectors', 'import: parseBackup, with vectors', N, parsedV);
  if (!parsedV.out.ok || parsedV.out.items.memories.length !== N || parsedV.out.items.vectors.length !== vectors.length)
    console.log(`  (!) parse gave ${parsedV.out.ok ? parsedV.out.items.memories.length : 'not ok'} memories`);
  const dec = await measure(async () => parseBackup(await decryptBackup(enc.out, 'bench passphrase')));
  report('parse_encrypted', 'import: decrypt + parseBackup', N, dec);

  // the page's path: rows cloned into the worker (here a MessageChannel in this process), bytes back
  const { spawn } = channelWorkers(() => createIoApi());
  const io = createIoBridge({ spawn });
  const copy = { ...backupRows(true), vectors: vectors.map((v) => ({ ...v, data: v.data.slice(0) })) };
  const bridged = await measure(() => io.writeBackup({ rows: copy, options: { app: APP, now: NOW, includeVectors: true } }));
  report('export_bridge', 'export through the io bridge (MessageChannel)', N, bridged, bridged.out.byteLength);
  io.dispose();

  await services(data, withV.out);

  const ratio = (a: string, b: string) => results[`${a}_ms`] / results[`${b}_ms`];
  console.log('\n  ratios (time):');
  console.log(`    export with vectors / baseline stringify   ${ratio('export_vectors', 'baseline_stringify').toFixed(1)}x`);
  console.log(`    export no vectors / baseline stringify     ${ratio('export_plain', 'baseline_stringify').toFixed(1)}x`);
  console.log(`    parse with vectors / baseline parse        ${ratio('parse_vectors', 'baseline_parse').toFixed(1)}x`);
  console.log(`    parse no vectors / baseline parse          ${ratio('parse_plain', 'baseline_parse').toFixed(1)}x`);
  console.log(`    encrypted export / plain export (vectors)  ${ratio('export_encrypted', 'export_vectors').toFixed(2)}x`);
  console.log(`    bridge export / in-process export          ${ratio('export_bridge', 'export_vectors').toFixed(2)}x`);
  console.log(`    file with vectors / without                ${(results.export_vectors_bytes / results.export_plain_bytes).toFixed(1)}x`);
  if (results.svc_restore_per_s && results.svc_text_import_per_s)
    console.log(`    restore (vectors reused) / text import     ${(results.svc_restore_per_s / results.svc_text_import_per_s).toFixed(1)}x memories/s`);
  return results;
}

/** The services round trip over fake-indexeddb: SVC_N memories (the first SVC_N of the synthetic set). */
async function services(data: Awaited<ReturnType<typeof synthetic>>, fullBackup: Uint8Array): Promise<void> {
  const n = Math.min(SVC_N, data.memories.length);
  const mems = data.memories.slice(0, n);
  const keep = new Set(mems.map((m) => m.id));
  const vecs = data.vectors.filter((v) => keep.has(v.memoryId));
  console.log(`\n  services over fake-indexeddb (in-process engine, parser, featurizer), N = ${n}${n < data.memories.length ? ' (fewer: fake-indexeddb is slow)' : ''}:`);
  const make = async (name: string) =>
    createServices({ db: await openDb(name), embedder: data.embedder, featurizer: data.featurizer, engine: createChannelEngine().factory, parser: createLocalParser(), crossTab: false, now: () => NOW });
  const src = await make(`bench-backup-src-${Date.now()}`);
  const fill = await measure(async () => {
    await src.db.memories.bulkAdd(mems);
    await src.db.transaction('rw', featureTables(src.db), async () => {
      await putFeatureRows(src.db, vecs); // schema v9: features in blocks
    });
  });
  report('svc_fill', 'fill the store (bulkAdd, not the app path)', n, fill);
  const exp = await measure(() => src.exportBackup({ vectors: true }));
  report('svc_export_vectors', 'services exportBackup, with vectors', n, exp, exp.out.blob.size);
  const expPlain = await measure(() => src.exportBackup({ vectors: false }));
  report('svc_export_plain', 'services exportBackup, no vectors', n, expPlain, expPlain.out.blob.size);
  const md = await measure(() => src.exportMarkdown());
  report('svc_export_markdown', 'services exportMarkdown (zip)', n, md, md.out.blob.size);
  src.dispose();

  const bytes = n === data.memories.length ? fullBackup : new Uint8Array(await exp.out.blob.arrayBuffer());
  const dst = await make(`bench-backup-dst-${Date.now()}`);
  const callsBefore = data.embedder.calls.length;
  const restore = await measure(async () => {
    const p = await dst.previewImport({ files: [{ name: 'backup.json', bytes }] });
    const out = await dst.runImport(p.planId);
    return { p, out };
  });
  report('svc_restore', 'services preview+runImport of the backup', n, restore, bytes.byteLength);
  const reEmbedded = data.embedder.calls.length - callsBefore;
  console.log(`    written ${restore.out.out.written}, vectors reused for ${restore.out.p.vectorsReused ?? 0}, texts re-embedded ${reEmbedded}`);
  results.svc_restore_reembedded = reEmbedded;
  dst.dispose();

  const tn = Math.min(TEXT_N, n);
  console.log(`    plain text, N = ${tn}${tn < n ? ' (fewer: each memory is featurized; memories/s falls a little with N over fake-indexeddb)' : ''}:`);
  const text = new TextEncoder().encode(mems.slice(0, tn).map((m) => m.text).join('\n'));
  const txt = await make(`bench-backup-txt-${Date.now()}`);
  const imp = await measure(async () => {
    const p = await txt.previewImport({ files: [{ name: 'notes.txt', bytes: text }] });
    return txt.runImport(p.planId);
  });
  report('svc_text_import', 'services import of plain text (featurized)', tn, imp, text.byteLength);
  const txtExp = await measure(() => txt.exportBackup({ vectors: false }));
  report('svc_text_export', 'services exportBackup of those, no vectors', tn, txtExp, txtExp.out.blob.size);
  if (imp.out.written !== tn) console.log(`    (!) written ${imp.out.written} of ${tn}`);
  txt.dispose();
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
