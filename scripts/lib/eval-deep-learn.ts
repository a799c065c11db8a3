// The learning loop of deep search (seed 003 F: "the invocation rate falls as the primary ranking
// learns"), simulated on a dev file: per conversation (one person's store), in the file's order,
// each query is recalled as the app does (the first pass, the trigger over it, deep search in
// active mode); the person opens every deep-search hit of a merged answer that is evidence (the eval
// knows which are), and each open trains the scorer once, as the services do (src/services/
// deep-recall.ts: rememberPairs + noteOpened -> learnFromPair: positive = the deep hit as the engine
// annotates it, negative = the lowest primary result shown). The learned weights apply to the
// conversation's later queries (the lexical weight as the recall option, the space weights in the
// ranking). Reported: the pairs learned, the invocation rate and the refined ranking's R@10 / MRR@10
// with the shipped weights (before) and with each conversation's final weights (after), and the
// largest weight moves. The rates are read at `measureThreshold` (learning with every query
// escalated, threshold 1, is measured at the shipped 0.3: how often it would fire). DEEP_LEARN=1 turns it on (scripts/lib/eval-deep-search.ts).
import { deepSearch, initialWeights, learnFromPair, resolveDeepSearch, type DeepSearchOptions, type MergedHit, type PairSide, type ScorerWeights, type TrainingPair } from '../../src/core/deep';
import { annotate, DEFAULT_PIPELINE_OPTIONS, DEFAULT_RANKING, runPipeline, type EncoderCalibration, type PipelineContext, type PipelineResult } from '../../src/core/pipeline';
import type { MemoryId, SpaceId } from '../../src/core/types';
import type { PreparedConversation } from '../eval-locomo';
import type { DeepConv } from './eval-deep-search';
import { mean, mrrAt, recallAt } from './metrics';

const K = 10;
const timers = { setTimeout: (f: () => void, ms: number) => setTimeout(f, ms), clearTimeout: (h: never) => clearTimeout(h) };

export interface LearningFigures {
  /** The threshold deep search escalated at while learning, and the one the invocation rates read. */
  threshold: number;
  measuredAt: number;
  pairs: number;
  invocationBefore: number;
  invocationOnline: number;
  invocationAfter: number;
  r10Before: number;
  r10After: number;
  mrr10Before: number;
  mrr10After: number;
  /** The largest |learned - shipped| over the conversations: lexical weight, any space weight. */
  maxLexicalMove: number;
  maxSpaceMove: number;
}

const side = (r: Pick<PipelineResult, 'why' | 'spaces'>): PairSide => ({ lexical: r.why?.lexical ?? 0, vector: r.why?.semantic ?? 0, sims: r.spaces?.sims ?? {} });

/**
 * The pairs an answer makes when the person opens its deep hits that are `evidence` (the services'
 * rule): a merged result outside the primary ids, read by the reader, found by a pool way; the
 * negative is the lowest primary result shown. `sideOf` gives a result's features as the engine
 * annotated it (a deep hit: zero lexical / vector, its space similarities).
 */
export function openedPairs(
  merged: readonly MergedHit[],
  primaryIds: readonly MemoryId[],
  waysOf: (id: MemoryId) => readonly TrainingPair['ways'][number][],
  sideOf: (id: MemoryId) => PairSide,
  evidence: readonly MemoryId[],
): TrainingPair[] {
  const primary = new Set(primaryIds);
  const negative = [...merged].reverse().find((h) => primary.has(h.id));
  if (!negative) return [];
  const ev = new Set(evidence);
  return merged
    .filter((h) => !primary.has(h.id) && h.readerScore !== undefined && waysOf(h.id).length > 0 && ev.has(h.id))
    .map((h) => ({ positive: sideOf(h.id), negative: sideOf(negative.id), ways: waysOf(h.id) }));
}

/** The context and options of a recall with learned weights (none learned: the shipped ones, as the services). */
function withWeights(ctx: PipelineContext, w: ScorerWeights | null) {
  if (!w || w.pairs === 0) return { ctx, opts: { ...DEFAULT_PIPELINE_OPTIONS, topK: K } };
  const ranking = { ...DEFAULT_RANKING, ...ctx.ranking, spaceWeights: { ...ctx.ranking?.spaceWeights, ...w.spaceWeights } };
  return { ctx: { ...ctx, ranking }, opts: { ...DEFAULT_PIPELINE_OPTIONS, topK: K, lexicalWeight: w.lexicalWeight } };
}

