// What careful ranking's judge adds to an escalated query (issue 11, workers/engine-deep.ts), in Node:
//   engine   one LoCoMo dev conversation in an EngineCore (its turns' texts, random unit E1 vectors:
//            the reader's cost shape, not its quality), every question escalated (threshold 1,
//            active), alternating per question: the offline reader vs the judge reader with the
//            pool's judge vectors given (768-d, as the services hand them) -> ms per escalated recall
//   query    the judge's vector of a question (MPNet int8, Transformers.js in Node), the cost the
//            services pay once per escalation, against MiniLM's query vector in the same process
// Prints the load average beside every figure; never fails on a timing.
//
//   npx tsx scripts/bench/deep-judge.ts [--data /work/shared/data/locomo-dev.json] [--no-model]   (ROUNDS=3, Q=60)
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { serializeSpace } from '../../src/core/spaces';
import type { EngineJudgeSource } from '../../src/protocol/engine';
import { MINILM, MPNET_JUDGE } from '../../src/embed/encoders';
import { engineDoc } from '../../src/testing/engine';
import { EngineCore } from '../../workers/engine-core';
import { loadLocomo } from '../lib/locomo';
import { MODELS_DIR, loadNodeTransformers } from '../lib/node-transformers';

const args = process.argv.slice(2);
const DATA = args.includes('--data') ? args[args.indexOf('--data') + 1] : '/work/shared/data/locomo-dev.json';
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const Q = Number(process.env.Q ?? 60);
const load = () => loadavg().map((x) => x.toFixed(1)).join(' / ');

/** A seeded unit vector (mulberry32). */
function unit(dim: number, seed: number): Float32Array {
  let a = seed >>> 0;
  const v = new Float32Array(dim);
  let n = 0;
  for (let i = 0; i < dim; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    v[i] = ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
    n += v[i] * v[i];
  }
  for (let i = 0; i < dim; i++) v[i] /= Math.sqrt(n);
  return v;
}
const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: +s[Math.floor(s.length / 2)].toFixed(2), p95: +s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)].toFixed(2), mean: +(s.reduce((a, b) => a + b, 0) / s.length).toFixed(2) };
};

async function engine(): Promise<void> {
  const conv = (await loadLocomo(DATA))[0];
  const core = new EngineCore();
  core.load(
    conv.memories.map((m, i) => ({ ...engineDoc(m.id, m.text, [...unit(384, i + 1)]), createdAt: m.time, validFrom: m.time, sessionId: `s${m.session}` })),
    { dim: 384 },
  );
  const judgeVectors = new Map(conv.memories.map((m, i) => [m.id, unit(768, 100_000 + i)]));
  const questions = conv.queries.slice(0, Q);
  const judge: EngineJudgeSource = async (ids) => ({ query: unit(768, 7), vectors: Object.fromEntries(ids.flatMap((id) => (judgeVectors.has(id) ? [[id, judgeVectors.get(id)!]] : []))), queryMs: 0 });
  const opts = { topK: 10, deepSearch: { mode: 'active' as const, threshold: 1, rateLimit: 1000 } };
  const ms = { offline: [] as number[], judge: [] as number[] };
  let judged = 0;
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, qa] of questions.entries()) {
      const q = { text: qa.question, features: { E1: serializeSpace('E1', unit(384, 50_000 + i)) }, sessionId: `bench${r}` };
      // alternate which goes first, so neither always runs on a warmer cache
      for (const which of (i + r) % 2 === 0 ? (['offline', 'judge'] as const) : (['judge', 'offline'] as const)) {
        const t0 = performance.now();
        const out = await core.recall(q, opts, undefined, which === 'judge' ? judge : undefined);
        ms[which].push(performance.now() - t0);
        if (which === 'judge' && out.deepSearch?.judge) judged++;
      }
    }
  }
  const a = stat(ms.offline);
  const b = stat(ms.judge);
  console.log(`[bench:deep-judge] engine, ${conv.memories.length} memories, ${questions.length} questions x ${ROUNDS} rounds (load ${load()}):`);
  console.log(`  escalated recall, offline reader: ${JSON.stringify(a)} ms`);
  console.log(`  escalated recall, judge reader (vectors given): ${JSON.stringify(b)} ms; read by the judge ${judged} of ${ms.judge.length}`);
  console.log(`  added: median ${(b.median - a.median).toFixed(2)} ms, ratio of medians ${(b.median / a.median).toFixed(3)}`);
}

async function queryVector(): Promise<void> {
  if (!existsSync(join(MODELS_DIR, MPNET_JUDGE.folder!, 'onnx', 'model_quantized.onnx'))) {
    console.log('[bench:deep-judge] query: the judge is not built here (public/models/all-mpnet-base-v2-int8)');
    return;
  }
  const questions = (await loadLocomo(DATA))[0].queries.slice(0, 20).map((q) => q.question);
  const judge = await loadNodeTransformers(MPNET_JUDGE, { runtime: 'auto', batchSize: 1 });
  const minilm = await loadNodeTransformers(MINILM, { runtime: 'auto', batchSize: 1 });
  try {
    await judge.embed([questions[0]]);
    await minilm.embed([questions[0]]);
    const ms = { judge: [] as number[], minilm: [] as number[] };
    for (const [i, t] of questions.entries()) {
      for (const which of i % 2 === 0 ? (['judge', 'minilm'] as const) : (['minilm', 'judge'] as const)) {
        const t0 = performance.now();
        await (which === 'judge' ? judge : minilm).embed([t]);
        ms[which].push(performance.now() - t0);
      }
    }
    const j = stat(ms.judge);
    const m = stat(ms.minilm);
    console.log(`[bench:deep-judge] query vector, ${questions.length} questions, one per call (load ${load()}):`);
    console.log(`  judge (MPNet int8): ${JSON.stringify(j)} ms; MiniLM: ${JSON.stringify(m)} ms; judge / MiniLM medians ${(j.median / m.median).toFixed(2)}`);
  } finally {
    judge.dispose();
    minilm.dispose();
  }
}

await engine();
if (!args.includes('--no-model')) await queryVector();
