// The eval's `judged` row (JUDGE=<id> npx tsx scripts/eval-locomo.ts ...): the shipped ranking's
// top 30 re-scored by a stronger encoder's cosine (src/core/pipeline/judge.ts, DEFAULT_JUDGE unless
// JUDGE_WEIGHT / JUDGE_DEPTH say otherwise); docs/research/quality.md, "Fourth pass". The judge's
// vectors of every memory text and question are cached on disk like the encoder's (embedding-cache).
import { DEFAULT_JUDGE, DEFAULT_PIPELINE_OPTIONS, DEFAULT_RANKING, judgeRerank, runPipeline, type EncoderCalibration, type PipelineContext } from '../../src/core/pipeline';
import { MPNET_JUDGE, type EncoderMeta } from '../../src/embed/encoders';
import type { PreparedConversation, RetrievalSystem } from '../eval-locomo';
import { embedCached } from './embedding-cache';
import { pipelineQueryOf, type FeaturizedConversation } from './eval-systems';
import { loadNodeTransformers } from './node-transformers';

const JUDGES: Record<string, EncoderMeta> = { [MPNET_JUDGE.id]: MPNET_JUDGE };

/** The judge's vector of every memory text and question of `prepared`, by text (cached on disk). */
export async function judgeVectors(prepared: PreparedConversation[], judgeId: string, log: (m: string) => void): Promise<Map<string, Float32Array>> {
  const meta = JUDGES[judgeId];
  if (!meta) throw new Error(`JUDGE: unknown judge ${judgeId} (known: ${Object.keys(JUDGES).join(', ')})`);
  let model: ReturnType<typeof loadNodeTransformers> | undefined;
  const encoder = {
    info: () => ({ id: meta.id, name: meta.name, dim: meta.dim, backend: 'cpu' as const, maxInputChars: 0 }),
    embed: async (texts: string[]) => (await (model ??= loadNodeTransformers(meta))).embed(texts),
  };
  const vectors = new Map<string, Float32Array>();
  for (const pc of prepared) {
    const texts = [...pc.conv.memories.map((m) => m.text), ...pc.queries.map((q) => q.question)];
    const v = await embedCached(encoder, texts, { onProgress: (d, t) => log(`judge: embedding ${d}/${t} uncached texts (${meta.id})`) });
    texts.forEach((t, i) => vectors.set(t, v[i]));
  }
  if (model) await (await model).dispose();
  return vectors;
}

export async function judgedSystem(
  prepared: PreparedConversation[],
  feats: Map<PreparedConversation, FeaturizedConversation>,
  calibration: EncoderCalibration,
  judgeId: string,
  log: (m: string) => void,
): Promise<RetrievalSystem> {
  const meta = JUDGES[judgeId]!;
  const opts = { depth: Number(process.env.JUDGE_DEPTH ?? DEFAULT_JUDGE.depth), weight: Number(process.env.JUDGE_WEIGHT ?? DEFAULT_JUDGE.weight) };
  const vectors = await judgeVectors(prepared, judgeId, log);
  return {
    name: `judged(${meta.label} top ${opts.depth}, w ${opts.weight})`,
    rank: (pc, q) => {
      const f = feats.get(pc)!;
      const ctx: PipelineContext = {
        hybrid: pc.index,
        spaces: f.spaces,
        matrix: f.matrix,
        sessionOf: f.sessionOf,
        neighboursOf: f.neighboursOf,
        tokensOf: f.tokensOf,
        now: 0,
        ranking: { ...DEFAULT_RANKING, ...calibration.ranking },
        hybridConfig: calibration.hybrid,
      };
      const hits = runPipeline(ctx, pipelineQueryOf(f, q), { ...DEFAULT_PIPELINE_OPTIONS, topK: Math.max(opts.depth, 10) });
      const textOf = new Map(pc.conv.memories.map((m) => [m.id, m.text]));
      return judgeRerank(hits, vectors.get(q.question), (id) => vectors.get(textOf.get(id) ?? ''), opts).map((h) => h.id);
    },
  };
}
