// Lab (a tool, not part of the app): where the evidence the primary top 10 misses could come from.
//   npx tsx scripts/lab/deep-pool-lab.ts [encoder] [data file]
// Per query, over the shipped ranking: the evidence turns missing from the top 10, and the share of
// them found in the primary ranks 11-30 / 11-50, in deep search's expansion pool (poolCap 50, by
// strategy), and in the offline reader's top 10 of that pool.
import { calibrationFor, DEFAULT_PIPELINE_OPTIONS, DEFAULT_RANKING, runPipeline, type PipelineContext } from '../../src/core/pipeline';
import { confidenceOf, expandPool, mergeDeep, OfflineReader, type PoolDoc, type ReaderScore } from '../../src/core/deep';
import { mrrAt, recallAt } from '../lib/metrics';
import { memoryCommunities } from '../../workers/communities';
import { loadLocomo } from '../lib/locomo';
import { featurizeAll } from '../lib/eval-systems';
import { entityGraphOf } from '../lib/eval-deep';
import { loadEmbed, prepare } from '../eval-locomo';

async function main() {
  const [encoder = 'minilm', file = '/work/shared/data/locomo-dev.json'] = process.argv.slice(2);
  const enc = await loadEmbed(encoder);
  const cal = calibrationFor(enc.id);
  const { loadNodeResources } = await import('../lib/resources-node');
  const res = await loadNodeResources();
  const prepared = await prepare(await loadLocomo(file), enc.embed, { dim: enc.dim, embedQueries: enc.embedQueries });
  const feats = await featurizeAll(prepared, res, enc.embed);
  const reader = new OfflineReader();
  // merge variants over every query (threshold 1) and over those the calibrated trigger escalates at 0.5
  type V = { r: number; m: number; rec: number; miss: number; q: number };
  const variants: Record<string, { all: V; esc: V }> = {};
  const acc = (name: string, esc: boolean, ranked: string[], primaryTop: Set<string>, ev: string[]) => {
    const v = (variants[name] ??= { all: { r: 0, m: 0, rec: 0, miss: 0, q: 0 }, esc: { r: 0, m: 0, rec: 0, miss: 0, q: 0 } });
    for (const t of esc ? [v.all, v.esc] : [v.all]) {
      t.q++;
      t.r += recallAt(ranked, ev, 10);
      t.m += mrrAt(ranked, ev, 10);
      const top = new Set(ranked.slice(0, 10));
      for (const e of ev) if (!primaryTop.has(e)) { t.miss++; if (top.has(e)) t.rec++; }
    }
  };
  const n = { missing: 0, deep30: 0, deep50: 0, pool: 0, temporal: 0, entity: 0, community: 0, readerTop: 0 };
  for (const pc of prepared) {
    const f = feats.get(pc)!;
    const graph = entityGraphOf(pc, f);
    const communities = memoryCommunities(f.matrix, graph);
    const docs: PoolDoc[] = pc.conv.memories.map((m) => ({ id: m.id, sessionId: `S${m.session}`, createdAt: m.time, status: 'active', deletedAt: null, validFrom: m.time, validTo: null }));
    const ctx: PipelineContext = { hybrid: pc.index, spaces: f.spaces, matrix: f.matrix, sessionOf: f.sessionOf, neighboursOf: f.neighboursOf, now: 0, ranking: { ...DEFAULT_RANKING, ...cal.ranking }, hybridConfig: cal.hybrid };
    const text = new Map(pc.conv.memories.map((m) => [m.id, m]));
    for (const q of pc.queries) {
      const features = f.queryFeatures.get(q)!;
      const rs = runPipeline(ctx, { text: q.question, features }, { ...DEFAULT_PIPELINE_OPTIONS, topK: 50 });
      const ranked = rs.map((r) => r.id);
      const top = new Set(ranked.slice(0, 10));
      const esc = confidenceOf(rs.slice(0, 10).map((r) => r.score), 10, cal.confidence).value < 0.5;
      const primary = rs.map((r) => ({ id: r.id, score: r.score }));
      const pool = expandPool(ranked.slice(0, 10), { docs, entities: graph, communityOf: (id) => communities.get(id) }, {}, { cap: 50 });
      const read = (ids: string[]) => reader.readSync({ text: q.question, features }, ids.map((id) => ({ id, text: text.get(id)!.text, createdAt: text.get(id)!.time, features: f.spaces.features(id) })));
      const scores = read(pool.map((p) => p.id));
      acc('primary', esc, ranked, top, q.evidence);
      acc('current', esc, mergeDeep(primary.slice(0, 10), scores, { weight: 0.5, topK: 10 }).map((h) => h.id), top, q.evidence);
      // context credit: a temporal neighbour gets rho x its seed's reader score when that is higher
      const byId = new Map(scores.map((s) => [s.id, s]));
      for (const rho of [0.5, 0.8]) {
        const credited: ReaderScore[] = scores.map((s) => {
          const p = pool.find((x) => x.id === s.id)!;
          let best = s.score;
          for (const v of p.via) if (v.strategy === 'temporal' && !v.detail.includes('session')) best = Math.max(best, rho * (byId.get(v.seed)?.score ?? 0) * (v.detail.startsWith('1 ') ? 1 : 0.8));
          return { ...s, score: best };
        });
        acc(`context${rho}`, esc, mergeDeep(primary.slice(0, 10), credited, { weight: 0.5, topK: 10 }).map((h) => h.id), top, q.evidence);
      }
      // deeper pool: the primary ranks 11-30 read too; CombSUM of the two normalised lists
      const deepIds = [...new Set([...pool.map((p) => p.id), ...ranked.slice(10, 30)])];
      const deepScores = read(deepIds);
      const pmax = Math.max(...primary.map((h) => h.score), 1e-9);
      const rmax = Math.max(...deepScores.map((s) => s.score), 1e-9);
      const pOf = new Map(primary.slice(0, 30).map((h) => [h.id, h.score / pmax]));
      for (const w of [0.3, 0.5]) {
        const sum = deepScores.map((s) => ({ id: s.id, v: (1 - w) * (pOf.get(s.id) ?? 0) + (w * s.score) / rmax })).sort((a, b) => b.v - a.v || (a.id < b.id ? -1 : 1));
        acc(`combsum${w}`, esc, sum.map((x) => x.id), top, q.evidence);
      }
      acc('maxDeep30', esc, mergeDeep(primary.slice(0, 30), deepScores, { weight: 0.5, topK: 10 }).map((h) => h.id), top, q.evidence);
      const missing = q.evidence.filter((e) => !top.has(e));
      if (missing.length === 0) continue;
      const inPool = new Map(pool.map((p) => [p.id, p]));
      const readerTop = new Set(scores.sort((a, b) => b.score - a.score).slice(0, 10).map((s) => s.id));
      for (const e of missing) {
        n.missing++;
        const r = ranked.indexOf(e);
        if (r >= 10 && r < 30) n.deep30++;
        if (r >= 10 && r < 50) n.deep50++;
        const p = inPool.get(e);
        if (p) {
          n.pool++;
          for (const s of ['temporal', 'entity', 'community'] as const) if (p.via.some((v) => v.strategy === s)) n[s]++;
          if (readerTop.has(e)) n.readerTop++;
        }
      }
    }
  }
  const share = (x: number) => (x / n.missing).toFixed(3);
  console.log(`${file}: ${n.missing} missing evidence turns; primary ranks 11-30 ${share(n.deep30)}, 11-50 ${share(n.deep50)}; in the pool ${share(n.pool)} (temporal ${share(n.temporal)}, entity ${share(n.entity)}, community ${share(n.community)}); in the reader's top 10 of the pool ${share(n.readerTop)}`);
  for (const [name, v] of Object.entries(variants)) {
    const f2 = (t: V) => `R@10 ${((t.r / t.q) * 100).toFixed(1)} MRR ${((t.m / t.q) * 100).toFixed(1)} recovered ${(t.rec / Math.max(1, t.miss)).toFixed(3)} (${t.q} q)`;
    console.log(`${name.padEnd(12)} all: ${f2(v.all)} | escalated@0.5: ${f2(v.esc)}`);
  }
  await enc.dispose();
}
void main();
