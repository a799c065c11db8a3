// Recall in Node (core only, no encoder, no workers), timing what the app runs: the engine's
// `EngineCore.recall` (workers/engine-core.ts: the features deserialised, the options resolved
// over the defaults, then runPipeline with the context the engine builds — hybrid + SpaceIndex +
// cached NeighbourMatrix + feedback + lateral evaluator) with lateral mode off (BALANCED), lateral
// on (DIVERGENT), associative hops 1-3, against the plain hybrid search, plus runPipeline with
// the spaces off (hybridOnly) for the cost of the blend. 1k and 10k synthetic memories; every
// variant runs in ONE process, interleaved in rounds (forward, then reversed order) so drift and
// GC hit all alike. The noise floor is the ratio of two identical variants (a / a'). Prints
// figures and ratios; never fails on timings.
//
//   npx tsx scripts/bench/recall.ts            (add --no-spaces to load E1 only, skipping the featurizing)
//
// Data (seeded): 512-d unit vectors drawn around one random topic centre per session (pairwise
// cosine about 0.78 within a topic, about 0 across), so associative hops (minCosine 0.72) find
// neighbours as real memories do; pure isotropic vectors would make every hop a no-op. Texts are
// Zipf-sampled English words from the lexicon (so the lexical spaces see real words), 1-3 tags
// from a 24-tag vocabulary, uniform importance, createdAt over the past year, 25 memories a session.
// E5 / E10 need the encoder: a deterministic stand-in (random unit vector per text) keeps them
// present at no encoder cost; E1 is the memory's own vector.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HybridIndex } from '../../src/core/hybrid';
import { runPipeline, SpaceIndex, type PipelineContext } from '../../src/core/pipeline';
import { buildNeighbourMatrix, FeedbackState, type RecallOptionsInput } from '../../src/core/recall';
import { deserializeFeatures, serializeFeatures, serializeSpace, type SpaceFeatures } from '../../src/core/spaces';
import { featurize, featurizeQuery } from '../../src/features';
import { EngineCore } from '../../workers/engine-core';
import type { EngineDoc, SerializedFeatures } from '../../src/protocol/engine';
import { loadNodeResources } from '../lib/resources-node';
import { median, percentile } from '../lib/metrics';
import { gaussian, rng, unit, zipf } from '../lib/synthetic';

const ROOT = resolve(import.meta.dirname ?? '.', '../..');
const DIM = 512;
const PER_SESSION = 25;
const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 1);
const TAGS = [
  'work', 'family', 'health', 'travel', 'music', 'cooking', 'garden', 'books', 'code', 'finance', 'sport', 'friends',
  'pets', 'school', 'art', 'car', 'home', 'film', 'games', 'weather', 'news', 'ideas', 'plans', 'dreams',
];


/** unit(centre + sigma * isotropic noise of norm ~1): cosine to the centre ~ 1 / sqrt(1 + sigma^2). */
export function around(centre: Float32Array | null, sigma: number, rand: () => number, dim = DIM): Float32Array {
  const v = new Float32Array(dim);
  const s = sigma / Math.sqrt(dim);
  for (let i = 0; i < dim; i++) v[i] = (centre ? centre[i] : 0) + s * gaussian(rand);
  return unit(v);
}

/** Real English words (the lexicon's synonym keys), so BM25 and the lexical spaces see real text. */
function englishWords(limit: number): string[] {
  try {
    const lex = JSON.parse(readFileSync(join(ROOT, 'public/generated/lexicon.json'), 'utf8')) as { synonyms?: Record<string, unknown> };
    const words = Object.keys(lex.synonyms ?? {}).filter((w) => /^[a-z]{3,10}$/.test(w));
    if (words.length >= 500) {
      const step = Math.max(1, Math.floor(words.length / limit));
      return words.filter((_, i) => i % step === 0).slice(0, limit);
    }
  } catch {
    /* fall through to generated words */
  }
  const on = ['b', 'c', 'd', 'f', 'g', 'l', 'm', 'n', 'p', 'r', 's', 't'];
  const nu = ['a', 'e', 'i', 'o', 'u'];
  return Array.from({ length: limit }, (_, i) => on[i % 12] + nu[Math.floor(i / 12) % 5] + on[Math.floor(i / 60) % 12] + nu[Math.floor(i / 720) % 5] + 'n');
}

export interface SynthDoc {
  id: string;
  text: string;
  tags: string[];
  importance: number;
  createdAt: number;
  sessionId: string;
  vector: Float32Array;
}

export interface Corpus {
  docs: SynthDoc[];
  queries: { text: string; vector: Float32Array }[];
}

