// LoCoMo retrieval evaluation (protocol: /work/shared/data/README.md), run per conversation.
//
//   npx tsx scripts/eval-locomo.ts --data /work/shared/data/locomo-dev.json [--json] [--no-dense]
//                                  [--no-spaces] [--deep-only] [--assoc-hops N] [--encoder <id>]
//                                  [--no-judge]
//
// --encoder: any id of src/embed/encoders.ts (or minilm / use-lite); default the app's default
// (DEFAULT_ENCODER_ID). Every system row runs with it; --json carries it as `encoder`. Vectors are
// cached on disk per encoder id + text (scripts/lib/embedding-cache.ts), so repeated runs are fast.
// Every row has top1 (the first evidence note at rank 1, percent) beside r10 / ndcg10 / mrr10.
//
// Systems: bm25 (lexical list alone), dense (encoder alone), hybrid (their fusion as the app runs
// it: DEFAULT_HYBRID_CONFIG + the encoder's calibration, src/core/pipeline/calibration.ts),
// hybridMinMax (DEFAULT_HYBRID_CONFIG alone, the fusion before the calibration), rrf (equal-weight
// RRF, for comparison). With the encoder (and unless --no-spaces), every turn is also featurised
// in the thirteen spaces and the one ranking pipeline (src/core/pipeline, the app's) is scored
// under the same calibration: `ablation` (hybridOnly, hybrid+E5 .. hybrid+E13, allSpaces),
// `assoc` (assocHops0..3 over the shipped ranking), `app` / `appRanking` (the shipped ranking at
// --assoc-hops N, default the pipeline's shipped value), `uncalibrated` (the app's ranking
// before the calibration) and `deep` (issue 11: expandHops1, multiQuery3 with the offline
// transformer; scripts/lib/eval-deep.ts; --deep-only skips the ablation, the other hops and the
// uncalibrated row); --json also carries the `calibration` used. The app row is what the app
// ships: when the encoder's calibration names a judge (calibrationFor(id).judge) and its model
// folder is in public/models/, the judge re-scores the row's top `depth` (scripts/lib/eval-judge.ts);
// --no-judge gives the row without it; --json's `judge` says whether it was applied (and why not).
// Later features add systems by passing more entries to `evaluate` (see RetrievalSystem); a system only ranks, the harness
// scores and times it. Times cover ranking only: query vectors are embedded up front (the
// encoder's cost is the embed worker's, measured by its own bench).
import { fileURLToPath } from 'node:url';
import { DEFAULT_HYBRID_CONFIG, HybridIndex, type HybridConfig } from '../src/core/hybrid';
import type { MemoryId } from '../src/core/types';
import { loadLocomo, type Conversation, type ConvQuery } from './lib/locomo';
import { mean, median, mrrAt, ndcgAt, percentile, recallAt, top1At } from './lib/metrics';
import { calibrationFor, DEFAULT_PIPELINE_OPTIONS, DEFAULT_RANKING, type EncoderCalibration } from '../src/core/pipeline';
import { ablationSystems, assocSystems, attachTokens, featurizeAll, uncalibratedSystem } from './lib/eval-systems';
import { DEFAULT_ENCODER_ID } from '../src/embed/encoders';

export const EVAL_K = 10;

export interface EvalQuery extends ConvQuery {
  /** Unit query vector, or null when evaluating without an encoder. */
  vector: Float32Array | null;
}

/** One conversation, indexed once and shared by every system. */
export interface PreparedConversation {
  conv: Conversation;
  index: HybridIndex;
  queries: EvalQuery[];
}

export interface RetrievalSystem {
  name: string;
  /** The ranked memory ids for `q` (best first); only the first EVAL_K count. */
  rank(pc: PreparedConversation, q: EvalQuery): MemoryId[];
}

export interface MetricTriple {
  r10: number; // percent
  ndcg10: number; // percent
  mrr10: number; // percent
  top1: number; // percent of queries whose first result is an evidence note
  queries: number;
}

