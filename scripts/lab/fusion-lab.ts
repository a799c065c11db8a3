// The fusion tuning loop behind src/core/pipeline/README.md ("Query-adaptive fusion"): both dev
// files, one encoder, the app's pipeline under many variants (a tool, not part of the app).
//   npx tsx scripts/lab/fusion-lab.ts <encoder> <variants.json>
// variants.json: [{ "name", "hybrid"?: Partial<HybridConfig>, "ranking"?: Partial<RankingConfig>,
// "options"?: RecallOptionsInput }], e.g.
//   [{ "name": "cov1.5-ev1", "hybrid": { "lexicalScore": "coverage", "coveragePower": 1.5 },
//      "ranking": { "evidencePower": 1 } }]
// Prints bm25, dense and each variant with R@10 / nDCG@10 / MRR@10 / top-1 and per category.
import { readFileSync } from 'node:fs';
import type { HybridConfig } from '../../src/core/hybrid';
import { DEFAULT_PIPELINE_OPTIONS, DEFAULT_RANKING, runPipeline, type RankingConfig } from '../../src/core/pipeline';
import type { RecallOptionsInput } from '../../src/core/recall';
import { loadLocomo } from '../lib/locomo';
import { featurizeAll } from '../lib/eval-systems';
import { evaluate, loadEmbed, prepare, bm25System, denseSystem, type RetrievalSystem } from '../eval-locomo';

interface Variant { name: string; hybrid?: Partial<HybridConfig>; ranking?: Partial<RankingConfig>; options?: RecallOptionsInput }

async function main() {
  const [encoder, file] = process.argv.slice(2);
  const variants = JSON.parse(readFileSync(file, 'utf8')) as Variant[];
  const enc = await loadEmbed(encoder);
  const { loadNodeResources } = await import('../lib/resources-node');
  const res = await loadNodeResources();
  for (const data of ['paraphrase', 'locomo']) {
    const convs = await loadLocomo(`/work/shared/data/${data}-dev.json`);
    const prepared = await prepare(convs, enc.embed, { dim: enc.dim, embedQueries: enc.embedQueries });
    const feats = await featurizeAll(prepared, res, enc.embed);
    const systems: RetrievalSystem[] = [bm25System, denseSystem];
    for (const v of variants) {
      systems.push({
        name: v.name,
        rank: (pc, q) => {
          const f = feats.get(pc)!;
          return runPipeline(
            { hybrid: pc.index, spaces: f.spaces, matrix: f.matrix, sessionOf: f.sessionOf, neighboursOf: f.neighboursOf, now: 0, ranking: { ...DEFAULT_RANKING, ...v.ranking }, hybridConfig: v.hybrid },
            { text: q.question, features: f.queryFeatures.get(q)! },
            { ...DEFAULT_PIPELINE_OPTIONS, topK: 10, ...v.options },
          ).map((r) => r.id);
        },
      });
    }
    const rep = evaluate(prepared, systems);
    for (const [name, r] of Object.entries(rep)) {
      const cats = Object.entries(r.perCategory).map(([c, x]) => `c${c} ${x.r10.toFixed(1)}/${x.mrr10.toFixed(1)}/${x.top1.toFixed(1)}`).join(' ');
      console.log(`${encoder.padEnd(8)} ${data.padEnd(10)} ${name.padEnd(34)} R ${r.r10.toFixed(1)} N ${r.ndcg10.toFixed(1)} M ${r.mrr10.toFixed(1)} T ${r.top1.toFixed(1)}  ${r.medianMs.toFixed(2)}ms  ${cats}`);
    }
  }
  await enc.dispose();
}
void main();
