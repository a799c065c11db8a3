// Builds public/generated/sample-vectors.bin (git-ignored): the E1 vector of each sample memory's
// text, made by the app's default encoder (MiniLM; USE-lite where its folder could not be built) in Node, so "Load sample collection" skips encoding
// the 323 texts (src/sample/vectors.ts has the format; the services use the vectors only when
// the running encoder is the one named in the file). Skips the work when the file is current
// (same encoder id and sample texts). Usage: npx tsx scripts/build-sample-vectors.ts [--force]
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSampleMemories } from '../src/sample';
import { decodeSampleVectors, encodeSampleVectors, SAMPLE_VECTORS_FILE, textsHash } from '../src/sample/vectors';
import { prepareForEmbedding } from '../src/embed/types';
import { DEFAULT_ENCODER_ID, FALLBACK_ENCODER_ID, encoderMeta } from '../src/embed/encoders';
import { loadNodeEmbedder } from './lib/node-embedder';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'public/generated', SAMPLE_VECTORS_FILE);

/** The encoder the app will run: the default when its model folder was built (fetch-models), else the fallback. */
function appEncoderId(): string {
  const folder = encoderMeta(DEFAULT_ENCODER_ID)?.folder;
  return folder && existsSync(join(root, 'public/models', folder, 'config.json')) ? DEFAULT_ENCODER_ID : FALLBACK_ENCODER_ID;
}

async function main(): Promise<void> {
  const texts = (await loadSampleMemories()).map((m) => m.text);
  const hash = textsHash(texts);
  const want = appEncoderId();
  // checked before loading the model, so a current file costs nothing
  if (!process.argv.includes('--force') && existsSync(out)) {
    try {
      const b = readFileSync(out);
      const have = decodeSampleVectors(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
      if (have.model === want && have.textsHash === hash && have.count === texts.length) {
        console.log(`${SAMPLE_VECTORS_FILE} is current (${have.count} × ${have.dim}, ${have.model})`);
        return;
      }
    } catch {
      /* unreadable: rebuilt below */
    }
  }
  const t0 = performance.now();
  const encoder = await loadNodeEmbedder(want, { batchSize: 32 });
  const { id, dim } = encoder.info();
  // the text exactly as the embed worker hands it to the encoder (its bounded prefix)
  const vectors = await encoder.embed(texts.map((t) => prepareForEmbedding(t).text));
  await encoder.dispose();
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, encodeSampleVectors({ model: id, dim, textsHash: hash }, vectors));
  console.log(`${SAMPLE_VECTORS_FILE}: ${vectors.length} × ${dim} (${id}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

await main();
