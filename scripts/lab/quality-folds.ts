// Ranking variants over the encoder's shipped calibration on both dev files, each reported on the
// whole file and on its two halves (LoCoMo by conversation, the notes by person), so a setting
// tuned on one half can be confirmed on the other (a tool, not part of the app).
//   npx tsx scripts/lab/quality-folds.ts <encoder> <variants.json>
// variants.json: [{ "name", "ranking"?: Partial<RankingConfig>, "hybrid"?: Partial<HybridConfig> }]
// Folds: A = conv-26, conv-41, conv-43 / para-dev-1, para-dev-3; B = conv-30, conv-42 / para-dev-2.
import { readFileSync } from 'node:fs';
import type { HybridConfig } from '../../src/core/hybrid';
import { calibrationFor, type RankingConfig } from '../../src/core/pipeline';
import { loadLocomo } from '../lib/locomo';
import { attachTokens, featurizeAll, pipelineSystem } from '../lib/eval-systems';
import { resolveEncoder } from '../lib/node-embedder';
import { evaluate, loadEmbed, prepare, bm25System, denseSystem, type RetrievalSystem, type SystemReport } from '../eval-locomo';

interface Variant { name: string; hybrid?: Partial<HybridConfig>; ranking?: Partial<RankingConfig> }
export const FOLD_A = new Set(['conv-26', 'conv-41', 'conv-43', 'para-dev-1', 'para-dev-3']);

const fmt = (r: SystemReport) => `${r.r10.toFixed(1)}/${r.ndcg10.toFixed(1)}/${r.mrr10.toFixed(1)}/${r.top1.toFixed(1)}`;

async function main() {
  const [encoder, file] = process.argv.slice(2);
  const variants = JSON.parse(readFileSync(file, 'utf8')) as Variant[];
  const enc = await loadEmbed(encoder);
  const cal = calibrationFor(enc.id);
  const { loadNodeResources } = await import('../lib/resources-node');
  const res = await loadNodeResources();
  console.log('file       system                          all (R@10/nDCG/MRR/top1)   fold A                     fold B                     ms median/p95');
  for (const data of ['paraphrase', 'locomo']) {
    const convs = await loadLocomo(`/work/shared/data/${data}-dev.json`);
    const prepared = await prepare(convs, enc.embed, { dim: enc.dim, embedQueries: enc.embedQueries });
    const feats = await featurizeAll(prepared, res, enc.embed);
    await attachTokens(prepared, feats, resolveEncoder(enc.id));
    const systems: RetrievalSystem[] = [bm25System, denseSystem];
    for (const v of variants) systems.push(pipelineSystem(v.name, feats, { ...cal.ranking, ...v.ranking }, { assocHops: 0 }, { ...cal.hybrid, ...v.hybrid }));
    const all = evaluate(prepared, systems);
    const a = evaluate(prepared.filter((p) => FOLD_A.has(p.conv.sampleId)), systems);
    const b = evaluate(prepared.filter((p) => !FOLD_A.has(p.conv.sampleId)), systems);
    for (const s of systems) {
      const r = all[s.name];
      console.log(`${data.padEnd(10)} ${s.name.padEnd(31)} ${fmt(r).padEnd(26)} ${fmt(a[s.name]).padEnd(26)} ${fmt(b[s.name]).padEnd(26)} ${r.medianMs.toFixed(1)}/${r.p95Ms.toFixed(1)}`);
    }
  }
  await enc.dispose();
}
void main();
