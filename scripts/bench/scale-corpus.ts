// The synthetic corpus of the scale benchmark (`npm run bench:scale`, issue 13), seeded: the same
// seed and N give the same memories, features and query set on every run and machine.
//
// - Texts: 8-37 words drawn with Zipf(1) frequencies over the 30k most frequent words of the
//   featurizers' own vocabulary (public/generated word vectors, ordered by corpus frequency), with
//   names (E11) in ~30%, a "because" clause (E5) in ~15%, a line of code (E7) in ~3%, an image
//   caption (E10) in ~5%; 0-2 tags (Zipf over 30); sessions of 20; six years of creation times.
// - Features: the app's real featurizers for every space (src/features planFeatures / runPlan),
//   with a stand-in encoder that answers seeded random unit vectors of dimension 384 (E1, E5, E10),
//   so 100k memories do not need the model. Rows are made by the services' own `featureRows`,
//   tagged with MiniLM's id (the app's default encoder) and the featurizers' LEXICAL_ID, so the
//   app reuses them as current on restore instead of re-embedding.
// - Files (cache: ~/.cache/mnemograph/bench/scale-s<seed>-n<N>-<lexical id>/): `chunk-NNN.json`,
//   JSON backups (src/io buildBackup, vectors included) of CHUNK memories each, restored in the
//   page through the app's own import service; `e1.f32` (N x 384, the memories' E1 in order) and
//   `queries.json` (query texts and their seeded unit vectors) for the baselines.
//
//   npx tsx scripts/bench/scale-corpus.ts --n 10000 [--seed 13]   (generate / show the cache)
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { serializeFeatures } from '../../src/core/spaces';
import { textKey } from '../../src/core/text-key';
import { uuidv7At } from '../../src/core/ids';
import type { Memory } from '../../src/core/types';
import { MINILM_ID } from '../../src/embed/encoders';
import { planFeatures, runPlan, type FeaturizeInput } from '../../src/features';
import { buildBackup, serializeBackup } from '../../src/io';
import { LEXICAL_ID } from '../../src/protocol/embed';
import { featureRows } from '../../src/services/featurizer';
import { loadNodeResources } from '../lib/resources-node';
import { rng, unitVector, zipf } from '../lib/synthetic';

export const SCALE_DIM = 384;
export const CHUNK = 2000;
export const SESSION_SIZE = 20;
const VOCAB = 30_000;
const FEATURE_BATCH = 200;

const NAMES = ['Maria', 'Tom', 'Aisha', 'Kenji', 'Lucia', 'Omar', 'Grace', 'Ivan', 'Priya', 'Daniel', 'Lisbon', 'Tokyo', 'Berlin', 'Nairobi', 'Oslo', 'Chicago', 'Google', 'Acme', 'Red Cross', 'Mozilla'];
const TAGS = ['work', 'family', 'health', 'travel', 'music', 'cooking', 'garden', 'books', 'friends', 'pets', 'home', 'sport', 'money', 'ideas', 'school', 'film', 'art', 'car', 'coffee', 'news', 'code', 'kids', 'weather', 'shopping', 'dreams', 'games', 'recipes', 'walks', 'letters', 'plans'];
const CODE = ['const total = items.reduce((s, x) => s + x.price, 0);', 'SELECT name FROM users WHERE age > 30;', 'git rebase -i HEAD~3', 'def area(r): return 3.14159 * r * r'];

export interface CorpusQuery {
  text: string;
  /** A seeded unit vector of SCALE_DIM (for the baselines; the app embeds `text` itself). */
  vector: number[];
}

export interface CorpusMeta {
  n: number;
  seed: number;
  dim: number;
  encoder: string;
  lexical: string;
  chunks: string[];
  /** Present spaces' vector rows written, over all memories. */
  vectorRows: number;
  generatedMs: number;
}

export interface Corpus extends CorpusMeta {
  dir: string;
}

export const cacheRoot = (): string => process.env.MNEMOGRAPH_BENCH_CACHE ?? join(homedir(), '.cache/mnemograph/bench');

export function corpusDir(n: number, seed: number, root = cacheRoot()): string {
  return join(root, `scale-s${seed}-n${n}-${LEXICAL_ID.replace(/[^A-Za-z0-9.-]+/g, '_')}`);
}

function words(pick: () => number, vocab: readonly string[], count: number): string[] {
  return Array.from({ length: count }, () => vocab[pick()]!);
}

/** Query texts: 2-5 words of the same Zipf vocabulary, skipping the 100 commonest (stop words). */
export function makeQueries(count: number, seed: number, vocab: readonly string[]): CorpusQuery[] {
  const rand = rng(seed ^ 0x51ab);
  const pick = zipf(vocab.length - 100, rand);
  return Array.from({ length: count }, () => ({
    text: words(() => 100 + pick(), vocab, 2 + Math.floor(rand() * 4)).join(' '),
    vector: Array.from(unitVector(rand, SCALE_DIM), (x) => Math.round(x * 1e6) / 1e6),
  }));
}

