// The one ranking pipeline, shared by the app's engine and the LoCoMo eval:
//
//   candidates: hybrid (BM25 + E1 fused, depth `ranking.depth`)  ∪  SpaceIndex (E5..E13)
//   -> per-space similarities of every candidate (the ranking spaces only)
//   -> blend: hybrid + alpha x mean_s(max(0, z_s)) + beta x seed margin relevance
//   -> recall(): status gates, profile weighting, feedback, floors, lateral dual heap
//   -> associative hops (assocHops; 0 = this stage does not run) with a floor on the merge
//   -> every result annotated with its sims in all thirteen spaces and the seed's relevance.
//
// Pure and deterministic (ties break by id). See README.md for the choices and the figures.

import { AppError } from '../errors';
import type { HybridIndex } from '../hybrid';
import {
  DEFAULT_SIMILARITY_CONFIG,
  NON_TEMPORAL_SPACES,
  SPACES,
  detectFeatureDivergence,
  isHighlyRelevant,
  relevanceScore,
  selectRecentWindow,
  spaceSimilarities,
  type DivergenceAlert,
  type SimilarityConfig,
  type SpaceFeatures,
  type SpaceSims,
} from '../spaces';
import {
  associate,
  buildNeighbourMatrix,
  compareRanked,
  recallDetailed,
  resolveRecallOptions,
  type FeedbackState,
  type LateralEvaluator,
  type NeighbourMatrix,
  type RecallDoc,
  type RecallIndexLike,
  type RecallOptions,
  type RecallOptionsInput,
  type RecallResult,
} from '../recall';
import type { MatchExplanation, MemoryId, ScoredHit, SpaceId } from '../types';
import { SpaceIndex, unitTokens } from './space-index';

/** How the multi-space blend ranks (plain data; DEFAULT_RANKING is the shipped one). */
export interface RankingConfig {
  /** Content spaces besides E1 that find candidates and score them ([] = the hybrid alone). */
  spaces: readonly SpaceId[];
  /**
   * Weight of each space in the blend (absent = the seed's category weight). 0 = the space still
   * finds candidates and explains results, but does not move the ranking (see README: spaces that
   * restate the hybrid's lexical evidence would count it twice).
   */
  spaceWeights: Partial<Record<SpaceId, number>>;
  /** Fused hybrid hits re-ranked (at least the options' candidateK). */
  depth: number;
  /** Per space, the top k the SpaceIndex adds to the candidates. */
  spaceCandidates: number;
  /** Weight of the z-normalised raw-similarity signal (hybrid scores lie in [0, 1]). */
  alpha: number;
  /** Weight of the seed's margin relevance (relevanceScore: mean margin above the thresholds). */
  beta: number;
  /** z-scores are clipped to [0, zCap] so one outlier space cannot swamp the hybrid. */
  zCap: number;
  /** Associative merge: a hop result enters only when its score >= assocFloor x the best standard score. */
  assocFloor: number;
  /** At most this many associative results among the returned ones (the rest are dropped). */
  assocMaxResults: number;
}

export const DEFAULT_RANKING: RankingConfig = {
  spaces: NON_TEMPORAL_SPACES.filter((s) => s !== 'E1'),
  spaceWeights: { E5: 0.5, E6: 0, E7: 1, E8: 0, E9: 0, E10: 0.5, E11: 0.25, E12: 1, E13: 0 },
  depth: 100,
  spaceCandidates: 20,
  alpha: 0.2,
  beta: 0,
  zCap: 3,
  assocFloor: 0,
  assocMaxResults: 100,
};

/** Recall options the pipeline ships with (the app's defaults; callers override per call). */
export const DEFAULT_PIPELINE_OPTIONS: RecallOptionsInput = { assocHops: 0 };

export interface PipelineContext {
  hybrid: HybridIndex;
  spaces: SpaceIndex;
  similarity?: SimilarityConfig;
  matrix?: NeighbourMatrix;
  feedback?: FeedbackState;
  evaluator?: LateralEvaluator;
  now?: number;
  sessionOf?: (id: MemoryId) => string | undefined;
  /** Overrides of DEFAULT_RANKING (ablations, tuning). */
  ranking?: Partial<RankingConfig>;
  /** Similarity warnings (NaN in a stored vector...); default: ignored. */
  warn?: (message: string) => void;
}

