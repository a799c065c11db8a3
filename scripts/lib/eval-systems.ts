// LoCoMo systems built on the one ranking pipeline (src/core/pipeline): every turn featurised in
// the thirteen spaces with the real lexical resources and the real encoder (every encoder call
// goes through the on-disk cache), one SpaceIndex + NeighbourMatrix per conversation, and
// systems for the ablation (hybrid only, hybrid + one content space, all spaces) and for the
// associative hops 0..3. Features are computed once per process; each system only re-ranks.
import { extractCausalClauses, mediaTexts, type LexicalResources } from '../../src/core/features';
import type { SpaceFeatures } from '../../src/core/spaces';
import { NON_TEMPORAL_SPACES } from '../../src/core/spaces';
import type { MemoryId, SpaceId } from '../../src/core/types';
import { buildNeighbourMatrix, type NeighbourMatrix, type RecallOptionsInput } from '../../src/core/recall';
import {
  DEFAULT_PIPELINE_OPTIONS,
  DEFAULT_RANKING,
  SpaceIndex,
  runPipeline,
  type PipelineContext,
  type RankingConfig,
} from '../../src/core/pipeline';
import { featurize, featurizeQuery, type TextEncoder } from '../../src/features';
import type { EmbedFn, EvalQuery, PreparedConversation, RetrievalSystem } from '../eval-locomo';

const EVAL_K = 10;

export interface FeaturizedConversation {
  spaces: SpaceIndex;
  matrix: NeighbourMatrix;
  sessionOf: (id: MemoryId) => string | undefined;
  queryFeatures: Map<EvalQuery, SpaceFeatures>;
}

const CAPTION = /\s\[image: (.*)\]$/;

/** The caption LoCoMo appends to a turn's text (memoryText), if any. */
export function captionOf(text: string): string | undefined {
  return CAPTION.exec(text)?.[1];
}

/**
 * Featurise every turn and query of every prepared conversation. All encoder inputs (E5 clauses,
 * E10 captions) are embedded up front in one cached batch, then `featurize` reads them from a map;
 * E1 is the vector already in the hybrid index (the cached turn / query vector).
 */
export async function featurizeAll(
  prepared: PreparedConversation[],
  resources: LexicalResources,
  embed: EmbedFn,
  log: (m: string) => void = () => {},
): Promise<Map<PreparedConversation, FeaturizedConversation>> {
  // 1. every text the encoder must see besides E1
  const extra = new Set<string>();
  for (const pc of prepared) {
    for (const m of pc.conv.memories) {
      for (const c of extractCausalClauses(m.text)) extra.add(c.text);
      const cap = captionOf(m.text);
      for (const t of mediaTexts(cap ? [{ caption: cap }] : [])) extra.add(t);
    }
    for (const q of pc.queries) for (const c of extractCausalClauses(q.question)) extra.add(c.text);
  }
  const texts = [...extra];
  log(`featurize: ${texts.length} clause / caption texts for the encoder (cached on disk)`);
  const vecs = await embed(texts);
  const byText = new Map(texts.map((t, i) => [t, vecs[i]]));
  const encoder: TextEncoder = {
    embed: async (ts) => {
      const miss = ts.filter((t) => !byText.has(t));
      if (miss.length) (await embed(miss)).forEach((v, i) => byText.set(miss[i], v));
      return ts.map((t) => byText.get(t)!);
    },
  };
  // 2. features
  const out = new Map<PreparedConversation, FeaturizedConversation>();
  for (const pc of prepared) {
    const t0 = performance.now();
    const spaces = new SpaceIndex();
    const session = new Map<MemoryId, string>();
    const position = new Map<number, number>();
    for (const m of pc.conv.memories) {
      const pos = position.get(m.session) ?? 0;
      position.set(m.session, pos + 1);
      session.set(m.id, String(m.session));
      const cap = captionOf(m.text);
      const semantic = pc.index.vectorOf(m.id);
      const f = await featurize(
        { text: m.text, createdAt: m.time, sessionPosition: pos, media: cap ? [{ caption: cap }] : undefined, semantic: semantic ? semantic.slice() : undefined },
        encoder,
        resources,
      );
      spaces.upsert(m.id, f);
    }
    const queryFeatures = new Map<EvalQuery, SpaceFeatures>();
    for (const q of pc.queries) {
      queryFeatures.set(q, await featurizeQuery(q.question, encoder, resources, { semantic: q.vector ?? undefined }));
    }
    const sessionOf = (id: MemoryId) => session.get(id);
    const matrix = buildNeighbourMatrix(pc.index.ids(), (id) => pc.index.vectorOf(id), sessionOf);
    out.set(pc, { spaces, matrix, sessionOf, queryFeatures });
    log(`featurize: ${pc.conv.sampleId} ${pc.conv.memories.length} turns, ${pc.queries.length} queries in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  return out;
}

/** The content spaces other than E1 (the ablation adds them one at a time). */
export const ABLATION_SPACES: readonly SpaceId[] = NON_TEMPORAL_SPACES.filter((s) => s !== 'E1');

/** A system ranking with runPipeline under `ranking` (merged over DEFAULT_RANKING) and `options`. */
export function pipelineSystem(
  name: string,
  feats: Map<PreparedConversation, FeaturizedConversation>,
  ranking: Partial<RankingConfig> = {},
  options: RecallOptionsInput = {},
): RetrievalSystem {
  const opts: RecallOptionsInput = { ...DEFAULT_PIPELINE_OPTIONS, topK: EVAL_K, ...options };
  return {
    name,
    rank: (pc, q) => {
      const f = feats.get(pc)!;
      const ctx: PipelineContext = {
        hybrid: pc.index,
        spaces: f.spaces,
        matrix: f.matrix,
        sessionOf: f.sessionOf,
        now: 0,
        ranking: { ...DEFAULT_RANKING, ...ranking },
      };
      return runPipeline(ctx, { text: q.question, features: f.queryFeatures.get(q)! }, opts).map((r) => r.id);
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
): RetrievalSystem[] {
  const shipped = { ...DEFAULT_RANKING, ...ranking };
  return [
    pipelineSystem('hybridOnly', feats, { ...shipped, spaces: [] }, { assocHops: 0 }),
    ...ABLATION_SPACES.map((s) =>
      pipelineSystem(`hybrid+${s}`, feats, { ...shipped, spaces: [s], spaceWeights: { [s]: 1 } }, { assocHops: 0 }),
    ),
    pipelineSystem('allSpaces', feats, { ...shipped, spaces: [...ABLATION_SPACES] }, { assocHops: 0 }),
    pipelineSystem('allSpacesSeedWeights', feats, { ...shipped, spaces: [...ABLATION_SPACES], spaceWeights: {} }, { assocHops: 0 }),
  ];
}

/** assocHops0 .. assocHops3 over the shipped ranking. */
export function assocSystems(
  feats: Map<PreparedConversation, FeaturizedConversation>,
  ranking: Partial<RankingConfig> = {},
  options: RecallOptionsInput = {},
): RetrievalSystem[] {
  return [0, 1, 2, 3].map((h) => pipelineSystem(`assocHops${h}`, feats, ranking, { ...options, assocHops: h }));
}
