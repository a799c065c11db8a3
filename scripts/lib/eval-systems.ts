// LoCoMo systems built on the one ranking pipeline (src/core/pipeline): every turn featurised in
// the thirteen spaces by the app's featurizing plan with the real lexical resources and the real
// encoder (every encoder call goes through the on-disk cache), one SpaceIndex + NeighbourMatrix per conversation, and
// systems for the ablation (hybrid only, hybrid + one content space, all spaces) and for the
// associative hops 0..3. Features are computed once per process; each system only re-ranks.
import type { LexicalResources } from '../../src/core/features';
import type { HybridConfig } from '../../src/core/hybrid';
import type { SpaceFeatures } from '../../src/core/spaces';
import { NON_TEMPORAL_SPACES } from '../../src/core/spaces';
import type { MemoryId, SpaceId } from '../../src/core/types';
import { matrixFromStore, type NeighbourMatrix, type RecallOptionsInput } from '../../src/core/recall';
import {
  DEFAULT_PIPELINE_OPTIONS,
  DEFAULT_RANKING,
  SpaceIndex,
  runPipeline,
  sessionNeighbours,
  type NeighboursOf,
  type PipelineContext,
  type PipelineQuery,
  type RankingConfig,
  type TokenMatrix,
  type TokensOf,
} from '../../src/core/pipeline';
import type { EncoderMeta } from '../../src/embed/encoders';
import { planFeatures, planQueryFeatures, type FeaturePlan } from '../../src/features';
import type { EmbedFn, EvalQuery, PreparedConversation, RetrievalSystem } from '../eval-locomo';

const EVAL_K = 10;

export interface FeaturizedConversation {
  spaces: SpaceIndex;
  matrix: NeighbourMatrix;
  sessionOf: (id: MemoryId) => string | undefined;
  /** Each turn's neighbours in its session (the engine's sessionNeighbours over its sessions and times). */
  neighboursOf: NeighboursOf;
  queryFeatures: Map<EvalQuery, SpaceFeatures>;
  /** Token matrices (late interaction), when the encoder has them (attachTokens). */
  tokensOf?: TokensOf;
  queryTokens?: Map<EvalQuery, TokenMatrix>;
}

/**
 * The pipeline context of one featurised conversation as the engine builds it: `ranking` merged
 * over DEFAULT_RANKING, `hybrid` (the encoder's calibrated fusion) patched over the index's config,
 * plus any extras (the entity graph, the deep fusion). Every eval system builds its context here.
 */
export function pipelineContext(
  pc: PreparedConversation,
  f: FeaturizedConversation,
  ranking: Partial<RankingConfig> = {},
  hybrid: Partial<HybridConfig> | undefined = {},
  extra: Partial<Pick<PipelineContext, 'entities' | 'deepFusion'>> = {},
): PipelineContext {
  return {
    hybrid: pc.index,
    spaces: f.spaces,
    matrix: f.matrix,
    sessionOf: f.sessionOf,
    neighboursOf: f.neighboursOf,
    tokensOf: f.tokensOf,
    now: 0,
    ranking: { ...DEFAULT_RANKING, ...ranking },
    hybridConfig: hybrid,
    ...extra,
  };
}

/** The pipeline query of `q`: its text, features and (when attached) token matrix. */
export function pipelineQueryOf(f: FeaturizedConversation, q: EvalQuery): PipelineQuery {
  return { text: q.question, features: f.queryFeatures.get(q)!, tokens: f.queryTokens?.get(q) };
}

/**
 * Adds every turn's and question's token matrix (scripts/lib/token-cache.ts, cached on disk) to the
 * featurised conversations, for a Transformers.js encoder; USE-lite has none (no-op).
 */
