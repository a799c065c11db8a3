// Raw onnxruntime-web (WASM, the browser's kernels) in Node: texts/s of several ONNX files of the
// same encoder on fixed input shapes, interleaved rounds (order reversed every other round), with
// the load average per round. Issue 13's screening of model files before a Chromium A/B
// (docs/benchmarks.md, "Ingest"; the variants come from scripts/lab/minilm-integer.py).
//
//   MODELS=shipped=public/models/all-MiniLM-L6-v2-int8/onnx/model_quantized.onnx,tok=/tmp/tok.onnx \
//   SHAPES=1x30,32x32 THREADS=1 ROUNDS=3 [OPT=all] node scripts/lab/ort-model-ab.mjs
import { createRequire } from 'node:module';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const dir = dirname(require.resolve('onnxruntime-web'));
const ort = await import(pathToFileURL(join(dir, 'ort.node.min.mjs')).href);
ort.env.wasm.wasmPaths = pathToFileURL(dir + '/').href;
ort.env.wasm.numThreads = Number(process.env.THREADS ?? 1);
const models = (process.env.MODELS ?? 'shipped=public/models/all-MiniLM-L6-v2-int8/onnx/model_quantized.onnx').split(',').map((s) => s.split('='));
const shapes = (process.env.SHAPES ?? '1x30,32x32').split(',').map((s) => s.split('x').map(Number));
const rounds = Number(process.env.ROUNDS ?? 3);

/** Token ids that are not padding (every row full length): [CLS] ... [SEP]. */
function feeds(b, s) {
  const n = b * s;
  const ids = new BigInt64Array(n), mask = new BigInt64Array(n).fill(1n), tt = new BigInt64Array(n);
  for (let r = 0; r < b; r++) for (let c = 0; c < s; c++) ids[r * s + c] = BigInt(c === 0 ? 101 : c === s - 1 ? 102 : 1000 + ((r * 7919 + c * 104729) % 28000));
  return { input_ids: new ort.Tensor('int64', ids, [b, s]), attention_mask: new ort.Tensor('int64', mask, [b, s]), token_type_ids: new ort.Tensor('int64', tt, [b, s]) };
}

const sessions = {};
for (const [name, path] of models) {
  const t = performance.now();
  sessions[name] = await ort.InferenceSession.create(path, { executionProviders: ['wasm'], graphOptimizationLevel: process.env.OPT ?? 'all' });
  console.log(`session ${name}: ${(performance.now() - t).toFixed(0)} ms (load ${os.loadavg()[0].toFixed(1)})`);
}
const rates = {};
for (let r = 0; r < rounds; r++) {
  for (const [name] of r % 2 ? [...models].reverse() : models) {
    for (const [b, s] of shapes) {
      const f = feeds(b, s);
      await sessions[name].run(f); // warm
      const reps = Math.max(2, Math.round(3000 / (b * s)));
      const t = performance.now();
      for (let k = 0; k < reps; k++) await sessions[name].run(f);
      (rates[`${name} ${b}x${s}`] ??= []).push((b * reps * 1000) / (performance.now() - t));
    }
  }
  console.log(`round ${r + 1} done (load ${os.loadavg()[0].toFixed(1)})`);
}
const first = {};
for (const [key, v] of Object.entries(rates)) {
  const med = [...v].sort((a, b) => a - b)[v.length >> 1];
  const shape = key.split(' ')[1];
  first[shape] ??= med;
  console.log(`${key.padEnd(24)} ${med.toFixed(1)} texts/s  x${(med / first[shape]).toFixed(2)}  [${v.map((x) => x.toFixed(1)).join(', ')}]`);
}
process.exit(0);