export async function simulateLearning(
  prepared: PreparedConversation[],
  per: Map<PreparedConversation, DeepConv>,
  calibration: EncoderCalibration,
  options: DeepSearchOptions,
  /** The invocation rates are read at this threshold (default the learning run's own). */
  measureThreshold: number = options.threshold,
): Promise<LearningFigures> {
  const fires = (out: { report: { confidence: { value: number } } }) => (out.report.confidence.value < measureThreshold ? 1 : 0);
  const active = resolveDeepSearch({ ...options, mode: 'active', rateLimit: 1000 });
  const base: Partial<Record<SpaceId, number>> = { ...DEFAULT_RANKING.spaceWeights, ...calibration.ranking.spaceWeights };
  const before = { inv: [] as number[], r: [] as number[], m: [] as number[] };
  const after = { inv: [] as number[], r: [] as number[], m: [] as number[] };
  const online: number[] = [];
  let pairs = 0;
  let maxLexicalMove = 0;
  let maxSpaceMove = 0;
  for (const pc of prepared) {
    const c = per.get(pc)!;
    let w: ScorerWeights | null = null;
    const recall = async (q: PreparedConversation['queries'][number], weights: ScorerWeights | null) => {
      const { ctx, opts } = withWeights(c.ctx, weights);
      const features = c.f.queryFeatures.get(q)!;
      const first = runPipeline(ctx, { text: q.question, features }, opts);
      const out = await deepSearch({
        query: { text: q.question, features },
        primary: first.map((r) => ({ id: r.id, score: r.score })),
        topK: K,
        options: active,
        source: { docs: c.docs, entities: c.graph, communityOf: (id) => c.communities.get(id) },
        scope: {},
        candidateOf: c.candidateOf,
        reader: c.reader,
        timers,
        confidenceModel: calibration.confidence,
      });
      const refined = runPipeline(ctx, { text: q.question, features, tokens: c.f.queryTokens?.get(q) }, opts).map((r) => r.id);
      return { ctx, first, out, refined, features };
    };
    for (const q of pc.queries) {
      const { out, refined } = await recall(q, null);
      before.inv.push(fires(out));
      before.r.push(recallAt(refined, q.evidence, K));
      before.m.push(mrrAt(refined, q.evidence, K));
    }
    for (const q of pc.queries) {
      const { ctx, first, out, features } = await recall(q, w);
      online.push(fires(out));
      if (out.report.status !== 'merged') continue;
      const firstOf = new Map(first.map((r) => [r.id, r]));
      const viaOf = new Map(out.report.pool.map((p) => [p.id, p.via.map((v) => v.strategy)]));
      const sideOf = (id: MemoryId): PairSide => {
        const r = firstOf.get(id);
        if (r) return side(r);
        const fresh = annotate(ctx, { text: q.question, features }, [{ id, score: 0, mode: 'standard', why: { lexical: 0, semantic: 0, bm25: 0, cosine: 0, matchedTerms: [] } }], []);
        return side(fresh[0]);
      };
      for (const pair of openedPairs(out.results, out.report.primaryIds, (id) => viaOf.get(id) ?? [], sideOf, q.evidence)) {
        w = learnFromPair(w ?? initialWeights(0.5, base), pair, base);
        pairs++;
      }
    }
    if (w) {
      maxLexicalMove = Math.max(maxLexicalMove, Math.abs(w.lexicalWeight - 0.5));
      for (const s of Object.keys(w.spaceWeights) as SpaceId[]) maxSpaceMove = Math.max(maxSpaceMove, Math.abs((w.spaceWeights[s] ?? 0) - (base[s] ?? 0)));
    }
    for (const q of pc.queries) {
      const { out, refined } = await recall(q, w);
      after.inv.push(fires(out));
      after.r.push(recallAt(refined, q.evidence, K));
      after.m.push(mrrAt(refined, q.evidence, K));
    }
  }
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  const pct = (xs: number[]) => Math.round(mean(xs) * 1000) / 10;
  return {
    threshold: options.threshold,
    measuredAt: measureThreshold,
    pairs,
    invocationBefore: r3(mean(before.inv)),
    invocationOnline: r3(mean(online)),
    invocationAfter: r3(mean(after.inv)),
    r10Before: pct(before.r),
    r10After: pct(after.r),
    mrr10Before: pct(before.m),
    mrr10After: pct(after.m),
    maxLexicalMove: r3(maxLexicalMove),
    maxSpaceMove: r3(maxSpaceMove),
  };
}