export function corpus(n: number, queryCount: number, dim = DIM): Corpus {
  const rand = rng(4242 + n);
  const words = englishWords(4000);
  const pick = zipf(words.length, rand);
  const sentence = (len: number) => Array.from({ length: len }, () => words[pick()]).join(' ');
  const sessions = Math.ceil(n / PER_SESSION);
  const centres = Array.from({ length: sessions }, () => around(null, 1, rand, dim));
  const docs: SynthDoc[] = [];
  for (let i = 0; i < n; i++) {
    const s = Math.floor(i / PER_SESSION);
    // one memory in five drifts to another session's topic (cross-scope neighbours for the hops)
    const topic = rand() < 0.2 ? Math.floor(rand() * sessions) : s;
    const tagCount = 1 + Math.floor(rand() * 3);
    const tags = [...new Set(Array.from({ length: tagCount }, () => TAGS[(s * 7 + Math.floor(rand() * 6)) % TAGS.length]))];
    docs.push({
      id: `m${String(i).padStart(6, '0')}`,
      text: sentence(8 + Math.floor(rand() * 25)),
      tags,
      importance: rand(),
      createdAt: NOW - Math.floor(rand() * 365) * DAY,
      sessionId: `s${s}`,
      vector: around(centres[topic], 0.53, rand, dim),
    });
  }
  const queries = Array.from({ length: queryCount }, () => ({
    text: sentence(2 + Math.floor(rand() * 4)),
    vector: around(centres[Math.floor(rand() * sessions)], 0.9, rand, dim),
  }));
  return { docs, queries };
}

export interface Variant {
  key: string;
  label: string;
  /** Queries per round (expensive variants run fewer). */
  block: number;
  run: (q: number) => unknown;
}

/** Rounds of blocks, order forward then reversed; per-query wall times per variant (an async run is awaited). */
export async function interleaved(variants: Variant[], rounds: number, queryCount: number): Promise<Map<string, number[]>> {
  const times = new Map<string, number[]>(variants.map((v) => [v.key, []]));
  const cursor = new Map<string, number>(variants.map((v) => [v.key, 0]));
  for (const v of variants) for (let i = 0; i < 5; i++) await v.run(i);
  (globalThis as { gc?: () => void }).gc?.(); // warm-up (JIT), not measured
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? variants : [...variants].reverse();
    for (const v of order) {
      const t = times.get(v.key)!;
      let c = cursor.get(v.key)!;
      for (let i = 0; i < v.block; i++, c++) {
        const q = c % queryCount; // every variant sees the same query sequence
        const t0 = performance.now();
        await v.run(q);
        t.push(performance.now() - t0);
      }
      cursor.set(v.key, c);
    }
  }
  return times;
}

const fmt = (x: number, w = 9) => x.toFixed(3).padStart(w);

/** Every memory's thirteen spaces (or E1 alone), serialised as the embed worker sends them. */
/** The corpus as the engine's docs: its features, and the memory's vector as its E1 feature (as the services send it). */
export function engineDocsOf(c: Corpus, docs: SerializedFeatures[]): EngineDoc[] {
  return c.docs.map((d, i) => ({
    id: d.id,
    text: d.text,
    tags: d.tags,
    importance: d.importance,
    createdAt: d.createdAt,
    validFrom: d.createdAt,
    validTo: null,
    status: 'active',
    sessionId: d.sessionId,
    features: { ...docs[i], E1: serializeSpace('E1', d.vector) },
  }));
}

export async function featuresOf(c: Corpus, withSpaces: boolean, dim = DIM): Promise<{ docs: SerializedFeatures[]; queries: SpaceFeatures[]; ms: number }> {
  if (!withSpaces) return { docs: c.docs.map(() => ({})), queries: c.queries.map((q) => ({ E1: q.vector })), ms: Number.NaN };
  const resources = await loadNodeResources();
  const fake = {
    embed: async (ts: string[]) =>
      ts.map((t) => {
        let h = 2166136261;
        for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 16777619);
        return around(null, 1, rng(h), dim);
      }),
  };
  const t0 = performance.now();
  const pos = new Map<string, number>();
  const docs: SerializedFeatures[] = [];
  for (const d of c.docs) {
    const p = pos.get(d.sessionId) ?? 0;
    pos.set(d.sessionId, p + 1);
    docs.push(serializeFeatures(await featurize({ text: d.text, createdAt: d.createdAt, sessionPosition: p, semantic: d.vector }, fake, resources)));
  }
  const ms = performance.now() - t0;
  const queries: SpaceFeatures[] = [];
  for (const q of c.queries) queries.push(await featurizeQuery(q.text, fake, resources, { semantic: q.vector }));
  return { docs, queries, ms };
}

