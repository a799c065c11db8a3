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
// As the app runs it (docs/research/quality.md "Deep search, third pass"): the trigger reads the
// FIRST pass (no token matrices: what the engine has when it decides), deep search merges into that
// pass, and a merged answer is not refined; an answer deep search leaves alone is the refined one
// (the appRanking row). "Missing" = evidence outside the refined top 10 (the answer shown without
// deep search). The reader reads no token matrices (the app's first pass has none);
// DEEP_READER_TOKENS=1 gives it the query's and the pool's (its `late` part, what it would add if
// the app supplied them). DEEP_LEARN=1 adds `learning` (scripts/lib/eval-deep-learn.ts) at the
// row's threshold and with every query escalated.
import type { LexicalResources } from '../../src/core/features';
import { deepSearch, JudgeReader, judgeNearest, JUDGE_DEEP_SETTINGS, JUDGE_READER_WEIGHT, OfflineReader, resolveDeepSearch, searchIterative, type PoolDoc, type Reader, type ReaderCandidate } from '../../src/core/deep';
import { calibrationFor, DEFAULT_PIPELINE_OPTIONS, judgeRerank, runPipeline, type EncoderCalibration, type PipelineContext } from '../../src/core/pipeline';
import { OfflineTransformer } from '../../src/core/query';
import type { RecallOptionsInput } from '../../src/core/recall';
import type { MemoryId } from '../../src/core/types';
import { memoryCommunities } from '../../workers/communities';
import type { EvalQuery, PreparedConversation, SystemReport } from '../eval-locomo';
import { entityGraphOf } from './eval-deep';
import { simulateLearning, type LearningFigures } from './eval-deep-learn';
import { deepGrid, type GridRow, type JudgeTextVectors } from './eval-deep-grid';
import { pipelineContext, type FeaturizedConversation } from './eval-systems';
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
  /** Which pass the trigger reads ('first': the app's), and whether the reader read token matrices. */
  triggerPass: 'first';
  readerTokens: boolean;
  /** DEEP_JUDGE=<id>: the reader was the judge reader (the judge's cosine as one more part, at this weight). */
  judgeReader?: { judge: string; weight: number };
  /** DEEP_GRID=1: readers x thresholds x pools x merge weights, by half (scripts/lib/eval-deep-grid.ts). */
  grid?: GridRow[];
  /** DEEP_LEARN=1: the learning loop at the row's threshold, and with every query escalated (rates read at the row's threshold). */
  learning?: { atThreshold: LearningFigures; everyQuery: LearningFigures };
}

