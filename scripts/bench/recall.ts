// Recall paths in Node (core only, no encoder, no workers): the plain hybrid search against the
// recall layer with lateral mode off (BALANCED), lateral on (DIVERGENT), associative hops 1-3 over
// a cached NeighbourMatrix, and (when src/core/pipeline is present) runPipeline hybridOnly vs all
// spaces. 1k and 10k synthetic memories; every variant runs in ONE process, interleaved in rounds
// (forward, then reversed order) so drift and GC hit all alike. The noise floor is the ratio of
// two identical variants (a / a'). Prints figures and ratios; never fails on timings.
//
//   npx tsx scripts/bench/recall.ts            (add --no-pipeline to skip the featurizing)
//
// Data (seeded): 512-d unit vectors drawn around one random topic centre per session (pairwise
// cosine about 0.78 within a topic, about 0 across), so associative hops (minCosine 0.72) find
// neighbours as real memories do; pure isotropic vectors would make every hop a no-op. Texts are
// Zipf-sampled English words from the lexicon (so the lexical spaces see real words), 1-3 tags
// from a 24-tag vocabulary, uniform importance, createdAt over the past year, 25 memories a session.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HybridIndex } from '../../src/core/hybrid';
import {
  buildNeighbourMatrix,
  recall,
  recallSourceFromHybrid,
  resolveRecallOptions,
  hybridParams,
  type NeighbourMatrix,
  type RecallOptionsInput,
} from '../../src/core/recall';
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
function around(centre: Float32Array | null, sigma: number, rand: () => number): Float32Array {
  const v = new Float32Array(DIM);
  const s = sigma / Math.sqrt(DIM);
  for (let i = 0; i < DIM; i++) v[i] = (centre ? centre[i] : 0) + s * gaussian(rand);
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


interface SynthDoc {
  id: string;
  text: string;
  tags: string[];
  importance: number;
  createdAt: number;
  sessionId: string;
  vector: Float32Array;
}

interface Corpus {
  docs: SynthDoc[];
  queries: { text: string; vector: Float32Array }[];
}

function corpus(n: number, queryCount: number): Corpus {
  const rand = rng(4242 + n);
  const words = englishWords(4000);
  const pick = zipf(words.length, rand);
  const sentence = (len: number) => Array.from({ length: len }, () => words[pick()]).join(' ');
  const sessions = Math.ceil(n / PER_SESSION);
  const centres = Array.from({ length: sessions }, () => around(null, 1, rand));
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
      vector: around(centres[topic], 0.53, rand),
    });
  }
  const queries = Array.from({ length: queryCount }, () => ({
    text: sentence(2 + Math.floor(rand() * 4)),
    vector: around(centres[Math.floor(rand() * sessions)], 0.9, rand),
  }));
  return { docs, queries };
}

interface Variant {
  key: string;
  label: string;
  /** Queries per round (expensive variants run fewer). */
  block: number;
  run: (q: number) => unknown;
}

/** Rounds of blocks, order forward then reversed; per-query wall times per variant. */
function interleaved(variants: Variant[], rounds: number, queryCount: number): Map<string, number[]> {
  const times = new Map<string, number[]>(variants.map((v) => [v.key, []]));
  const cursor = new Map<string, number>(variants.map((v) => [v.key, 0]));
  for (const v of variants) for (let i = 0; i < 5; i++) v.run(i);
  (globalThis as { gc?: () => void }).gc?.(); // warm-up (JIT), not measured
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? variants : [...variants].reverse();
    for (const v of order) {
      const t = times.get(v.key)!;
      let c = cursor.get(v.key)!;
      for (let i = 0; i < v.block; i++, c++) {
        const q = c % queryCount; // every variant sees the same query sequence
        const t0 = performance.now();
        v.run(q);
        t.push(performance.now() - t0);
      }
      cursor.set(v.key, c);
    }
  }
  return times;
}

const fmt = (x: number, w = 9) => x.toFixed(3).padStart(w);

