// The judge's cost in Node, per query: one query + D candidate texts embedded by a Transformers.js
// encoder (WASM by default, as in the browser; RUNTIME=cpu for onnxruntime-node), against MiniLM doing
// the same in the same process, alternated over rounds (docs/research/quality.md, "Fourth pass").
// A tool, not part of the app.
//   npx tsx scripts/lab/judge-bench.ts <judge folder under public/models> [D=30] [rounds=3] [dtype=q8]
import { readFileSync } from 'node:fs';
import { MINILM, type EncoderMeta } from '../../src/embed/encoders';
import { loadNodeTransformers } from '../lib/node-transformers';

async function main() {
  const [folder, dArg, rArg, dtype] = process.argv.slice(2);
  const D = Number(dArg ?? 30);
  const rounds = Number(rArg ?? 3);
  const judge: EncoderMeta = { ...MINILM, id: folder, label: folder, name: folder, dim: 768, maxTokens: 384, folder, dtype: (dtype ?? 'q8') as EncoderMeta['dtype'], cosineKnots: undefined };
  const runtime = (process.env.RUNTIME ?? 'wasm') as 'cpu' | 'wasm';
  const notes = JSON.parse(readFileSync('/work/shared/data/paraphrase-dev.json', 'utf8')) as { conversations?: unknown };
  // Real note texts: every string value of ≥ 20 characters under a "text" key.
  const texts: string[] = [];
  JSON.stringify(notes, (k, v: unknown) => {
    if (k === 'text' && typeof v === 'string' && v.length >= 20) texts.push(v);
    return v;
  });
  const t0 = performance.now();
  const j = await loadNodeTransformers(judge, { runtime, batchSize: 32 });
  const tJudgeLoad = performance.now() - t0;
  const t1 = performance.now();
  const m = await loadNodeTransformers(MINILM, { runtime, batchSize: 32 });
  const tMiniLoad = performance.now() - t1;
  const per: Record<string, number[]> = { judge: [], minilm: [] };
  for (let r = 0; r < rounds; r++) {
    for (const [name, enc] of [['judge', j], ['minilm', m]] as const) {
      const batch = texts.slice((r * D) % (texts.length - D), ((r * D) % (texts.length - D)) + D);
      const s = performance.now();
      await enc.embed(['when did I last change the car oil?']);
      await enc.embed(batch);
      per[name].push(performance.now() - s);
    }
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  console.log(JSON.stringify({ runtime, D, rounds, loadMs: { judge: Math.round(tJudgeLoad), minilm: Math.round(tMiniLoad) }, msPerQuery: { judge: per.judge.map(Math.round), minilm: per.minilm.map(Math.round) }, medianRatio: +(med(per.judge) / med(per.minilm)).toFixed(2), meanChars: Math.round(texts.reduce((a, t) => a + t.length, 0) / texts.length) }));
  await j.dispose();
  await m.dispose();
}
void main();
