// E9: a hyperdimensional binary vector (HDC / vector-symbolic architecture). Each term gets a
// seeded random hypervector; an n-gram binds its terms by rotating each by its offset and
// XOR-ing them (so order matters: "dog bites man" != "man bites dog"); all unigrams, bigrams
// and trigrams are bundled by bitwise majority. Similar compositional structure -> many shared
// bits. Unrelated texts sit near 0.5 Hamming similarity, identical ones at 1.

import { fnv1a, mulberry32 } from './hash';
import { analyzeWithSurface } from './tokens';

export const HDC_BITS = 4096;
const WORDS = HDC_BITS / 32;
const cache = new Map<string, Uint32Array>();
const CACHE_MAX = 20_000;

function termVector(term: string): Uint32Array {
  let v = cache.get(term);
  if (v) return v;
  const rnd = mulberry32(fnv1a(term, 0x9e3779b9));
  v = new Uint32Array(WORDS);
  for (let i = 0; i < WORDS; i++) v[i] = rnd();
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(term, v);
  return v;
}

/** Rotate by whole 32-bit words: a cheap permutation that still decorrelates positions. */
function rotateInto(out: Uint32Array, v: Uint32Array, shift: number, xor: boolean): void {
  for (let i = 0; i < WORDS; i++) {
    const x = v[(i + shift) % WORDS];
    out[i] = xor ? out[i] ^ x : x;
  }
}

export function hdcFeatures(text: string): Uint8Array | undefined {
  const terms = analyzeWithSurface(text, { stopwords: false }).map((t) => t.term);
  if (!terms.length) return undefined;
  const counts = new Int16Array(HDC_BITS);
  let n = 0;
  const gram = new Uint32Array(WORDS);
  const addGram = (g: Uint32Array) => {
    for (let w = 0; w < WORDS; w++) {
      const x = g[w];
      const base = w * 32;
      for (let b = 0; b < 32; b++) counts[base + b] += (x >>> b) & 1 ? 1 : -1;
    }
    n++;
  };
  for (let i = 0; i < terms.length; i++) {
    addGram(termVector(terms[i]));
    for (let len = 2; len <= 3 && i + len <= terms.length; len++) {
      rotateInto(gram, termVector(terms[i]), 0, false);
      for (let k = 1; k < len; k++) rotateInto(gram, termVector(terms[i + k]), k, true);
      addGram(gram);
    }
  }
  // majority; ties (even counts) broken by a fixed random vector so the result is deterministic
  const tie = termVector('\u0000tie');
  const out = new Uint8Array(HDC_BITS / 8);
  for (let bit = 0; bit < HDC_BITS; bit++) {
    const c = counts[bit];
    const on = c > 0 || (c === 0 && ((tie[bit >>> 5] >>> (bit & 31)) & 1) === 1);
    if (on) out[bit >>> 3] |= 1 << (bit & 7);
  }
  void n;
  return out;
}
