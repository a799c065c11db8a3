// LoCoMo rows for deep search escalation (seed 003) and iterative search (seed 001), issue 11:
//   deepSearch  the shipped ranking, then deepSearch in active mode with the offline reader
//               (trigger 0.3, pool 50: temporal, entity and Louvain-community neighbours)
//   iterative   searchIterative over the shipped ranking: the gate, reformulations by the offline
//               transformer (its words with the original query's vector: the encoder lives in the
//               embed worker), one widening hop, graded by the offline reader
// Both are async (the Reader interface), so they are scored here rather than by evaluate().
// `deepSearch` in --json: r10, ndcg10 (percent, as the rows), recoveredShare (of the evidence turns
// missing from the primary top 10, the share the final top 10 contains), invocationRate (share of
// queries escalated), meanMs / p95Ms (per escalated query: expansion + reading + merge);
// recoveredShareEscalated (the share over the escalated queries' missing turns only),
// recoveredShareThreshold1 (every query escalated), threshold and calibratedTrigger (the encoder's
// calibrated confidence, src/core/pipeline/calibration.ts, ran the trigger). DEEP_SEARCH='{...}'
// overrides the deepSearch options (e.g. {"threshold":0.5}).
import type { LexicalResources } from '../../src/core/features';
import { deepSearch, OfflineReader, resolveDeepSearch, searchIterative, type PoolDoc, type ReaderCandidate } from '../../src/core/deep';
import { calibrationFor, DEFAULT_PIPELINE_OPTIONS, DEFAULT_RANKING, runPipeline, type EncoderCalibration, type PipelineContext } from '../../src/core/pipeline';
import { OfflineTransformer } from '../../src/core/query';
import type { RecallOptionsInput } from '../../src/core/recall';
import type { MemoryId } from '../../src/core/types';
import { memoryCommunities } from '../../workers/communities';
import type { EvalQuery, PreparedConversation, SystemReport } from '../eval-locomo';
import { entityGraphOf } from './eval-deep';
import type { FeaturizedConversation } from './eval-systems';
import { mean, median, mrrAt, ndcgAt, percentile, recallAt, top1At } from './metrics';

const K = 10;
const timers = { setTimeout: (f: () => void, ms: number) => setTimeout(f, ms), clearTimeout: (h: never) => clearTimeout(h) };

export interface DeepSearchFigures {
  r10: number;
  ndcg10: number;
  mrr10: number;
  recoveredShare: number;
  /** The same share over the escalated queries only (what an escalation recovers when it runs). */
  recoveredShareEscalated: number;
  /** The share with every query escalated (the deepSearch@threshold1 row). */
  recoveredShareThreshold1: number;
  /** The trigger threshold of the deepSearch row, and whether the encoder's calibrated confidence ran it. */
  threshold: number;
  calibratedTrigger: boolean;
  invocationRate: number;
  meanMs: number;
  p95Ms: number;
  escalated: number;
  queries: number;
}

type Ranker = (pc: PreparedConversation, q: EvalQuery) => Promise<MemoryId[]>;

async function score(data: PreparedConversation[], rank: Ranker): Promise<SystemReport> {
  const all = { r: [] as number[], n: [] as number[], m: [] as number[], t: [] as number[] };
  const byCat = new Map<number, typeof all>();
  const times: number[] = [];
  for (const pc of data)
    for (const q of pc.queries) {
      const t0 = performance.now();
      const ranked = await rank(pc, q);
      times.push(performance.now() - t0);
      let c = byCat.get(q.category);
      if (!c) byCat.set(q.category, (c = { r: [], n: [], m: [], t: [] }));
      for (const acc of [all, c]) {
        acc.r.push(recallAt(ranked, q.evidence, K));
        acc.n.push(ndcgAt(ranked, q.evidence, K));
        acc.m.push(mrrAt(ranked, q.evidence, K));
        acc.t.push(top1At(ranked, q.evidence));
      }
    }
  const pct = (xs: number[]) => Math.round(mean(xs) * 1000) / 10;
  const triple = (a: typeof all) => ({ r10: pct(a.r), ndcg10: pct(a.n), mrr10: pct(a.m), top1: pct(a.t), queries: a.r.length });
  const perCategory: SystemReport['perCategory'] = {};
  for (const cat of [...byCat.keys()].sort((a, b) => a - b)) perCategory[String(cat)] = triple(byCat.get(cat)!);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return { ...triple(all), perCategory, medianMs: round(median(times)), p95Ms: round(percentile(times, 95)) };
}