async function pipelineVariants(
  c: Corpus,
  index: HybridIndex,
  matrix: NeighbourMatrix,
  sessionOf: (id: string) => string | undefined,
  block: number,
): Promise<{ variants: Variant[]; featurizeMs: number } | null> {
  let mod: typeof import('../../src/core/pipeline');
  let feat: typeof import('../../src/features');
  let res: typeof import('../lib/resources-node');
  try {
    mod = await import('../../src/core/pipeline');
    feat = await import('../../src/features');
    res = await import('../lib/resources-node');
  } catch (e) {
    console.log(`  (pipeline rows skipped: ${(e as Error).message})`);
    return null;
  }
  const resources = await res.loadNodeResources();
  // E5 / E10 need the encoder: a deterministic stand-in (random unit vector per text) keeps them
  // present at no encoder cost; E1 is the memory's own vector.
  const fake = {
    embed: async (ts: string[]) =>
      ts.map((t) => {
        let h = 2166136261;
        for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 16777619);
        return around(null, 1, rng(h));
      }),
  };
  const spaces = new mod.SpaceIndex();
  const t0 = performance.now();
  const pos = new Map<string, number>();
  for (const d of c.docs) {
    const p = pos.get(d.sessionId) ?? 0;
    pos.set(d.sessionId, p + 1);
    spaces.upsert(d.id, await feat.featurize({ text: d.text, createdAt: d.createdAt, sessionPosition: p, semantic: d.vector }, fake, resources));
  }
  const featurizeMs = performance.now() - t0;
  const qf: Awaited<ReturnType<typeof feat.featurizeQuery>>[] = [];
  for (const q of c.queries) qf.push(await feat.featurizeQuery(q.text, fake, resources, { semantic: q.vector }));
  const ctx = (ranking: Partial<import('../../src/core/pipeline').RankingConfig>) => ({
    hybrid: index,
    spaces,
    matrix,
    sessionOf,
    now: NOW,
    ranking,
  });
  const only = ctx({ spaces: [] });
  const all = ctx({});
  const opts = { ...mod.DEFAULT_PIPELINE_OPTIONS, topK: 10 };
  return {
    featurizeMs,
    variants: [
      { key: 'pipe_hybrid', label: 'runPipeline hybridOnly', block, run: (q) => mod.runPipeline(only, { text: c.queries[q].text, features: qf[q] }, opts) },
      { key: 'pipe_all', label: 'runPipeline all spaces', block, run: (q) => mod.runPipeline(all, { text: c.queries[q].text, features: qf[q] }, opts) },
    ],
  };
}