export interface PipelineQuery {
  text: string;
  features: SpaceFeatures; // E1 = the query vector
  tags?: string[];
}

export interface PipelineResult extends RecallResult {
  spaces: {
    sims: Partial<Record<SpaceId, number>>;
    relevance: ReturnType<typeof relevanceScore>;
    relevant: boolean;
    highlyRelevant: boolean;
  };
  /** The fused hybrid score before the space blend (0 when only a space found it). */
  hybridScore: number;
}

export function resolveRanking(patch: Partial<RankingConfig> | undefined): RankingConfig {
  const r = { ...DEFAULT_RANKING, ...patch };
  const bad = (name: string, v: unknown, want: string) =>
    new AppError('INVALID_CONFIG', `Ranking "${name}" must be ${want} (got ${String(v)}).`);
  if (!Array.isArray(r.spaces) || r.spaces.some((s) => !(s in SPACES))) throw bad('spaces', r.spaces, 'a list of space ids E1..E13');
  if (r.spaceWeights === null || typeof r.spaceWeights !== 'object') throw bad('spaceWeights', r.spaceWeights, 'an object of space id -> weight');
  for (const [k, w] of Object.entries(r.spaceWeights))
    if (!(k in SPACES) || typeof w !== 'number' || !Number.isFinite(w) || w < 0) throw bad(`spaceWeights.${k}`, w, 'a finite number >= 0 for a space id E1..E13');
  for (const k of ['depth', 'spaceCandidates', 'assocMaxResults'] as const)
    if (!Number.isInteger(r[k]) || r[k] < 0) throw bad(k, r[k], 'a whole number >= 0');
  for (const k of ['alpha', 'beta', 'zCap', 'assocFloor'] as const)
    if (!Number.isFinite(r[k]) || r[k] < 0) throw bad(k, r[k], 'a finite number >= 0');
  return r;
}

function toOptions(o: Partial<RecallOptions> | RecallOptionsInput): RecallOptions {
  const { semanticWeight: _derived, ...rest } = o as Partial<RecallOptions>;
  return resolveRecallOptions(rest as RecallOptionsInput);
}

const noop = () => {};
const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface Row {
  id: MemoryId;
  hybrid: number;
  hit?: ScoredHit;
  sims: SpaceSims;
}

/**
 * The blend over the union of candidates. Per ranking space s: z_s = (sim - mean_s) / sd_s over
 * the candidates holding s (spaces on fewer than 2 candidates or with sd 0 give 0), clipped to
 * [0, zCap]; signal = sum_s w_s z_s / sum_s w_s over the spaces the query has (seed category
 * weights). score = hybrid + alpha x signal + beta x relevanceScore(sims).score.
 */
function blend(rows: Row[], spaces: readonly SpaceId[], r: RankingConfig, config: SimilarityConfig, warn: (m: string) => void): Map<MemoryId, number> {
  const out = new Map<MemoryId, number>();
  const weightOf = (s: SpaceId) => blendWeight(s, r, config);
  const stats = new Map<SpaceId, { mean: number; sd: number }>();
  let weightSum = 0;
  for (const s of spaces) {
    if (config.excluded[s]) continue;
    const xs: number[] = [];
    for (const row of rows) {
      const v = row.sims[s];
      if (v !== undefined && Number.isFinite(v)) xs.push(v);
    }
    if (xs.length < 2) continue;
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) * (b - mean), 0) / xs.length);
    if (!(sd > 1e-12)) continue;
    stats.set(s, { mean, sd });
    weightSum += weightOf(s);
  }
  for (const row of rows) {
    let z = 0;
    if (weightSum > 0) {
      for (const [s, st] of stats) {
        const v = row.sims[s];
        if (v === undefined || !Number.isFinite(v)) continue;
        z += weightOf(s) * Math.min(r.zCap, Math.max(0, (v - st.mean) / st.sd));
      }
      z /= weightSum;
    }
    const margin = r.beta > 0 ? relevanceScore(row.sims, config, warn).score : 0;
    out.set(row.id, row.hybrid + r.alpha * z + r.beta * margin);
  }
  return out;
}