/** The corpus for (n, seed): read from the cache, else generated (and cached). */
export async function ensureCorpus(n: number, seed: number, log: (s: string) => void = console.log): Promise<Corpus> {
  const dir = corpusDir(n, seed);
  const metaFile = join(dir, 'meta.json');
  if (existsSync(metaFile)) return { ...(JSON.parse(readFileSync(metaFile, 'utf8')) as CorpusMeta), dir };
  const t0 = performance.now();
  const tmp = `${dir}.part-${process.pid}`;
  mkdirSync(tmp, { recursive: true });
  const resources = await loadNodeResources();
  const vocab = resources.vectors.words.slice(0, VOCAB).filter((w) => /^[a-z][a-z'-]*$/.test(w));
  const rand = rng(seed);
  const vecRand = rng(seed ^ 0x9e3779b9);
  const pickWord = zipf(vocab.length, rand);
  const pickTag = zipf(TAGS.length, rand);
  const encoder = { embed: async (texts: string[]) => texts.map(() => unitVector(vecRand, SCALE_DIM)) };
  const e1 = new Float32Array(n * SCALE_DIM);
  const start = Date.UTC(2019, 0, 1);
  const span = 6 * 365 * 86_400_000;
  const chunks: string[] = [];
  let vectorRows = 0;
  for (let c = 0; c * CHUNK < n; c++) {
    const memories: Memory[] = [];
    const vectors: ReturnType<typeof featureRows> = [];
    for (let b = c * CHUNK; b < Math.min(n, (c + 1) * CHUNK); b += FEATURE_BATCH) {
      const inputs: (FeaturizeInput & { memory: Memory })[] = [];
      for (let i = b; i < Math.min(n, (c + 1) * CHUNK, b + FEATURE_BATCH); i++) {
        let text = words(pickWord, vocab, 8 + Math.floor(rand() * 30)).join(' ');
        text = text[0]!.toUpperCase() + text.slice(1);
        if (rand() < 0.3) text += ` with ${NAMES[Math.floor(rand() * NAMES.length)]} in ${NAMES[10 + Math.floor(rand() * 10)]}`;
        if (rand() < 0.15) text += ` because ${words(pickWord, vocab, 4 + Math.floor(rand() * 6)).join(' ')}`;
        if (rand() < 0.03) text += `\n${CODE[Math.floor(rand() * CODE.length)]}`;
        text += '.';
        const media = rand() < 0.05 ? [{ caption: `a photo of ${words(pickWord, vocab, 3).join(' ')}` }] : undefined;
        const createdAt = start + Math.floor(((i + rand()) / n) * span);
        const tags = [...new Set(Array.from({ length: Math.floor(rand() * 3) }, () => TAGS[pickTag()]!))];
        const idBytes = (bytes: Uint8Array) => bytes.map(() => Math.floor(rand() * 256));
        const memory: Memory = {
          id: uuidv7At(createdAt, idBytes),
          text,
          tags,
          suggestedTags: [],
          importance: Math.round(rand() * 20) / 20,
          createdAt,
          updatedAt: createdAt,
          validFrom: createdAt,
          validTo: null,
          sessionId: `bench-${seed}-s${Math.floor(i / SESSION_SIZE)}`,
          status: 'active',
          deletedAt: null,
          embedTruncated: false,
          recordedAt: createdAt,
          lastAccessedAt: createdAt,
          strength: 1,
          ...(media && { media }),
        };
        (memory as Memory & { textKey: string }).textKey = textKey(text);
        inputs.push({ memory, text, createdAt, sessionPosition: i % SESSION_SIZE, media });
      }
      const features = await runPlan(planFeatures(inputs, resources), encoder);
      features.forEach((f, k) => {
        const m = inputs[k]!.memory;
        e1.set(f.E1 as Float32Array, (b + k) * SCALE_DIM);
        const rows = featureRows(m.id, serializeFeatures(f), { encoder: MINILM_ID, lexical: LEXICAL_ID });
        vectorRows += rows.length;
        memories.push(m);
        vectors.push(...rows);
      });
    }
    const name = `chunk-${String(c).padStart(3, '0')}.json`;
    const doc = buildBackup({ memories, feedback: [], settings: [], vectors }, { app: { name: 'mnemograph', version: 'bench-scale' }, now: start, includeVectors: true });
    writeFileSync(join(tmp, name), serializeBackup(doc));
    chunks.push(name);
    log(`[scale-corpus] n=${n}: ${Math.min(n, (c + 1) * CHUNK)} memories featurized (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
  writeFileSync(join(tmp, 'e1.f32'), new Uint8Array(e1.buffer));
  writeFileSync(join(tmp, 'queries.json'), JSON.stringify(makeQueries(200, seed, vocab)));
  const meta: CorpusMeta = { n, seed, dim: SCALE_DIM, encoder: MINILM_ID, lexical: LEXICAL_ID, chunks, vectorRows, generatedMs: Math.round(performance.now() - t0) };
  writeFileSync(join(tmp, 'meta.json'), JSON.stringify(meta, null, 2));
  mkdirSync(resolve(dir, '..'), { recursive: true });
  renameSync(tmp, dir);
  return { ...meta, dir };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const arg = (k: string, d: number) => {
    const i = process.argv.indexOf(k);
    return i >= 0 ? Number(process.argv[i + 1]) : d;
  };
  ensureCorpus(arg('--n', 1000), arg('--seed', 13)).then(
    (c) => console.log(JSON.stringify({ ...c, chunks: c.chunks.length })),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
