// LoCoMo systems for the deep-recall options (issue 11, seed 001) over the shipped ranking:
//   expandHops1  one hop over the memory-entity graph (the engine worker's EntityGraph, built from
//                each turn's E11 entities), fused in as one more candidate list
//   multiQuery3  the offline query transformer's two variants (WordNet synonyms; RM3 feedback
//                terms of the first pass's top 5), each retrieved lexical + vector, fused by RRF
// The variants' vectors are embedded up front (cached on disk); a query's time covers the first
// pass, the rewording and the fused pass, not the encoder calls for the variants (a few ms each
// with MiniLM in the browser).
import type { LexicalResources } from '../../src/core/features';
import { calibrationFor, DEFAULT_PIPELINE_OPTIONS, runPipeline, type DeepFusion, type EncoderCalibration, type PipelineContext, type PipelineQuery } from '../../src/core/pipeline';
import { OfflineTransformer } from '../../src/core/query';
import type { RecallOptionsInput } from '../../src/core/recall';
import { EntityGraph } from '../../workers/entity-graph';
import type { EmbedFn, EvalQuery, PreparedConversation, RetrievalSystem } from '../eval-locomo';
import { pipelineContext, pipelineQueryOf, type FeaturizedConversation } from './eval-systems';

const EVAL_K = 10;
const PRF_DOCS = 5;

/** The shipped ranking under the encoder's calibration (as the engine runs it), with the deep extras. */
function context(pc: PreparedConversation, f: FeaturizedConversation, calibration: EncoderCalibration, graph?: EntityGraph, deepFusion?: DeepFusion): PipelineContext {
  return pipelineContext(pc, f, calibration.ranking, calibration.hybrid, { entities: graph, deepFusion });
}

export function entityGraphOf(pc: PreparedConversation, f: FeaturizedConversation): EntityGraph {
  const g = new EntityGraph();
  for (const m of pc.conv.memories) g.setFromFeatures(m.id, f.spaces.features(m.id) ?? {});
  return g;
}

/** The offline variants of `q`, fed back the plain hybrid's best texts (the app's first pass, services/retrieval.ts). */
function variantsOf(t: OfflineTransformer, pc: PreparedConversation, q: EvalQuery, n: number): string[] {
  const first = pc.index.search({ text: q.question, vector: q.vector }, { topK: PRF_DOCS });
  return t.variantsSync(q.question, n - 1, first.map((h) => pc.index.doc(h.id)?.text ?? ''));
}

export async function deepSystems(
  prepared: PreparedConversation[],
  feats: Map<PreparedConversation, FeaturizedConversation>,
  resources: LexicalResources,
  embedQueries: EmbedFn,
  log: (m: string) => void = () => {},
  calibration: EncoderCalibration = calibrationFor(undefined),
): Promise<RetrievalSystem[]> {
  const opts: RecallOptionsInput = { ...DEFAULT_PIPELINE_OPTIONS, topK: EVAL_K };
  const graphs = new Map(prepared.map((pc) => [pc, entityGraphOf(pc, feats.get(pc)!)]));
  const t = new OfflineTransformer(resources);
  const query = (pc: PreparedConversation, q: EvalQuery): PipelineQuery => pipelineQueryOf(feats.get(pc)!, q);
  // the variants' vectors, embedded once up front
  const texts = new Set<string>();
  for (const pc of prepared) for (const q of pc.queries) for (const v of variantsOf(t, pc, q, 3)) texts.add(v);
  log(`deep: ${texts.size} query variants to embed (cached on disk)`);
  const list = [...texts];
  const vecs = list.length ? await embedQueries(list) : [];
  const vectorOf = new Map(list.map((s, i) => [s, vecs[i]]));
  for (const [pc, g] of graphs) log(`deep: ${pc.conv.sampleId} entity graph ${g.memoryCount()} memories, ${g.entityCount()} entities`);
  const fusions: [string, DeepFusion | undefined][] = process.env.DEEP_FUSIONS
    ? [['', undefined], ...process.env.DEEP_FUSIONS.split(',').map((w): [string, DeepFusion] => [`@anchored${w}`, { mode: 'anchored', weight: Number(w) }])]
    : [['', undefined]];
  return fusions.flatMap(([suffix, fusion]) => [
    {
      name: `expandHops1${suffix}`,
      rank: (pc: PreparedConversation, q: EvalQuery) =>
        runPipeline(context(pc, feats.get(pc)!, calibration, graphs.get(pc), fusion), query(pc, q), { ...opts, expandHops: 1 }).map((r) => r.id),
    },
    {
      name: `multiQuery3${suffix}`,
      rank: (pc: PreparedConversation, q: EvalQuery) => {
        const f = feats.get(pc)!;
        const pq = query(pc, q);
        const variants = variantsOf(t, pc, q, 3).map((text) => ({ text, vector: vectorOf.get(text) ?? null }));
        return runPipeline(context(pc, f, calibration, undefined, fusion), { ...pq, variants }, { ...opts, multiQuery: 3 }).map((r) => r.id);
      },
    },
  ]);
}