/** A space's weight in the blend: the ranking's override, else the seed's category weight; 0 when excluded. */
function blendWeight(s: SpaceId, r: RankingConfig, config: SimilarityConfig): number {
  if (config.excluded[s]) return 0;
  return r.spaceWeights[s] ?? config.weights[s];
}

const EMPTY_WHY = (cosine: number): MatchExplanation => ({ lexical: 0, semantic: 0, bm25: 0, cosine, matchedTerms: [] });

/** The ranked, annotated results for `q`. */
export function runPipeline(ctx: PipelineContext, q: PipelineQuery, options: Partial<RecallOptions> | RecallOptionsInput = {}): PipelineResult[] {
  const o0 = toOptions({ ...(q.tags && !('queryTags' in options) ? { queryTags: q.tags } : {}), ...options });
  const r = resolveRanking(ctx.ranking);
  const config = ctx.similarity ?? DEFAULT_SIMILARITY_CONFIG;
  const warn = ctx.warn ?? noop;
  const qv = q.features.E1 ?? null;
  const visibleDoc = (id: MemoryId) => ctx.hybrid.doc(id);

  // 1. candidates: the hybrid's fused list (the index's own candidate depth keeps its min-max
  //    floors) and every ranking space's own top k
  const hits = ctx.hybrid.search(
    { text: q.text, vector: qv },
    {
      topK: Math.max(r.depth, o0.candidateK),
      includeArchived: o0.includeArchived,
      includeQuarantined: o0.includeQuarantined,
      config: { lexicalWeight: o0.lexicalWeight, semanticWeight: o0.semanticWeight },
    },
  );
  const rows = new Map<MemoryId, Row>();
  for (const h of hits) rows.set(h.id, { id: h.id, hybrid: h.score, hit: h, sims: {} });
  const scoring = r.spaces.filter((s) => s !== 'E1' && !SPACES[s].temporal);
  if (scoring.length > 0 && r.spaceCandidates > 0) {
    const accept = (id: MemoryId) => {
      const d = visibleDoc(id);
      return d !== undefined && d.deletedAt == null && (d.status === 'active' || (d.status === 'archived' ? o0.includeArchived : o0.includeQuarantined));
    };
    for (const c of ctx.spaces.candidates(q.features, r.spaceCandidates, { spaces: scoring, accept, warn })) {
      if (!rows.has(c.id)) rows.set(c.id, { id: c.id, hybrid: 0, sims: {} });
    }
  }

  // 2. blend (skipped entirely with no ranking space: the hybrid order, untouched)
  const ordered = [...rows.values()].sort((a, b) => byId(a.id, b.id));
  let scored: ScoredHit[];
  if (scoring.length === 0) {
    scored = hits;
  } else {
    // similarities only where they can move the ranking: a weight-0 space is not computed here
    // (all ranking spaces when the margin term needs them)
    const weighted = r.beta > 0 ? scoring : scoring.filter((s) => blendWeight(s, r, config) > 0);
    const qTokens = q.features.E12 && weighted.includes('E12') ? unitTokens(q.features.E12) : undefined;
    for (const row of ordered) row.sims = weighted.length > 0 ? ctx.spaces.similarities(q.features, row.id, weighted, qTokens, warn) : {};
    const blended = blend(ordered, weighted, r, config, warn);
    const qUnit = qv ? unit(qv) : null;
    scored = ordered.map((row) => {
      const score = blended.get(row.id)!;
      if (row.hit) return { ...row.hit, score };
      const v = qUnit ? ctx.hybrid.vectorOf(row.id) : undefined;
      return { id: row.id, score, mode: 'standard' as const, why: EMPTY_WHY(v && qUnit ? dotUnit(qUnit, v) : 0) };
    });
    scored.sort(compareRanked);
  }

  // 3. recall(): profiles, feedback, floors, lateral; associative hops run below (our merge)
  const index: RecallIndexLike = {
    ids: () => ctx.hybrid.ids(),
    vectorOf: (id) => ctx.hybrid.vectorOf(id),
    doc: (id): RecallDoc | undefined => {
      const d = ctx.hybrid.doc(id);
      if (!d) return undefined;
      const sessionId = ctx.sessionOf?.(id);
      return sessionId === undefined ? d : { ...d, sessionId };
    },
    search: () => scored,
  };
  let matrix = ctx.matrix;
  const getMatrix = () => (matrix ??= buildNeighbourMatrix(index.ids(), (id) => index.vectorOf(id), ctx.sessionOf ?? (() => undefined)));
  const needsMatrix = o0.lateralMode && o0.lateralMaxResults > 0;
  const o = { ...o0, assocHops: 0 } as RecallOptions;
  const report = recallDetailed(index, q.text, qv ?? new Float32Array(0), o, {
    hits: scored,
    feedback: ctx.feedback ?? null,
    evaluator: ctx.evaluator ?? null,
    now: ctx.now,
    matrix: needsMatrix ? getMatrix() : matrix,
  });
  let results = report.results;
  const effective = report.options;

  // 4. associative hops (seed 004), merged under a floor and a cap
  if (o0.assocHops > 0) results = mergeAssociative(results, index, getMatrix(), scored, qv, { ...effective, assocHops: o0.assocHops }, r, ctx.feedback);

  // 5. annotate
  const hybridOf = new Map(hits.map((h) => [h.id, h.score]));
  return results.map((res): PipelineResult => {
    const f = ctx.spaces.features(res.id);
    const sims = f ? spaceSimilarities(q.features, f, { warn }) : {};
    const relevance = relevanceScore(sims, config, warn);
    return {
      ...res,
      spaces: { sims, relevance, relevant: relevance.relevantSpaces.length >= 1, highlyRelevant: isHighlyRelevant(sims, config, warn) },
      hybridScore: hybridOf.get(res.id) ?? 0,
    };
  });
}