/** One conversation as deep search reads it (shared with eval-deep-learn.ts). */
export interface DeepConv {
  f: FeaturizedConversation;
  graph: ReturnType<typeof entityGraphOf>;
  communities: ReadonlyMap<MemoryId, number>;
  docs: PoolDoc[];
  ctx: PipelineContext;
  candidateOf: (id: MemoryId) => ReaderCandidate | undefined;
  reader: OfflineReader;
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
  judge?: { id: string; vectors: JudgeTextVectors; weight?: number },
): Promise<{ rows: Record<string, SystemReport>; deepSearch: DeepSearchFigures }> {
  const opts: RecallOptionsInput = { ...DEFAULT_PIPELINE_OPTIONS, topK: K };
  const reader = new OfflineReader();
  // DEEP_JUDGE: the judge reader, its vectors looked up by text (the eval's judge cache)
  const readerFor = (pc: PreparedConversation, q: EvalQuery): Reader => {
    if (!judge) return reader;
    const text = new Map(pc.conv.memories.map((m) => [m.id, m.text]));
    return new JudgeReader({ query: judge.vectors.get(q.question), vectorOf: (id) => judge.vectors.get(text.get(id) ?? ''), weight: judge.weight });
  };
  const readerTokens = process.env.DEEP_READER_TOKENS === '1';
  const transformer = new OfflineTransformer(resources);
  // DEEP_JUDGE: as JUDGE_DEEP_SETTINGS says (every query, reserved slots, merged into the answer)
  const judgeSettings = judge ? { threshold: JUDGE_DEEP_SETTINGS.threshold, keepTop: JUDGE_DEEP_SETTINGS.keepTop, reserveSlots: JUDGE_DEEP_SETTINGS.reserveSlots, weight: JUDGE_DEEP_SETTINGS.mergeWeight } : {};
  const options = resolveDeepSearch({ mode: 'active', ...judgeSettings, ...(process.env.DEEP_SEARCH ? JSON.parse(process.env.DEEP_SEARCH) : {}) });
  const per = new Map(
    prepared.map((pc) => {
      const f = feats.get(pc)!;
      const graph = entityGraphOf(pc, f);
      const t0 = performance.now();
      const communities = memoryCommunities(f.matrix, graph);
      log(`deepSearch: ${pc.conv.sampleId} ${new Set(communities.values()).size} communities in ${Math.round(performance.now() - t0)} ms`);
      const docs: PoolDoc[] = pc.conv.memories.map((m) => ({ id: m.id, sessionId: `S${m.session}`, createdAt: m.time, status: 'active', deletedAt: null, validFrom: m.time, validTo: null }));
      const ctx = pipelineContext(pc, f, calibration.ranking, calibration.hybrid, { entities: graph });
      const text = new Map(pc.conv.memories.map((m) => [m.id, m]));
      const candidateOf = (id: MemoryId): ReaderCandidate | undefined => {
        const m = text.get(id);
        const tokens = readerTokens ? f.tokensOf?.(id) : undefined;
        return m && { id, text: m.text, createdAt: m.time, features: f.spaces.features(id), ...(tokens ? { tokens } : {}) };
      };
      const conv: DeepConv = { f, graph, communities, docs, ctx, candidateOf, reader };
      return [pc, conv] as const;
    }),
  );
  // the app's flow: the trigger over the first pass; merged -> that answer, else the refined one.
  // DEEP_JUDGE (JUDGE_DEEP_SETTINGS, mergeInto 'answer'): the merge into the answer without deep
  // search (the refined top 30 re-scored by the calibration's judge, as the app row; the refined answer
  // when the calibration has no judge), which is then also what "missing" is read against; the pool
  // adds the judge's 20 nearest. Its threshold is 1, so the trigger reading the answer rather than the
  // first pass changes nothing.
  const recallAsApp = async (pc: PreparedConversation, q: EvalQuery, o: typeof options) => {
    const c = per.get(pc)!;
    const features = c.f.queryFeatures.get(q)!;
    const tokens = c.f.queryTokens?.get(q);
    let first = runPipeline(c.ctx, { text: q.question, features }, opts).map((r) => ({ id: r.id, score: r.score }));
    let refined = runPipeline(c.ctx, { text: q.question, features, tokens }, opts).map((r) => r.id);
    let nearest: string[] | undefined;
    if (judge) {
      const text = new Map(pc.conv.memories.map((m) => [m.id, m.text]));
      const jv = { query: judge.vectors.get(q.question), vectorOf: (id: MemoryId) => judge.vectors.get(text.get(id) ?? '') };
      const deep = runPipeline(c.ctx, { text: q.question, features, tokens }, { ...opts, topK: 30 });
      const answer = (calibration.judge && jv.query ? judgeRerank(deep, jv.query, jv.vectorOf, calibration.judge) : deep).slice(0, K).map((r) => ({ id: r.id, score: r.score }));
      first = answer;
      refined = answer.map((r) => r.id);
      nearest = judgeNearest(jv, pc.conv.memories.map((m) => m.id), JUDGE_DEEP_SETTINGS.nearest);
    }
    const t0 = performance.now();
    const out = await deepSearch({
      query: { text: q.question, features, ...(readerTokens && tokens ? { tokens } : {}) },
      primary: first,
      topK: K,
      options: o,
      source: { docs: c.docs, entities: c.graph, communityOf: (id) => c.communities.get(id), ...(nearest ? { nearest } : {}) },
      scope: {},
      candidateOf: c.candidateOf,
      reader: readerFor(pc, q),
      timers,
      confidenceModel: calibration.confidence,
    });
    const ms = performance.now() - t0;
    const ids = out.report.status === 'merged' ? out.results.map((h) => h.id) : refined;
    return { ids, refined, report: out.report, ms };
  };
  const always = resolveDeepSearch({ ...options, threshold: 1 });
  const confidences: number[] = [];
  let allMissing = 0;
  let allRecovered = 0;
  // the same with every query escalated (threshold 1): what the pool, the reader and the merge do
  const alwaysRow = await score(prepared, async (pc, q) => {
    const { ids, refined, report } = await recallAsApp(pc, q, always);
    confidences.push(report.confidence.value);
    const top = new Set(refined.slice(0, K));
    const final = new Set(ids.slice(0, K));
    for (const e of q.evidence)
      if (!top.has(e)) {
        allMissing++;
        if (final.has(e)) allRecovered++;
      }
    return ids;
  });
  const qs = [...confidences].sort((a, b) => a - b);
  log(`deepSearch: confidence quantiles p10 ${qs[Math.floor(qs.length * 0.1)]?.toFixed(3)} p25 ${qs[Math.floor(qs.length * 0.25)]?.toFixed(3)} p50 ${qs[Math.floor(qs.length * 0.5)]?.toFixed(3)} p75 ${qs[Math.floor(qs.length * 0.75)]?.toFixed(3)}; at threshold 1 recoveredShare ${(allMissing ? allRecovered / allMissing : 0).toFixed(3)}`);
  let escalated = 0;
  let missing = 0;
  let recovered = 0;
  let missingEsc = 0;
  const escalatedMs: number[] = [];
  const deepRow = await score(prepared, async (pc, q) => {
    const { ids, refined, report, ms } = await recallAsApp(pc, q, options);
    const wasEscalated = report.status !== 'confident';
    if (wasEscalated) {
      escalated++;
      escalatedMs.push(ms);
    }
    const top = new Set(refined.slice(0, K));
    const final = new Set(ids.slice(0, K));
    for (const e of q.evidence)
      if (!top.has(e)) {
        missing++;
        if (wasEscalated) missingEsc++;
        if (final.has(e)) recovered++;
      }
    return ids;
  });
  // DEEP_GRID=1 leaves the iterative row out (its time is the grid's)
  const iterRow = process.env.DEEP_GRID === '1' ? undefined : await score(prepared, async (pc, q) => {
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
  const grid = process.env.DEEP_GRID === '1' ? await deepGrid(prepared, per, calibration, opts, judge?.vectors, log) : undefined;
  const learning = process.env.DEEP_LEARN === '1' ? { atThreshold: await simulateLearning(prepared, per, calibration, options), everyQuery: await simulateLearning(prepared, per, calibration, always, options.threshold) } : undefined;
  const n = prepared.reduce((a, p) => a + p.queries.length, 0);
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    rows: { deepSearch: deepRow, 'deepSearch@threshold1': alwaysRow, ...(iterRow ? { iterative: iterRow } : {}) },
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
      triggerPass: 'first',
      readerTokens,
      ...(judge ? { judgeReader: { judge: judge.id, weight: judge.weight ?? JUDGE_READER_WEIGHT } } : {}),
      ...(grid ? { grid } : {}),
      ...(learning ? { learning } : {}),
    },
  };
}
