// The judge in the eval (docs/research/quality.md, "Fourth pass"; src/core/pipeline/judge.ts): a
// stronger encoder's cosine re-scores the top `depth` of the shipped ranking at `weight`.
//  - The app row (`appRanking`) applies the encoder's calibrated judge (calibrationFor(id).judge)
//    whenever its model folder is in public/models/ (what the app ships: prepare-assets builds it),
//    unless --no-judge; --json's `judge` says whether it was applied and why not.
//  - JUDGE=<id> [JUDGE_DEPTH, JUDGE_WEIGHT] adds a `judged` row at other settings (the lab's knob).
// The judge's vectors of every memory text and question are cached on disk like the encoder's
// (embedding-cache), keyed by the model FILE's SHA-256 too: a rebuilt graph never reuses the
// vectors of another build under the same id.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_JUDGE, DEFAULT_PIPELINE_OPTIONS, judgeRerank, runPipeline, type EncoderCalibration, type JudgeOptions } from '../../src/core/pipeline';
import { MPNET_JUDGE, type EncoderMeta } from '../../src/embed/encoders';
import type { PreparedConversation, RetrievalSystem } from '../eval-locomo';
import { embedCached } from './embedding-cache';
import { pipelineContext, pipelineQueryOf, type FeaturizedConversation } from './eval-systems';
import { loadNodeTransformers, MODELS_DIR } from './node-transformers';

const JUDGES: Record<string, EncoderMeta> = { [MPNET_JUDGE.id]: MPNET_JUDGE };

/** The judge's weights file in the model folder (q8: the int8 graph), or undefined when not built. */
export function judgeModelFile(meta: EncoderMeta, dir: string = MODELS_DIR): string | undefined {
  const file = join(dir, meta.folder ?? meta.id, 'onnx', meta.dtype === 'q8' ? 'model_quantized.onnx' : 'model.onnx');
  return existsSync(file) && existsSync(join(dir, meta.folder ?? meta.id, 'config.json')) ? file : undefined;
}

export interface JudgeVectors {
  meta: EncoderMeta;
  /** SHA-256 of the model file the vectors came from. */
  modelSha256: string;
  vectorOf: (text: string) => Float32Array | undefined;
}

/** The judge's vector of every memory text and question of `prepared` (cached on disk by model file + text). */
export async function judgeVectors(prepared: PreparedConversation[], judgeId: string, log: (m: string) => void): Promise<JudgeVectors> {
  const meta = JUDGES[judgeId];
  if (!meta) throw new Error(`unknown judge ${judgeId} (known: ${Object.keys(JUDGES).join(', ')})`);
  const file = judgeModelFile(meta);
  if (!file) throw new Error(`${judgeId}: no model folder in ${MODELS_DIR} (npm run prepare-assets builds it)`);
  const modelSha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
  let model: ReturnType<typeof loadNodeTransformers> | undefined;
  const encoder = {
    info: () => ({ id: meta.id, name: meta.name, dim: meta.dim, backend: 'cpu' as const, maxInputChars: 0 }),
    embed: async (texts: string[]) => (await (model ??= loadNodeTransformers(meta))).embed(texts),
  };
  const vectors = new Map<string, Float32Array>();
  const texts = [...new Set(prepared.flatMap((pc) => [...pc.conv.memories.map((m) => m.text), ...pc.queries.map((q) => q.question)]))];
  const v = await embedCached(encoder, texts, { version: modelSha256, onProgress: (d, t) => log(`judge: embedding ${d}/${t} uncached texts (${meta.id})`) });
  texts.forEach((t, i) => vectors.set(t, v[i]));
  if (model) await (await model).dispose();
  return { meta, modelSha256, vectorOf: (t) => vectors.get(t) };
}

/** The shipped ranking (at `assocHops`) with the judge re-scoring its top `opts.depth`. */
export function judgedSystem(
  name: string,
  feats: Map<PreparedConversation, FeaturizedConversation>,
  calibration: EncoderCalibration,
  vectors: JudgeVectors,
  opts: JudgeOptions,
  assocHops?: number,
): RetrievalSystem {
  const options = { ...DEFAULT_PIPELINE_OPTIONS, ...(assocHops === undefined ? {} : { assocHops }), topK: Math.max(opts.depth, 10) };
  return {
    name,
    rank: (pc, q) => {
      const f = feats.get(pc)!;
      const hits = runPipeline(pipelineContext(pc, f, calibration.ranking, calibration.hybrid), pipelineQueryOf(f, q), options);
      const textOf = new Map(pc.conv.memories.map((m) => [m.id, m.text]));
      return judgeRerank(hits, vectors.vectorOf(q.question), (id) => vectors.vectorOf(textOf.get(id) ?? ''), opts).map((h) => h.id);
    },
  };
}

/** What the app row did about the judge (--json's `judge`). */
export type JudgeUse =
  | { applied: true; id: string; depth: number; weight: number; modelSha256: string }
  | { applied: false; id?: string; reason: string };

/** The app's judge for `calibration`: its vectors when it applies, else why it does not. */
export async function appJudge(
  prepared: PreparedConversation[],
  calibration: EncoderCalibration,
  wanted: boolean,
  log: (m: string) => void,
): Promise<{ use: JudgeUse; vectors?: JudgeVectors }> {
  const spec = calibration.judge;
  if (!spec) return { use: { applied: false, reason: 'the encoder has no judge in its calibration' } };
  if (!wanted) return { use: { applied: false, id: spec.id, reason: '--no-judge' } };
  const meta = JUDGES[spec.id];
  if (!meta || !judgeModelFile(meta)) return { use: { applied: false, id: spec.id, reason: `no ${spec.id} folder in ${MODELS_DIR} (npm run prepare-assets builds it)` } };
  const vectors = await judgeVectors(prepared, spec.id, log);
  return { use: { applied: true, id: spec.id, depth: spec.depth, weight: spec.weight, modelSha256: vectors.modelSha256 }, vectors };
}

/** JUDGE=<id>: the `judged` row at JUDGE_DEPTH / JUDGE_WEIGHT (default DEFAULT_JUDGE), over the shipped hops. */
export async function envJudgedSystem(
  prepared: PreparedConversation[],
  feats: Map<PreparedConversation, FeaturizedConversation>,
  calibration: EncoderCalibration,
  judgeId: string,
  log: (m: string) => void,
  reuse?: JudgeVectors,
): Promise<RetrievalSystem> {
  const opts = { depth: Number(process.env.JUDGE_DEPTH ?? DEFAULT_JUDGE.depth), weight: Number(process.env.JUDGE_WEIGHT ?? DEFAULT_JUDGE.weight) };
  const vectors = reuse?.meta.id === judgeId ? reuse : await judgeVectors(prepared, judgeId, log);
  return judgedSystem(`judged(${vectors.meta.label} top ${opts.depth}, w ${opts.weight})`, feats, calibration, vectors, opts);
}