function mergeAssociative(
  results: RecallResult[],
  index: RecallIndexLike,
  matrix: NeighbourMatrix,
  scored: readonly ScoredHit[],
  qv: Float32Array | null,
  o: RecallOptions,
  r: RankingConfig,
  feedback: FeedbackState | undefined,
): RecallResult[] {
  const eligible = (id: MemoryId) => {
    const d = index.doc(id);
    if (!d || d.deletedAt != null) return false;
    if (d.status === 'archived' && !o.includeArchived) return false;
    if (d.status === 'quarantined' && !o.includeQuarantined) return false;
    return feedback?.isSuppressed(id) !== true;
  };
  const outcome = associate(results, { matrix, eligible, pool: new Map(scored.map((h) => [h.id, h])), queryVector: qv ?? undefined }, o);
  const standardBest = results.reduce((m, x) => (x.mode === 'standard' && x.score > m ? x.score : m), 0);
  const floor = r.assocFloor * standardBest;
  let kept = 0;
  return outcome.results.filter((x) => {
    if (x.mode !== 'associative') return true;
    if (x.score < floor || kept >= r.assocMaxResults) return false;
    kept++;
    return true;
  });
}

function unit(v: Float32Array): Float32Array {
  let ss = 0;
  for (let i = 0; i < v.length; i++) ss += v[i] * v[i];
  const inv = ss > 0 ? 1 / Math.sqrt(ss) : 0;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i] * inv;
  return out;
}

function dotUnit(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

export interface RecentMemory {
  id: MemoryId;
  text: string;
  createdAt: number;
  sessionId: string;
}

/**
 * Divergence of `current` from recent activity (seed 002 REQ-P3-04): the recent window (the
 * smaller of `recentWindowHours` and the current session; the time window alone when nothing in
 * it is from the current session), the max-over-recent similarity per non-temporal space, and
 * the recent-activity summary from the newest text. Memories without stored features are skipped.
 */
export function divergenceAlerts(
  ctx: PipelineContext,
  current: SpaceFeatures,
  recent: readonly RecentMemory[],
  opts: { now?: number; currentSessionId?: string; config?: SimilarityConfig } = {},
): DivergenceAlert[] {
  const config = opts.config ?? ctx.similarity ?? DEFAULT_SIMILARITY_CONFIG;
  const now = opts.now ?? ctx.now ?? Date.now();
  const window = selectRecentWindow(recent, now, opts.currentSessionId ?? '', config);
  const rows: { features: SpaceFeatures; text: string }[] = [];
  for (const m of window) {
    const f = ctx.spaces.features(m.id);
    if (f) rows.push({ features: f, text: m.text });
  }
  return detectFeatureDivergence(current, rows, { config, warn: ctx.warn ?? noop, log: noop });
}