async function benchSize(n: number, withSpaces: boolean): Promise<Record<string, number>> {
  const big = n >= 10_000;
  // One query per variant per round (A/B/A'/B... per query, order reversed every other round):
  // drift from the other work on this shared machine lands on all variants alike.
  const block = 1;
  const c = corpus(n, 400);
  const feats = await featuresOf(c, withSpaces);
  const featurizeMs = feats.ms;
  const engineDocs = engineDocsOf(c, feats.docs);
  const t0 = performance.now();
  const engine = new EngineCore();
  engine.load(engineDocs, { dim: DIM });
  const buildMs = performance.now() - t0;
  const queryFeatures = feats.queries.map((f) => serializeFeatures(f));
  const recall = (o: RecallOptionsInput) => (q: number) => engine.recall({ text: c.queries[q].text, features: queryFeatures[q] }, o);
  // the engine's first recall with lateral or hops builds its NeighbourMatrix and caches it
  const m0 = performance.now();
  await recall({ assocHops: 1 })(0);
  const matrixMs = performance.now() - m0;

  // the plain search the app's search box runs, and runPipeline hybridOnly with the engine's context
  const index = new HybridIndex(DIM);
  const spaces = new SpaceIndex();
  for (const { features, sessionId: _s, ...doc } of engineDocs) {
    const f = deserializeFeatures(features ?? {});
    index.upsert({ ...doc, vector: (f.E1 as Float32Array | undefined) ?? null });
    spaces.upsert(doc.id, f);
  }
  const session = new Map(c.docs.map((d) => [d.id, d.sessionId]));
  const sessionOf = (id: string) => session.get(id);
  const hybridOnly: PipelineContext = {
    hybrid: index,
    spaces,
    matrix: buildNeighbourMatrix(index.ids(), (id) => index.vectorOf(id), sessionOf),
    feedback: new FeedbackState(),
    now: NOW,
    sessionOf,
    ranking: { spaces: [] },
  };
  const plain = (q: number) => index.search(c.queries[q], { topK: 10 });
  const variants: Variant[] = [
    { key: 'a', label: '(a) HybridIndex.search top 10 (K=500)', block, run: plain },
    { key: 'b', label: '(b) engine recall BALANCED (lateral off)', block, run: recall({ profile: 'BALANCED' }) },
    { key: 'a2', label: "(a') HybridIndex.search again", block, run: plain },
    { key: 'p0', label: '    runPipeline hybridOnly, BALANCED', block, run: (q) => runPipeline(hybridOnly, { text: c.queries[q].text, features: feats.queries[q] }, {}) },
    // seed 001: asOf at the corpus's middle (about half the memories valid: filtered in the lists) and decay on
    { key: 't1', label: '(t) engine recall BALANCED, asOf mid-year', block, run: recall({ profile: 'BALANCED', asOf: NOW - 182 * 86_400_000 }) },
    { key: 't2', label: '(t) engine recall BALANCED, decayTauDays 30', block, run: recall({ profile: 'BALANCED', decayTauDays: 30 }) },
    { key: 'c', label: '(c) engine recall DIVERGENT (lateral on)', block, run: recall({ profile: 'DIVERGENT' }) },
    { key: 'c2', label: '    engine recall BALANCED + lateralMode', block, run: recall({ profile: 'BALANCED', lateralMode: true }) },
    { key: 'h1', label: '(d) engine recall BALANCED, assocHops 1', block, run: recall({ profile: 'BALANCED', assocHops: 1 }) },
    { key: 'h2', label: '(d) engine recall BALANCED, assocHops 2', block, run: recall({ profile: 'BALANCED', assocHops: 2 }) },
    { key: 'h3', label: '(d) engine recall BALANCED, assocHops 3', block, run: recall({ profile: 'BALANCED', assocHops: 3 }) },
  ];
  // expansion work actually done (so a "fast" hop row cannot hide an empty walk)
  const modes = async (o: RecallOptionsInput, mode: string) => (await recall(o)(0)).results.filter((r) => r.mode === mode).length;
  const assocCounts = [await modes({ assocHops: 1 }, 'associative'), await modes({ assocHops: 2 }, 'associative'), await modes({ assocHops: 3 }, 'associative')];
  const lateralCount = await modes({ profile: 'DIVERGENT' }, 'lateral');

  // Three interleaved groups, so the garbage of the heavy paths (lateral candidate lists, hop
  // walks, the space blend) does not land as GC pauses inside the off-path comparison.
  const groups: [string[], number][] = [
    [['a', 'b', 'a2', 'p0', 't1', 't2'], big ? 60 : 200],
    [['c', 'c2'], big ? 30 : 80],
    [['h1', 'h2', 'h3'], big ? 20 : 60],
  ];
  const times = new Map<string, number[]>();
  for (const [g, rounds] of groups) {
    const vs = variants.filter((v) => g.includes(v.key));
    if (vs.length > 0) for (const [k, t] of await interleaved(vs, rounds, c.queries.length)) times.set(k, t);
  }
  const stat = (k: string) => ({ median: median(times.get(k) ?? []), p95: percentile(times.get(k) ?? [], 95), count: times.get(k)?.length ?? 0 });

  console.log(
    `n = ${n}: engine load ${buildMs.toFixed(0)} ms; first lateral / hop recall (builds the NeighbourMatrix, ${((n * DIM * 4) / 2 ** 20).toFixed(1)} MiB) ${matrixMs.toFixed(1)} ms` +
      (Number.isFinite(featurizeMs) ? `; featurizing ${n} memories ${(featurizeMs / 1000).toFixed(1)} s` : '; E1 only (--no-spaces)'),
  );
  console.log(`  ${'path'.padEnd(42)} ${'median ms'.padStart(9)} ${'p95 ms'.padStart(9)}  queries`);
  for (const v of variants) {
    const s = stat(v.key);
    console.log(`  ${v.label.padEnd(42)} ${fmt(s.median)} ${fmt(s.p95)}  ${String(s.count).padStart(5)}`);
  }
  const a = stat('a').median;
  const r = (k: string) => stat(k).median / a;
  console.log(
    `  ratios (median / (a)): a'/a ${r('a2').toFixed(3)} (noise floor)  b/a ${r('b').toFixed(2)}  c/a ${r('c').toFixed(2)}  ` +
      `hops 1/2/3: ${r('h1').toFixed(1)} / ${r('h2').toFixed(1)} / ${r('h3').toFixed(1)}`,
  );
  // Paired per query (same query, same round, adjacent in time): median of x_q / a_q.
  const paired = (k: string) => {
    const x = times.get(k) ?? [];
    const base = times.get('a') ?? [];
    return median(x.map((t, i) => t / base[i]).filter(Number.isFinite));
  };
  console.log(`  paired per query (median of x_q / a_q): a'/a ${paired('a2').toFixed(3)} (noise floor)  b/a ${paired('b').toFixed(2)}`);
  console.log(`  asOf / BALANCED ${(stat('t1').median / stat('b').median).toFixed(2)}, decay / BALANCED ${(stat('t2').median / stat('b').median).toFixed(2)} (medians)`);
  console.log(`  engine recall BALANCED / runPipeline hybridOnly: ${(stat('b').median / stat('p0').median).toFixed(2)} (the cost of the space blend and the engine's call)`);
  console.log(`  sample query 0: ${lateralCount} lateral results (DIVERGENT); associative results at hops 1/2/3: ${assocCounts.join(' / ')}`);
  const pre = `n${n}_`;
  const out: Record<string, number> = {
    [`${pre}build_ms`]: buildMs,
    [`${pre}matrix_build_ms`]: matrixMs,
    [`${pre}ratio_a2_a`]: r('a2'),
    [`${pre}ratio_b_a`]: r('b'),
    [`${pre}ratio_c_a`]: r('c'),
    [`${pre}paired_ratio_a2_a`]: paired('a2'),
    [`${pre}paired_ratio_b_a`]: paired('b'),
    [`${pre}ratio_b_p0`]: stat('b').median / stat('p0').median,
  };
  for (const v of variants) {
    const s = stat(v.key);
    out[`${pre}${v.key}_median_ms`] = s.median;
    out[`${pre}${v.key}_p95_ms`] = s.p95;
  }
  if (Number.isFinite(featurizeMs)) out[`${pre}featurize_ms`] = featurizeMs;
  return out;
}

export async function run(): Promise<Record<string, number>> {
  const withSpaces = !process.argv.includes('--no-spaces');
  const sizes = (process.env.RECALL_BENCH_SIZES ?? '1000,10000').split(',').map(Number).filter((x) => x > 0);
  let out: Record<string, number> = {};
  for (const n of sizes) out = { ...out, ...(await benchSize(n, withSpaces)) };
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  run().then((r) => {
    if (process.argv.includes('--json')) console.log(JSON.stringify(r));
  });
}