export interface SystemReport extends MetricTriple {
  perCategory: Record<string, MetricTriple>;
  medianMs: number;
  p95Ms: number;
}

export type EmbedFn = (texts: string[]) => Promise<Float32Array[]>;

/**
 * Build the per-conversation indexes (memories embedded when `embed` is given). `dim` is the
 * encoder's dimension (any width without an encoder); `embedQueries` embeds the questions (the
 * encoder's query prefix), default `embed`.
 */
/**
 * What-if (issue 13, engine memory): MNEMOGRAPH_WHATIF_E1_F16=1 stores every memory's E1 as its
 * unit vector rounded to float16 (10-bit mantissa, nearest), as a dense store keeping f16 rows
 * instead of f32 would rescore with; queries stay f32. Not the shipped path: it measures what the
 * 77 MB such rows would save at 100k x 384 would cost in quality.
 */
const E1_F16 = process.env.MNEMOGRAPH_WHATIF_E1_F16 === '1';
function halfRows(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  const inv = n > 0 ? 1 / Math.sqrt(n) : 0;
  return v.map((x) => {
    const a = Math.abs(x * inv);
    if (a === 0 || !Number.isFinite(a)) return x * inv;
    let e = Math.max(-14, Math.floor(Math.log2(a)));
    if (e > -14 && 2 ** e > a) e--;
    const ulp = 2 ** (e - 10);
    return Math.sign(x) * Math.round(a / ulp) * ulp;
  });
}

export async function prepare(
  data: Conversation[],
  embed: EmbedFn | null,
  opts: { dim?: number; embedQueries?: EmbedFn } = {},
): Promise<PreparedConversation[]> {
  const out: PreparedConversation[] = [];
  const embedQueries = opts.embedQueries ?? embed;
  for (const conv of data) {
    const memVectors = embed ? await embed(conv.memories.map((m) => m.text)) : null;
    const qVectors = embedQueries ? await embedQueries(conv.queries.map((q) => q.question)) : null;
    const dim = opts.dim ?? memVectors?.[0]?.length ?? qVectors?.[0]?.length ?? 1;
    const index = new HybridIndex(dim);
    conv.memories.forEach((m, i) => {
      index.upsert({
        id: m.id,
        text: m.text,
        tags: [],
        importance: 0.5,
        createdAt: m.time,
        validFrom: m.time,
        validTo: null,
        status: 'active',
        vector: memVectors ? (E1_F16 ? halfRows(memVectors[i]) : memVectors[i]) : null,
      });
    });
    out.push({ conv, index, queries: conv.queries.map((q, i) => ({ ...q, vector: qVectors ? qVectors[i] : null })) });
  }
  return out;
}

function triple(r: number[], n: number[], m: number[], t: number[]): MetricTriple {
  const pct = (xs: number[]) => Math.round(mean(xs) * 1000) / 10;
  return { r10: pct(r), ndcg10: pct(n), mrr10: pct(m), top1: pct(t), queries: r.length };
}

/** Score every system on every query of every conversation. */
export function evaluate(data: PreparedConversation[], systems: RetrievalSystem[]): Record<string, SystemReport> {
  const reports: Record<string, SystemReport> = {};
  for (const sys of systems) {
    const all = { r: [] as number[], n: [] as number[], m: [] as number[], t: [] as number[] };
    const byCat = new Map<number, typeof all>();
    const times: number[] = [];
    for (const pc of data) {
      for (const q of pc.queries) {
        const t0 = performance.now();
        const ranked = sys.rank(pc, q);
        times.push(performance.now() - t0);
        const r = recallAt(ranked, q.evidence, EVAL_K);
        const n = ndcgAt(ranked, q.evidence, EVAL_K);
        const m = mrrAt(ranked, q.evidence, EVAL_K);
        const t = top1At(ranked, q.evidence);
        let c = byCat.get(q.category);
        if (!c) byCat.set(q.category, (c = { r: [], n: [], m: [], t: [] }));
        for (const acc of [all, c]) {
          acc.r.push(r);
          acc.n.push(n);
          acc.m.push(m);
          acc.t.push(t);
        }
      }
    }
    const perCategory: Record<string, MetricTriple> = {};
    for (const cat of [...byCat.keys()].sort((a, b) => a - b)) {
      const c = byCat.get(cat)!;
      perCategory[String(cat)] = triple(c.r, c.n, c.m, c.t);
    }
    const round = (x: number) => Math.round(x * 1000) / 1000;
    reports[sys.name] = {
      ...triple(all.r, all.n, all.m, all.t),
      perCategory,
      medianMs: round(median(times)),
      p95Ms: round(percentile(times, 95)),
    };
  }
  return reports;
}

