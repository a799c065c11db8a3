// Dumps the shipped ranking's top N per query on both dev files, with each candidate's scores, plus
// every memory's text / session / time and the E1 vectors, for offline analysis of re-ranking
// features (a tool, not part of the app).
//   npx tsx scripts/lab/dump-ranking.ts <encoder> <outDir> [topN]
import { mkdirSync, writeFileSync } from 'node:fs';
import { calibrationFor, DEFAULT_PIPELINE_OPTIONS, DEFAULT_RANKING, runPipeline } from '../../src/core/pipeline';
import { loadLocomo } from '../lib/locomo';
import { featurizeAll } from '../lib/eval-systems';
import { loadEmbed, prepare } from '../eval-locomo';

async function main() {
  const [encoder, outDir, topNArg] = process.argv.slice(2);
  const topN = Number(topNArg ?? 50);
  mkdirSync(outDir, { recursive: true });
  const enc = await loadEmbed(encoder);
  const cal = calibrationFor(enc.id);
  const { loadNodeResources } = await import('../lib/resources-node');
  const res = await loadNodeResources();
  for (const data of ['paraphrase', 'locomo']) {
    const convs = await loadLocomo(`/work/shared/data/${data}-dev.json`);
    const prepared = await prepare(convs, enc.embed, { dim: enc.dim, embedQueries: enc.embedQueries });
    const feats = await featurizeAll(prepared, res, enc.embed);
    const out: unknown[] = [];
    for (const pc of prepared) {
      const f = feats.get(pc)!;
      const memories = pc.conv.memories.map((m) => ({ id: m.id, text: m.text, session: m.session, time: m.time, speaker: m.speaker, v: Array.from(pc.index.vectorOf(m.id) ?? []) }));
      const queries = pc.queries.map((q) => {
        const t0 = performance.now();
        const res = runPipeline(
          { hybrid: pc.index, spaces: f.spaces, matrix: f.matrix, sessionOf: f.sessionOf, neighboursOf: f.neighboursOf, now: 0, ranking: { ...DEFAULT_RANKING, ...cal.ranking }, hybridConfig: cal.hybrid },
          { text: q.question, features: f.queryFeatures.get(q)! },
          { ...DEFAULT_PIPELINE_OPTIONS, topK: topN, assocHops: 0 },
        );
        const ms = performance.now() - t0;
        return {
          question: q.question, category: q.category, evidence: q.evidence, ms, v: Array.from(q.vector ?? []),
          results: res.map((r) => ({ id: r.id, score: r.score, hybrid: r.hybridScore, sims: r.spaces.sims })),
        };
      });
      out.push({ sampleId: pc.conv.sampleId, memories, queries });
    }
    writeFileSync(`${outDir}/${data}.json`, JSON.stringify(out));
    console.log(`${data}: ${out.length} conversations written`);
  }
  await enc.dispose();
}
void main();