export async function attachTokens(
  prepared: PreparedConversation[],
  feats: Map<PreparedConversation, FeaturizedConversation>,
  meta: EncoderMeta,
  log: (m: string) => void = () => {},
): Promise<void> {
  if (meta.runtime !== 'transformers') return;
  const { tokenMatrices } = await import('./token-cache');
  const texts = [...new Set(prepared.flatMap((pc) => [...pc.conv.memories.map((m) => m.text), ...pc.queries.map((q) => q.question)]))];
  const mats = await tokenMatrices(meta, texts, (d, t) => log(`tokens: ${d}/${t} uncached texts`));
  const byText = new Map(texts.map((t, i) => [t, mats[i]]));
  for (const pc of prepared) {
    const f = feats.get(pc)!;
    const byId = new Map(pc.conv.memories.map((m) => [m.id, byText.get(m.text)!]));
    f.tokensOf = (id) => byId.get(id);
    f.queryTokens = new Map(pc.queries.map((q) => [q, byText.get(q.question)!]));
  }
}

const CAPTION = /\s\[image: (.*)\]$/;

/** The caption LoCoMo appends to a turn's text (memoryText), if any. */
export function captionOf(text: string): string | undefined {
  return CAPTION.exec(text)?.[1];
}

/**
 * Featurise every turn and query of every prepared conversation with the app's featurizing plan
 * (planFeatures / planQueryFeatures, as the embed worker does). E1 is the vector already in the
 * hybrid index (the cached turn / query vector); every other text the encoder must see (E5
 * clauses, E10 captions) is embedded up front in one cached batch, then each plan is finished.
 */