/** A system ranking by the hybrid index's fused search under a config patch. */
export function hybridSystem(name: string, config: Partial<HybridConfig> = {}): RetrievalSystem {
  return {
    name,
    rank: (pc, q) => pc.index.search({ text: q.question, vector: q.vector }, { topK: EVAL_K, config }).map((h) => h.id),
  };
}

export const bm25System: RetrievalSystem = {
  name: 'bm25',
  rank: (pc, q) =>
    pc.index.candidates({ text: q.question, vector: null }, { topK: EVAL_K, config: { candidateK: EVAL_K } }).lexical.map((h) => h.id),
};

export const denseSystem: RetrievalSystem = {
  name: 'dense',
  rank: (pc, q) =>
    pc.index.candidates({ text: '', vector: q.vector }, { topK: EVAL_K, config: { candidateK: EVAL_K } }).dense.map((h) => h.id),
};

/**
 * bm25 and dense (the app's two components alone), hybrid (their fusion as the app runs it: the
 * encoder's calibration over DEFAULT_HYBRID_CONFIG), hybridMinMax (DEFAULT_HYBRID_CONFIG alone:
 * BM25 min-max, the fusion before the per-encoder calibration) and rrf, for comparison.
 */
export function defaultSystems(withDense: boolean, calibration: EncoderCalibration = calibrationFor(undefined)): RetrievalSystem[] {
  if (!withDense) return [bm25System];
  return [
    bm25System,
    denseSystem,
    hybridSystem('hybrid', { ...DEFAULT_HYBRID_CONFIG, ...calibration.hybrid }),
    hybridSystem('hybridMinMax', DEFAULT_HYBRID_CONFIG),
    hybridSystem('rrf', { fusion: 'rrf', lexicalWeight: 1, semanticWeight: 1, rrfK: 60, candidateK: 60 }),
  ];
}