async function benchSize(n: number, withPipeline: boolean): Promise<Record<string, number>> {
  const big = n >= 10_000;
  // One query per variant per round (A/B/A'/B... per query, order reversed every other round):
  // drift from the other work on this shared machine lands on all variants alike.
  const block = 1;
  const c = corpus(n, 400);
  const t0 = performance.now();
  const index = new HybridIndex(DIM);
  for (const d of c.docs) {
    index.upsert({ id: d.id, text: d.text, vector: d.vector, tags: d.tags, importance: d.importance, createdAt: d.createdAt, validFrom: d.createdAt, validTo: null, status: 'active' });
  }
  const buildMs = performance.now() - t0;
  const session = new Map(c.docs.map((d) => [d.id, d.sessionId]));
  const sessionOf = (id: string) => session.get(id);

  const builds: number[] = [];
  let matrix!: NeighbourMatrix;
  for (let i = 0; i < 3; i++) {
    const m0 = performance.now();
    matrix = buildNeighbourMatrix(index.ids(), (id) => index.vectorOf(id), sessionOf);
    builds.push(performance.now() - m0);
  }
  const matrixMs = median(builds);

  const source = recallSourceFromHybrid(index);
  const balanced = resolveRecallOptions({ profile: 'BALANCED' });
  const p = hybridParams(balanced);
  // (a): exactly the hybrid call recall makes for BALANCED (same pool, weights, gates), then top K
  const plain = (q: number) =>
    index
      .search(
        { text: c.queries[q].text, vector: c.queries[q].vector },
        { topK: p.candidateK, config: { lexicalWeight: p.lexicalWeight, semanticWeight: p.semanticWeight, candidateK: p.candidateK } },
      )
      .slice(0, balanced.topK);
  const rec = (o: RecallOptionsInput) => (q: number) => recall(source, c.queries[q].text, c.queries[q].vector, o, { matrix, now: NOW });
  const variants: Variant[] = [
    { key: 'a', label: '(a) HybridIndex.search, K=50', block, run: plain },
    { key: 'b', label: '(b) recall BALANCED (lateral off)', block, run: rec({ profile: 'BALANCED' }) },
    { key: 'a2', label: "(a') HybridIndex.search again", block, run: plain },
    { key: 'a0', label: '    HybridIndex.search default K=500', block, run: (q) => index.search(c.queries[q], { topK: 10 }) },
    { key: 'c', label: '(c) recall DIVERGENT (lateral on)', block, run: rec({ profile: 'DIVERGENT' }) },
    { key: 'c2', label: '    recall BALANCED + lateralMode on', block, run: rec({ profile: 'BALANCED', lateralMode: true }) },
    { key: 'h1', label: '(d) recall BALANCED, assocHops 1', block, run: rec({ profile: 'BALANCED', assocHops: 1 }) },
    { key: 'h2', label: '(d) recall BALANCED, assocHops 2', block, run: rec({ profile: 'BALANCED', assocHops: 2 }) },
    { key: 'h3', label: '(d) recall BALANCED, assocHops 3', block, run: rec({ profile: 'BALANCED', assocHops: 3 }) },
  ];
  let featurizeMs = Number.NaN;
  if (withPipeline) {
    const pv = await pipelineVariants(c, index, matrix, sessionOf, block);
    if (pv) {
      variants.push(...pv.variants);
      featurizeMs = pv.featurizeMs;
    }
  }
  // expansion work actually done (so a "fast" hop row cannot hide an empty walk)
  const assocCount = (hops: number) =>
    recall(source, c.queries[0].text, c.queries[0].vector, { profile: 'BALANCED', assocHops: hops }, { matrix, now: NOW }).filter((r) => r.mode === 'associative').length;
  const lateralCount = recall(source, c.queries[0].text, c.queries[0].vector, { profile: 'DIVERGENT' }, { matrix, now: NOW }).filter((r) => r.mode === 'lateral').length;

  // Three interleaved groups, so the garbage of the heavy paths (lateral candidate lists, hop
  // walks, the space blend) does not land as GC pauses inside the off-path comparison.
  const groups: [string[], number][] = [
    [['a', 'b', 'a2', 'a0'], big ? 150 : 400],
    [['c', 'c2', 'h1', 'h2', 'h3'], big ? 24 : 80],
    [['pipe_hybrid', 'pipe_all'], big ? 100 : 250],
  ];
  const times = new Map<string, number[]>();
  for (const [g, rounds] of groups) {
    const vs = variants.filter((v) => g.includes(v.key));
    if (vs.length > 0) for (const [k, t] of interleaved(vs, rounds, c.queries.length)) times.set(k, t);
  }
  const stat = (k: string) => ({ median: median(times.get(k) ?? []), p95: percentile(times.get(k) ?? [], 95), count: times.get(k)?.length ?? 0 });

  console.log(
    `n = ${n}: index build ${buildMs.toFixed(0)} ms; NeighbourMatrix build ${matrixMs.toFixed(1)} ms (median of 3, ${((n * DIM * 4) / 2 ** 20).toFixed(1)} MiB)` +
      (Number.isFinite(featurizeMs) ? `; featurizing ${n} memories for the pipeline ${(featurizeMs / 1000).toFixed(1)} s` : ''),
  );
  console.log(`  ${'path'.padEnd(38)} ${'median ms'.padStart(9)} ${'p95 ms'.padStart(9)}  queries`);
  for (const v of variants) {
    const s = stat(v.key);
    console.log(`  ${v.label.padEnd(38)} ${fmt(s.median)} ${fmt(s.p95)}  ${String(s.count).padStart(5)}`);
  }
  const a = stat('a').median;
  const r = (k: string) => stat(k).median / a;
  console.log(
    `  ratios (median / (a)): a'/a ${r('a2').toFixed(3)} (noise floor)  b/a ${r('b').toFixed(3)}  c/a ${r('c').toFixed(2)}  ` +
      `hops 1/2/3: ${r('h1').toFixed(1)} / ${r('h2').toFixed(1)} / ${r('h3').toFixed(1)}`,
  );
  // Paired per query (same query, same round, adjacent in time): median of x_q / a_q.
  const paired = (k: string) => {
    const x = times.get(k) ?? [];
    const base = times.get('a') ?? [];
    return median(x.map((t, i) => t / base[i]).filter(Number.isFinite));
  };
  console.log(`  paired per query (median of x_q / a_q): a'/a ${paired('a2').toFixed(3)} (noise floor)  b/a ${paired('b').toFixed(3)}`);
  console.log(`  sample query 0: ${lateralCount} lateral results (DIVERGENT); associative results at hops 1/2/3: ${assocCount(1)} / ${assocCount(2)} / ${assocCount(3)}`);
  const pre = `n${n}_`;
  const out: Record<string, number> = {
    [`${pre}build_ms`]: buildMs,
    [`${pre}matrix_build_ms`]: matrixMs,
    [`${pre}ratio_a2_a`]: r('a2'),
    [`${pre}ratio_b_a`]: r('b'),
    [`${pre}ratio_c_a`]: r('c'),
    [`${pre}paired_ratio_a2_a`]: paired('a2'),
    [`${pre}paired_ratio_b_a`]: paired('b'),
  };
  for (const v of variants) {
    const s = stat(v.key);
    out[`${pre}${v.key}_median_ms`] = s.median;
    out[`${pre}${v.key}_p95_ms`] = s.p95;
  }
  if (Number.isFinite(featurizeMs)) {
    out[`${pre}featurize_ms`] = featurizeMs;
    out[`${pre}ratio_pipe_all_hybrid`] = stat('pipe_all').median / stat('pipe_hybrid').median;
    console.log(`  runPipeline all spaces / hybridOnly: ${out[`${pre}ratio_pipe_all_hybrid`].toFixed(2)}; hybridOnly / (b): ${(stat('pipe_hybrid').median / stat('b').median).toFixed(2)}`);
  }
  return out;
}

export async function run(): Promise<Record<string, number>> {
  const withPipeline = !process.argv.includes('--no-pipeline');
  const sizes = (process.env.RECALL_BENCH_SIZES ?? '1000,10000').split(',').map(Number).filter((x) => x > 0);
  let out: Record<string, number> = {};
  for (const n of sizes) out = { ...out, ...(await benchSize(n, withPipeline)) };
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  run().then((r) => {
    if (process.argv.includes('--json')) console.log(JSON.stringify(r));
  });
}
