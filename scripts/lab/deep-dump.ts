// Lab (a tool, not part of the app): dumps, per query of both dev files, what the deep-search third
// pass analyses offline (docs/research/quality.md "Deep search, third pass"):
//   npx tsx scripts/lab/deep-dump.ts [encoder] [outDir]
// first  the app's first pass (no token matrices: the scale the app's trigger reads), top 50 + scores
// refined the eval's appRanking (late interaction), top 50 + scores
// cands  deep search's pool over the refined top 10 (poolCap 50, with its ways) ∪ the refined and
//        first top 50: per candidate MaxSim (idf over the candidates), the offline reader's score
//        and parts, evidence or not (DUMP_LITE=1: the top 10s only, for the trigger's fit)
// trigger-rows.json: per query the first pass's top / gap / count / spread and `all` = the refined
// top 10 holds every evidence memory, for `LABEL=all npx tsx scripts/lab/fit-confidence.ts
// <outDir>/trigger-rows.json` (the [top, gap, spread] set is the shipped model's fit)
import { mkdirSync, writeFileSync } from 'node:fs';
import { calibrationFor, DEFAULT_PIPELINE_OPTIONS, DEFAULT_RANKING, maxSim, runPipeline, tokenIdf, type PipelineContext, type TokenMatrix } from '../../src/core/pipeline';
import { confidenceOf, expandPool, readOffline, type PoolDoc } from '../../src/core/deep';
import { memoryCommunities } from '../../workers/communities';
import { loadLocomo } from '../lib/locomo';
import { attachTokens, featurizeAll } from '../lib/eval-systems';
import { entityGraphOf } from '../lib/eval-deep';
import { loadEmbed, prepare } from '../eval-locomo';
import { resolveEncoder } from '../lib/node-embedder';

async function main() {
  const [encoder = 'minilm', outDir = '/tmp/deep3'] = process.argv.slice(2);
  mkdirSync(outDir, { recursive: true });
  const enc = await loadEmbed(encoder);
  const cal = calibrationFor(enc.id);
  const { loadNodeResources } = await import('../lib/resources-node');
  const res = await loadNodeResources();
  const rows: unknown[] = [];
  for (const file of ['paraphrase', 'locomo']) {
    const prepared = await prepare(await loadLocomo(`/work/shared/data/${file}-dev.json`), enc.embed, { dim: enc.dim, embedQueries: enc.embedQueries });
    const feats = await featurizeAll(prepared, res, enc.embed);
    await attachTokens(prepared, feats, resolveEncoder(enc.id));
    const out: unknown[] = [];
    for (const pc of prepared) {
      const f = feats.get(pc)!;
      const graph = entityGraphOf(pc, f);
      const communities = memoryCommunities(f.matrix, graph);
      const docs: PoolDoc[] = pc.conv.memories.map((m) => ({ id: m.id, sessionId: `S${m.session}`, createdAt: m.time, status: 'active', deletedAt: null, validFrom: m.time, validTo: null }));
      const ctx: PipelineContext = { hybrid: pc.index, spaces: f.spaces, matrix: f.matrix, sessionOf: f.sessionOf, neighboursOf: f.neighboursOf, tokensOf: f.tokensOf, now: 0, ranking: { ...DEFAULT_RANKING, ...cal.ranking }, hybridConfig: cal.hybrid, entities: graph };
      const mem = new Map(pc.conv.memories.map((m, i) => [m.id, { ...m, i }]));
      const queries = pc.queries.map((q) => {
        const features = f.queryFeatures.get(q)!;
        const qt = f.queryTokens?.get(q);
        const first = runPipeline(ctx, { text: q.question, features }, { ...DEFAULT_PIPELINE_OPTIONS, topK: 50 });
        const first10 = runPipeline(ctx, { text: q.question, features }, { ...DEFAULT_PIPELINE_OPTIONS, topK: 10 });
        const refined = runPipeline(ctx, { text: q.question, features, tokens: qt }, { ...DEFAULT_PIPELINE_OPTIONS, topK: 50 });
        const refined10 = runPipeline(ctx, { text: q.question, features, tokens: qt }, { ...DEFAULT_PIPELINE_OPTIONS, topK: 10 });
        const c = confidenceOf(first10.map((r) => r.score), 10);
        const shown = new Set(refined10.map((r) => r.id));
        const got = q.evidence.filter((e) => shown.has(e)).length;
        rows.push({ file, top: c.top, gap: c.gap, count: c.count, spread: c.spread, s10: first10[9]?.score ?? 0, evidence: 0, hit: got > 0 ? 1 : 0, all: got === q.evidence.length ? 1 : 0 });
        if (process.env.DUMP_LITE) return { question: q.question, category: q.category, evidence: q.evidence, first10: first10.map((r) => [r.id, r.score]), refined10: refined10.map((r) => [r.id, r.score]) };
        const pool = expandPool(refined10.map((r) => r.id), { docs, entities: graph, communityOf: (id) => communities.get(id) }, {}, { cap: 50 });
        const poolFirst = expandPool(first10.map((r) => r.id), { docs, entities: graph, communityOf: (id) => communities.get(id) }, {}, { cap: 50 });
        const ids = [...new Set([...pool.map((p) => p.id), ...poolFirst.map((p) => p.id), ...refined.map((r) => r.id), ...first.map((r) => r.id)])];
        const mats = ids.map((id) => f.tokensOf?.(id)).filter((m): m is TokenMatrix => !!m);
        const w = qt ? tokenIdf(qt.ids, mats) : [];
        const cands = ids.map((id) => {
          const m = mem.get(id)!;
          const t = f.tokensOf?.(id);
          const r = readOffline({ text: q.question, features }, { id, text: m.text, createdAt: m.time, features: f.spaces.features(id) });
          return { id, ms: qt && t ? maxSim(qt, t, w) : 0, rd: r.score, parts: r.parts };
        });
        return {
          question: q.question, category: q.category, evidence: q.evidence,
          first: first.map((r) => [r.id, r.score]), first10: first10.map((r) => [r.id, r.score]),
          refined: refined.map((r) => [r.id, r.score]), refined10: refined10.map((r) => [r.id, r.score]),
          pool: pool.map((p) => ({ id: p.id, r: p.primaryRank, via: p.via.map((v) => [v.strategy, v.seed, v.detail]) })),
          poolFirst: poolFirst.map((p) => ({ id: p.id, r: p.primaryRank, via: p.via.map((v) => [v.strategy, v.seed, v.detail]) })),
          cands,
        };
      });
      out.push({ sampleId: pc.conv.sampleId, memories: pc.conv.memories.map((m) => ({ id: m.id, session: m.session, time: m.time, text: m.text })), queries });
      process.stderr.write(`${file} ${pc.conv.sampleId}\n`);
    }
    writeFileSync(`${outDir}/${file}.json`, JSON.stringify(out));
  }
  writeFileSync(`${outDir}/trigger-rows.json`, JSON.stringify(rows));
  await enc.dispose();
}
void main();