export function formatTable(reports: Record<string, SystemReport>): string {
  const cats = [...new Set(Object.values(reports).flatMap((r) => Object.keys(r.perCategory)))].sort();
  const head = ['system', 'R@10', 'nDCG@10', 'MRR@10', 'top-1', ...cats.map((c) => `R@10 c${c}`), 'med ms', 'p95 ms', 'queries'];
  const rows = Object.entries(reports).map(([name, r]) => [
    name,
    r.r10.toFixed(1),
    r.ndcg10.toFixed(1),
    r.mrr10.toFixed(1),
    r.top1.toFixed(1),
    ...cats.map((c) => (r.perCategory[c] ? `${r.perCategory[c].r10.toFixed(1)} (${r.perCategory[c].queries})` : '-')),
    r.medianMs.toFixed(3),
    r.p95Ms.toFixed(3),
    String(r.queries),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

export interface CliArgs {
  data: string;
  json: boolean;
  dense: boolean;
  /** Featurise and score the pipeline systems (needs the encoder). */
  spaces: boolean;
  /** assocHops of the app's row; undefined = the pipeline's shipped default. */
  assocHops?: number;
  /** Encoder id or alias (src/embed/encoders.ts); default DEFAULT_ENCODER_ID. */
  encoder: string;
  /** Only the shipped ranking and the deep rows (skip the ablation and the other hops). */
  deepOnly?: boolean;
  /** Apply the calibration's judge to the app row when its folder is present (default); --no-judge: never. */
  judge: boolean;
}

export function parseArgs(argv: string[]): CliArgs {
  const args: CliArgs = { data: '/work/shared/data/locomo-dev.json', json: false, dense: true, spaces: true, encoder: DEFAULT_ENCODER_ID, judge: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--data') args.data = argv[++i] ?? '';
    else if (a === '--json') args.json = true;
    else if (a === '--no-dense') args.dense = false;
    else if (a === '--no-spaces') args.spaces = false;
    else if (a === '--deep-only') args.deepOnly = true;
    else if (a === '--no-judge') args.judge = false;
    else if (a === '--assoc-hops') {
      const v = argv[++i];
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0 || n > 3) throw new Error(`--assoc-hops needs a whole number from 0 to 3 (got ${String(v)})`);
      args.assocHops = n;
    } else if (a === '--encoder') {
      const v = argv[++i];
      if (!v || v.startsWith('--')) throw new Error('--encoder needs an encoder id (e.g. all-MiniLM-L6-v2-int8, use-lite-en/v1, minilm, use-lite)');
      args.encoder = v;
    } else if (a === '--') continue;
    else throw new Error(`Unknown argument: ${a} (expected --data <file>, --json, --no-dense, --no-spaces, --deep-only, --assoc-hops N, --encoder <id>, --no-judge)`);
  }
  if (!args.data) throw new Error('--data needs a file path');
  return args;
}

export interface PipelineReports {
  ablation: Record<string, SystemReport>;
  assoc: Record<string, SystemReport>;
  appRanking: { assocHops: number } & SystemReport;
  /** Whether the app row has the calibration's judge (and if not, why not). */
  judge: import('./lib/eval-judge').JudgeUse;
  /** The app's ranking before the per-encoder calibration (min-max fusion, fixed blend), assocHops 0; absent with --deep-only. */
  uncalibrated?: SystemReport;
  /** Issue 11's deep-recall rows (expandHops1, multiQuery3, iterative, deepSearch) over the shipped ranking. */
  deep: Record<string, SystemReport>;
  /** Deep search escalation (active, offline reader): scripts/lib/eval-deep-search.ts. */
  deepSearch: import('./lib/eval-deep-search').DeepSearchFigures;
  /** JUDGE=<id>: the shipped ranking's top 30 re-scored by a stronger encoder (scripts/lib/eval-judge.ts). */
  judged?: SystemReport;
}

/**
 * Featurise every turn once, then score the ablation, the assoc hops, the app's ranking and the
 * deep rows, all under the encoder's calibration (src/core/pipeline/calibration.ts), as the engine
 * runs them.
 */
export async function evaluatePipeline(
  prepared: PreparedConversation[],
  embed: EmbedFn,
  assocHops?: number,
  calibration: EncoderCalibration = calibrationFor(undefined),
  embedQueries: EmbedFn = embed,
  deepOnly = false,
  encoderId?: string,
  useJudge = true,
): Promise<PipelineReports> {
  const [{ loadNodeResources }, { deepSystems }, { deepSearchRows }] = await Promise.all([
    import('./lib/resources-node'),
    import('./lib/eval-deep'),
    import('./lib/eval-deep-search'),
  ]);
  const resources = await loadNodeResources();
  const log = (m: string) => process.stderr.write(`${m}\n`);
  const feats = await featurizeAll(prepared, resources, embed, log);
  if (encoderId) {
    // the token matrices of late interaction (Transformers.js encoders; USE-lite has none)
    const { resolveEncoder } = await import('./lib/node-embedder');
    await attachTokens(prepared, feats, resolveEncoder(encoderId), log);
  }
  const hops = assocHops ?? DEFAULT_PIPELINE_OPTIONS.assocHops ?? 0;
  // --deep-only: the shipped ranking and the deep rows, without the ablation, the other hops and the uncalibrated row
  const ablation = deepOnly ? {} : evaluate(prepared, ablationSystems(feats, calibration.ranking, calibration.hybrid));
  const allHops = assocSystems(feats, calibration.ranking, {}, calibration.hybrid);
  const assoc = evaluate(prepared, deepOnly ? allHops.filter((s) => s.name === `assocHops${hops}`) : allHops);
  const uncalibrated = deepOnly ? undefined : evaluate(prepared, [uncalibratedSystem(feats)]).uncalibrated;
  // DEEP_SEARCH_ONLY=1: the deep-search and iterative rows without expandHops1 / multiQuery3
  const deep = process.env.DEEP_SEARCH_ONLY ? {} : evaluate(prepared, await deepSystems(prepared, feats, resources, embedQueries, log, calibration));
  // DEEP_JUDGE=<id>: the deep-search reader with the judge's cosine (DEEP_JUDGE_WEIGHT, default JUDGE_READER_WEIGHT)
  const deepJudge = process.env.DEEP_JUDGE;
  const judgeForDeep = deepJudge
    ? { id: deepJudge, vectors: await (await import('./lib/eval-judge')).judgeVectors(prepared, deepJudge, log).then((jv) => ({ get: jv.vectorOf })), ...(process.env.DEEP_JUDGE_WEIGHT ? { weight: Number(process.env.DEEP_JUDGE_WEIGHT) } : {}) }
    : undefined;
  const ds = await deepSearchRows(prepared, feats, resources, log, calibration, judgeForDeep);
  Object.assign(deep, ds.rows);
  // the app row: the shipped hops, re-scored by the calibration's judge when it is built (as the app runs it)
  const { appJudge, judgedSystem, envJudgedSystem } = await import('./lib/eval-judge');
  const aj = await appJudge(prepared, calibration, useJudge, log);
  const app =
    aj.use.applied && aj.vectors
      ? Object.values(evaluate(prepared, [judgedSystem('app', feats, calibration, aj.vectors, aj.use, hops)]))[0]
      : assoc[`assocHops${hops}`];
  const judge = process.env.JUDGE;
  const judged = judge ? Object.values(evaluate(prepared, [await envJudgedSystem(prepared, feats, calibration, judge, log, aj.vectors)]))[0] : undefined;
  return { ablation, assoc, appRanking: { assocHops: hops, ...app }, judge: aj.use, uncalibrated, deep, deepSearch: ds.deepSearch, ...(judged ? { judged } : {}) };
}

export interface LoadedEmbed {
  /** The encoder's id (what --json reports as `encoder`) and dimension. */
  id: string;
  dim: number;
  /** Stored texts (the document prefix, if the model has one). */
  embed: EmbedFn;
  /** Questions (the query prefix, if the model has one). */
  embedQueries: EmbedFn;
  dispose(): void | Promise<void>;
}

/**
 * The encoder-backed embed functions (cached on disk by encoder id + text; a model with a query
 * prefix caches its queries under its own key), plus the disposer. The model itself is loaded on
 * the first text the cache does not have, so a fully cached run never loads it.
 */
export async function loadEmbed(encoderId: string = DEFAULT_ENCODER_ID): Promise<LoadedEmbed> {
  const [{ loadNodeEmbedder, resolveEncoder }, { embedCached }] = await Promise.all([import('./lib/node-embedder'), import('./lib/embedding-cache')]);
  const meta = resolveEncoder(encoderId);
  let loading: ReturnType<typeof loadNodeEmbedder> | undefined;
  const model = () => (loading ??= loadNodeEmbedder(meta.id));
  const lazy = (role: 'document' | 'query') => ({
    info: () => ({ id: role === 'query' && meta.queryPrefix ? `${meta.id}#query` : meta.id, name: meta.name, dim: meta.dim, backend: 'cpu' as const, maxInputChars: 0 }),
    embed: async (texts: string[]) => {
      const m = await model();
      return role === 'query' ? m.queries.embed(texts) : m.embed(texts);
    },
  });
  const progress = (done: number, total: number) => process.stderr.write(`embedding ${done}/${total} uncached texts (${meta.id})\n`);
  const docs = lazy('document');
  const queries = lazy('query');
  return {
    id: meta.id,
    dim: meta.dim,
    embed: (texts) => embedCached(docs, texts, { onProgress: progress }),
    embedQueries: (texts) => embedCached(queries, texts, { onProgress: progress }),
    dispose: async () => {
      if (loading) await (await loading).dispose();
    },
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const data = await loadLocomo(args.data);
  const skipped = data.reduce((a, c) => a + c.skippedQueries, 0);
  const enc = args.dense ? await loadEmbed(args.encoder) : null;
  try {
    const prepared = await prepare(data, enc ? enc.embed : null, enc ? { dim: enc.dim, embedQueries: enc.embedQueries } : {});
    const calibration = calibrationFor(enc?.id);
    const reports = evaluate(prepared, defaultSystems(args.dense, calibration));
    const pipeline = enc && args.spaces ? await evaluatePipeline(prepared, enc.embed, args.assocHops, calibration, enc.embedQueries, args.deepOnly, enc.id, args.judge) : null;
    if (args.json) {
      console.log(JSON.stringify({ encoder: enc?.id ?? null, calibration, ...reports, ...pipeline }));
    } else {
      const n = prepared.reduce((a, p) => a + p.queries.length, 0);
      console.log(`LoCoMo retrieval, ${data.length} conversations, ${n} queries (categories 1-4; ${skipped} skipped: no known evidence id); encoder ${enc?.id ?? 'none'}`);
      const { assocHops, ...app } = pipeline?.appRanking ?? { assocHops: 0 };
      const shown = pipeline
        ? { ...reports, [`app (assocHops ${assocHops}${pipeline.judge.applied ? ', judge' : ''})`]: app as SystemReport, ...(pipeline.uncalibrated ? { uncalibrated: pipeline.uncalibrated } : {}) }
        : reports;
      console.log(formatTable(shown));
      console.log(`hybrid = DEFAULT_HYBRID_CONFIG ${JSON.stringify(DEFAULT_HYBRID_CONFIG)} + calibration ${JSON.stringify(calibration)}`);
      if (pipeline) {
        const j = pipeline.judge;
        console.log(j.applied ? `app row judged by ${j.id} (top ${j.depth}, weight ${j.weight}; model sha256 ${j.modelSha256.slice(0, 12)}…)` : `app row without a judge: ${j.reason}`);
        const cats = Object.entries(pipeline.appRanking.perCategory);
        console.log(`app per category (R@10 / nDCG@10 / MRR@10 / top-1): ${cats.map(([c, t]) => `c${c} ${t.r10} / ${t.ndcg10} / ${t.mrr10} / ${t.top1}`).join('; ')}`);
      }
      if (pipeline) {
        console.log('\nablation (the pipeline, assocHops 0; one content space at a time over the hybrid)');
        console.log(formatTable(pipeline.ablation));
        console.log('\nassociative hops over the shipped ranking');
        console.log(formatTable(pipeline.assoc));
        console.log(`ranking = DEFAULT_RANKING ${JSON.stringify(DEFAULT_RANKING)} + calibration ${JSON.stringify(calibration.ranking)}`);
        console.log('\ndeep recall over the shipped ranking (issue 11; compare with assocHops0 above)');
        console.log(formatTable(pipeline.deep));
        console.log(`deepSearch ${JSON.stringify(pipeline.deepSearch)}`);
        if (pipeline.judged) console.log(`\njudged (JUDGE=${process.env.JUDGE})\n${formatTable({ judged: pipeline.judged })}`);
      }
    }
  } finally {
    await enc?.dispose();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  });
}