export async function featurizeAll(
  prepared: PreparedConversation[],
  resources: LexicalResources,
  embed: EmbedFn,
  log: (m: string) => void = () => {},
): Promise<Map<PreparedConversation, FeaturizedConversation>> {
  // 1. the plans: every turn's and query's encoder-free spaces, and the texts they need encoded
  const plans = new Map<PreparedConversation, { turns: FeaturePlan; queries: FeaturePlan[]; ms: number }>();
  for (const pc of prepared) {
    const t0 = performance.now();
    const position = new Map<number, number>();
    const inputs = pc.conv.memories.map((m) => {
      const pos = position.get(m.session) ?? 0;
      position.set(m.session, pos + 1);
      const cap = captionOf(m.text);
      const semantic = pc.index.vectorOf(m.id);
      return { text: m.text, createdAt: m.time, sessionPosition: pos, media: cap ? [{ caption: cap }] : undefined, semantic: semantic ? semantic.slice() : undefined };
    });
    const turns = planFeatures(inputs, resources);
    const queries = pc.queries.map((q) => planQueryFeatures(q.question, resources, { semantic: q.vector ?? undefined }));
    plans.set(pc, { turns, queries, ms: performance.now() - t0 });
  }
  // 2. one cached encoder batch for every distinct text
  const texts = [...new Set([...plans.values()].flatMap((p) => [...p.turns.texts, ...p.queries.flatMap((q) => q.texts)]))];
  log(`featurize: ${texts.length} clause / caption texts for the encoder (cached on disk)`);
  const vecs = await embed(texts);
  const byText = new Map(texts.map((t, i) => [t, vecs[i]]));
  const vectorsOf = (plan: FeaturePlan) => plan.texts.map((t) => byText.get(t)!);
  // 3. the features
  const out = new Map<PreparedConversation, FeaturizedConversation>();
  for (const pc of prepared) {
    const t0 = performance.now();
    const plan = plans.get(pc)!;
    const spaces = new SpaceIndex();
    plan.turns.finish(vectorsOf(plan.turns)).forEach((f, i) => spaces.upsert(pc.conv.memories[i].id, f));
    const queryFeatures = new Map<EvalQuery, SpaceFeatures>();
    pc.queries.forEach((q, i) => queryFeatures.set(q, plan.queries[i].finish(vectorsOf(plan.queries[i]))[0]));
    const session = new Map(pc.conv.memories.map((m) => [m.id, String(m.session)]));
    const sessionOf = (id: MemoryId) => session.get(id);
    const matrix = matrixFromStore(pc.index.vectors, sessionOf);
    const neighboursOf = sessionNeighbours(pc.conv.memories.map((m) => ({ id: m.id, sessionId: String(m.session), createdAt: m.time })));
    out.set(pc, { spaces, matrix, sessionOf, neighboursOf, queryFeatures });
    log(`featurize: ${pc.conv.sampleId} ${pc.conv.memories.length} turns, ${pc.queries.length} queries in ${((plan.ms + performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  return out;
}

/** The content spaces other than E1 (the ablation adds them one at a time). */
export const ABLATION_SPACES: readonly SpaceId[] = NON_TEMPORAL_SPACES.filter((s) => s !== 'E1');

/**
 * A system ranking with runPipeline under `ranking` (merged over DEFAULT_RANKING), `options` and
 * `hybrid` (patched over the index's config: the encoder's calibrated fusion, as the engine builds it).
 */
export function pipelineSystem(
  name: string,
  feats: Map<PreparedConversation, FeaturizedConversation>,
  ranking: Partial<RankingConfig> = {},
  options: RecallOptionsInput = {},
  hybrid: Partial<HybridConfig> = {},
): RetrievalSystem {
  const opts: RecallOptionsInput = { ...DEFAULT_PIPELINE_OPTIONS, topK: EVAL_K, ...options };
  return {
    name,
    rank: (pc, q) => {
      const f = feats.get(pc)!;
      return runPipeline(pipelineContext(pc, f, ranking, hybrid), pipelineQueryOf(f, q), opts).map((r) => r.id);
    },
  };
}

/**
 * hybridOnly; hybrid+E5 ... hybrid+E13 (that one space alone in the blend, at full weight, so the
 * row shows what the space adds, even one the shipped blend weighs 0); allSpaces (every content
 * space, the shipped blend weights); allSpacesSeedWeights (every content space at the seed's
 * category weights, no redundancy discount). All at assocHops 0.
 */
export function ablationSystems(
  feats: Map<PreparedConversation, FeaturizedConversation>,
  ranking: Partial<RankingConfig> = {},
  hybrid: Partial<HybridConfig> = {},
): RetrievalSystem[] {
  const shipped = { ...DEFAULT_RANKING, ...ranking };
  const off = { assocHops: 0 };
  return [
    pipelineSystem('hybridOnly', feats, { ...shipped, spaces: [] }, off, hybrid),
    ...ABLATION_SPACES.map((s) => pipelineSystem(`hybrid+${s}`, feats, { ...shipped, spaces: [s], spaceWeights: { [s]: 1 } }, off, hybrid)),
    pipelineSystem('allSpaces', feats, { ...shipped, spaces: [...ABLATION_SPACES] }, off, hybrid),
    pipelineSystem('allSpacesSeedWeights', feats, { ...shipped, spaces: [...ABLATION_SPACES], spaceWeights: {} }, off, hybrid),
  ];
}

/**
 * The app's ranking before the per-encoder calibration (BM25 min-max fusion, the spaces' blend at
 * a fixed alpha): DEFAULT_HYBRID_CONFIG and DEFAULT_RANKING as they are, for comparison.
 */
export function uncalibratedSystem(feats: Map<PreparedConversation, FeaturizedConversation>): RetrievalSystem {
  return pipelineSystem('uncalibrated', feats, {}, { assocHops: 0 }, {});
}

/** assocHops0 .. assocHops3 over the shipped ranking. */
export function assocSystems(
  feats: Map<PreparedConversation, FeaturizedConversation>,
  ranking: Partial<RankingConfig> = {},
  options: RecallOptionsInput = {},
  hybrid: Partial<HybridConfig> = {},
): RetrievalSystem[] {
  return [0, 1, 2, 3].map((h) => pipelineSystem(`assocHops${h}`, feats, ranking, { ...options, assocHops: h }, hybrid));
}
