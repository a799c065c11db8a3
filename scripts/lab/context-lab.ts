// Lab (a tool, not part of the app): conversation-context techniques and the deep-search
// confidence features, on both dev files with one encoder, over the app's shipped ranking.
//   npx tsx scripts/lab/context-lab.ts [encoder] [--conf out.json]
// Rows: app (the shipped ranking), ctxVec γ (each turn's E1 = normalize(v + γ Σ same-session ±1
// neighbours' v): contextual document vectors from the cached turn vectors), smooth λ (the app's
// top 50 plus their ±1 neighbours re-scored s + λ × max neighbour score).
// --conf: writes per query { file, top, gap, count, hit } (hit = any evidence in the top 10) for
// the confidence fit (scripts/lab/fit-confidence.ts).
import { writeFileSync } from 'node:fs';
import { calibrationFor, DEFAULT_PIPELINE_OPTIONS, DEFAULT_RANKING, runPipeline, type PipelineContext } from '../../src/core/pipeline';
import { confidenceOf } from '../../src/core/deep';
import { normalize } from '../../src/core/vector';
import { loadLocomo, type Conversation } from '../lib/locomo';
import { featurizeAll, type FeaturizedConversation } from '../lib/eval-systems';
import { evaluate, formatTable, loadEmbed, prepare, type EmbedFn, type PreparedConversation, type RetrievalSystem } from '../eval-locomo';

const args = process.argv.slice(2);
const encoder = args[0] && !args[0].startsWith('--') ? args[0] : 'minilm';
const confOut = args.includes('--conf') ? args[args.indexOf('--conf') + 1] : undefined;
const list = (v: string | undefined, d: string) => (v ?? d).split(',').filter(Boolean).map(Number);
const GAMMAS = list(process.env.GAMMAS, '0.25,0.5');
const LAMBDAS = list(process.env.LAMBDAS, '0.1,0.2,0.3');

/** Contextual vectors: each turn plus γ × its same-session neighbours (±1), renormalised. */
function contextEmbed(conv: Conversation, embed: EmbedFn, gamma: number): EmbedFn {
  return async (texts) => {
    const vs = await embed(texts);
    if (texts.length !== conv.memories.length) return vs;
    return vs.map((v, i) => {
      const out = v.slice();
      for (const j of [i - 1, i + 1]) {
        const m = conv.memories[j];
        if (!m || m.session !== conv.memories[i].session) continue;
        for (let d = 0; d < out.length; d++) out[d] += gamma * vs[j][d];
      }
      return normalize(out);
    });
  };
}

async function main() {
  const enc = await loadEmbed(encoder);
  const cal = calibrationFor(enc.id);
  const { loadNodeResources } = await import('../lib/resources-node');
  const res = await loadNodeResources();
  const conf: { file: string; top: number; gap: number; count: number; spread: number; s10: number; evidence: number; hit: number; all: number }[] = [];
  for (const file of ['paraphrase', 'locomo']) {
    const convs = await loadLocomo(`/work/shared/data/${file}-dev.json`);
    const prepared = await prepare(convs, enc.embed, { dim: enc.dim, embedQueries: enc.embedQueries });
    const feats = await featurizeAll(prepared, res, enc.embed);
    const ctxOf = (pc: PreparedConversation, f: FeaturizedConversation): PipelineContext => ({
      hybrid: pc.index, spaces: f.spaces, matrix: f.matrix, sessionOf: f.sessionOf, neighboursOf: f.neighboursOf, now: 0,
      ranking: { ...DEFAULT_RANKING, ...cal.ranking }, hybridConfig: cal.hybrid,
    });
    const app = (name: string, fs: Map<PreparedConversation, FeaturizedConversation>): RetrievalSystem => ({
      name,
      rank: (pc, q) => {
        const f = fs.get(pc)!;
        const rs = runPipeline(ctxOf(pc, f), { text: q.question, features: f.queryFeatures.get(q)! }, { ...DEFAULT_PIPELINE_OPTIONS, topK: 10 });
        if (confOut && name === 'app') {
          const c = confidenceOf(rs.map((r) => r.score), 10);
          const ev = new Set(q.evidence);
          const got = rs.slice(0, 10).filter((r) => ev.has(r.id)).length;
          conf.push({ file, top: c.top, gap: c.gap, count: c.count, spread: c.spread, s10: rs[9]?.score ?? 0, evidence: rs.reduce((m, r) => Math.max(m, r.why.coverage ?? 0), 0), hit: got > 0 ? 1 : 0, all: got === ev.size ? 1 : 0 });
        }
        return rs.map((r) => r.id);
      },
    });
    const smooth = (lambda: number): RetrievalSystem => ({
      name: `smooth${lambda}`,
      rank: (pc, q) => {
        const f = feats.get(pc)!;
        const rs = runPipeline(ctxOf(pc, f), { text: q.question, features: f.queryFeatures.get(q)! }, { ...DEFAULT_PIPELINE_OPTIONS, topK: 50 });
        const score = new Map(rs.map((r) => [r.id, r.score]));
        const pos = new Map(pc.conv.memories.map((m, i) => [m.id, i]));
        const cands = new Set(score.keys());
        for (const id of score.keys()) {
          const i = pos.get(id)!;
          for (const j of [i - 1, i + 1]) {
            const m = pc.conv.memories[j];
            if (m && m.session === pc.conv.memories[i].session) cands.add(m.id);
          }
        }
        const out = [...cands].map((id) => {
          const i = pos.get(id)!;
          let nb = 0;
          for (const j of [i - 1, i + 1]) {
            const m = pc.conv.memories[j];
            if (m && m.session === pc.conv.memories[i].session) nb = Math.max(nb, score.get(m.id) ?? 0);
          }
          return { id, s: (score.get(id) ?? 0) + lambda * nb };
        });
        return out.sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : 1)).slice(0, 10).map((x) => x.id);
      },
    });
    const systems: RetrievalSystem[] = [app('app', feats), ...LAMBDAS.map(smooth)];
    const reports = evaluate(prepared, systems);
    for (const gamma of GAMMAS) {
      const pcs: PreparedConversation[] = [];
      for (const conv of convs) pcs.push(...(await prepare([conv], contextEmbed(conv, enc.embed, gamma), { dim: enc.dim, embedQueries: enc.embedQueries })));
      const f2 = await featurizeAll(pcs, res, enc.embed);
      Object.assign(reports, evaluate(pcs, [app(`ctxVec${gamma}`, f2)]));
    }
    console.log(`\n== ${file} (${enc.id})`);
    console.log(formatTable(reports));
    for (const [name, r] of Object.entries(reports))
      console.log(`${name}: ${Object.entries(r.perCategory).map(([c, t]) => `c${c} ${t.r10}/${t.ndcg10}/${t.mrr10}`).join('  ')}`);
  }
  if (confOut) writeFileSync(confOut, JSON.stringify(conf));
  await enc.dispose();
}
void main();