export async function deepSearchRows(
  prepared: PreparedConversation[],
  feats: Map<PreparedConversation, FeaturizedConversation>,
  resources: LexicalResources,
  log: (m: string) => void = () => {},
  calibration: EncoderCalibration = calibrationFor(undefined),
): Promise<{ rows: Record<string, SystemReport>; deepSearch: DeepSearchFigures }> {
  const opts: RecallOptionsInput = { ...DEFAULT_PIPELINE_OPTIONS, topK: K };
  const reader = new OfflineReader();
  const transformer = new OfflineTransformer(resources);
  const options = resolveDeepSearch({ mode: 'active', ...(process.env.DEEP_SEARCH ? JSON.parse(process.env.DEEP_SEARCH) : {}) });
  const per = new Map(
    prepared.map((pc) => {
      const f = feats.get(pc)!;
      const graph = entityGraphOf(pc, f);
      const t0 = performance.now();
      const communities = memoryCommunities(f.matrix, graph);
      log(`deepSearch: ${pc.conv.sampleId} ${new Set(communities.values()).size} communities in ${Math.round(performance.now() - t0)} ms`);
      const docs: PoolDoc[] = pc.conv.memories.map((m) => ({ id: m.id, sessionId: `S${m.session}`, createdAt: m.time, status: 'active', deletedAt: null, validFrom: m.time, validTo: null }));
      const ctx: PipelineContext = { hybrid: pc.index, spaces: f.spaces, matrix: f.matrix, sessionOf: f.sessionOf, neighboursOf: f.neighboursOf, tokensOf: f.tokensOf, now: 0, ranking: { ...DEFAULT_RANKING, ...calibration.ranking }, hybridConfig: calibration.hybrid, entities: graph };
      const text = new Map(pc.conv.memories.map((m) => [m.id, m]));
      const candidateOf = (id: MemoryId): ReaderCandidate | undefined => {
        const m = text.get(id);
        return m && { id, text: m.text, createdAt: m.time, features: f.spaces.features(id) };
      };
      return [pc, { f, graph, communities, docs, ctx, candidateOf }] as const;
    }),
  );
  const always = resolveDeepSearch({ ...options, threshold: 1 });
  const confidences: number[] = [];
  let allMissing = 0;
  let allRecovered = 0;
  // the same with every query escalated (threshold 1): what the pool, the reader and the merge do
  const alwaysRow = await score(prepared, async (pc, q) => {
    const c = per.get(pc)!;
    const features = c.f.queryFeatures.get(q)!;
    const primary = runPipeline(c.ctx, { text: q.question, features, tokens: c.f.queryTokens?.get(q) }, opts).map((r) => ({ id: r.id, score: r.score }));
    const out = await deepSearch({
      query: { text: q.question, features },
      primary,
      topK: K,
      options: always,
      source: { docs: c.docs, entities: c.graph, communityOf: (id) => c.communities.get(id) },
      scope: {},
      candidateOf: c.candidateOf,
      reader,
      timers,
      confidenceModel: calibration.confidence,
    });
    confidences.push(out.report.confidence.value);
    const top = new Set(primary.slice(0, K).map((h) => h.id));
    const final = new Set(out.results.slice(0, K).map((h) => h.id));
    for (const e of q.evidence)
      if (!top.has(e)) {
        allMissing++;
        if (final.has(e)) allRecovered++;
      }
    return out.results.map((h) => h.id);
  });
  const qs = [...confidences].sort((a, b) => a - b);
  log(`deepSearch: confidence quantiles p10 ${qs[Math.floor(qs.length * 0.1)]?.toFixed(3)} p25 ${qs[Math.floor(qs.length * 0.25)]?.toFixed(3)} p50 ${qs[Math.floor(qs.length * 0.5)]?.toFixed(3)} p75 ${qs[Math.floor(qs.length * 0.75)]?.toFixed(3)}; at threshold 1 recoveredShare ${(allMissing ? allRecovered / allMissing : 0).toFixed(3)}`);
  let escalated = 0;
  let missing = 0;
  let recovered = 0;
  let missingEsc = 0;
  const escalatedMs: number[] = [];
  const deepRow = await score(prepared, async (pc, q) => {
    const c = per.get(pc)!;
    const features = c.f.queryFeatures.get(q)!;
    const primary = runPipeline(c.ctx, { text: q.question, features, tokens: c.f.queryTokens?.get(q) }, opts).map((r) => ({ id: r.id, score: r.score }));
    const t0 = performance.now();
    const out = await deepSearch({
      query: { text: q.question, features },
      primary,
      topK: K,
      options,
      source: { docs: c.docs, entities: c.graph, communityOf: (id) => c.communities.get(id) },
      scope: {},
      candidateOf: c.candidateOf,
      reader,
      timers,
      confidenceModel: calibration.confidence,
    });
    const ids = out.results.map((h) => h.id);
    const wasEscalated = out.report.status !== 'confident';
    if (wasEscalated) {
      escalated++;
      escalatedMs.push(performance.now() - t0);
    }
    const top = new Set(primary.slice(0, K).map((h) => h.id));
    const final = new Set(ids.slice(0, K));
    for (const e of q.evidence)
      if (!top.has(e)) {
        missing++;
        if (wasEscalated) missingEsc++;
        if (final.has(e)) recovered++;
      }
    return ids;
  });
  const iterRow = await score(prepared, async (pc, q) => {
    const c = per.get(pc)!;
    const features = c.f.queryFeatures.get(q)!;
    const out = await searchIterative(q.question, {
      retrieve: (text, pass) => runPipeline(c.ctx, { text, features, tokens: text === q.question ? c.f.queryTokens?.get(q) : undefined }, { ...opts, expandHops: pass.expandHops }).map((r) => ({ id: r.id, score: r.score })),
      candidateOf: c.candidateOf,
      reader,
      transformer,
      queryFeatures: features,
    }, { topK: K, confidenceModel: calibration.confidence });
    return out.results.map((h) => h.id);
  });
  const n = prepared.reduce((a, p) => a + p.queries.length, 0);
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    rows: { deepSearch: deepRow, 'deepSearch@threshold1': alwaysRow, iterative: iterRow },
    deepSearch: {
      r10: deepRow.r10,
      ndcg10: deepRow.ndcg10,
      mrr10: deepRow.mrr10,
      recoveredShare: r3(missing ? recovered / missing : 0),
      recoveredShareEscalated: r3(missingEsc ? recovered / missingEsc : 0),
      recoveredShareThreshold1: r3(allMissing ? allRecovered / allMissing : 0),
      threshold: options.threshold,
      calibratedTrigger: calibration.confidence !== undefined,
      invocationRate: r3(n ? escalated / n : 0),
      meanMs: r3(escalatedMs.length ? mean(escalatedMs) : 0),
      p95Ms: r3(escalatedMs.length ? percentile(escalatedMs, 95) : 0),
      escalated,
      queries: n,
    },
  };
}
