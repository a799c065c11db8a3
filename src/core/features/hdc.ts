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

/**
 * Bitwise majority without per-bit loops: per-bit counters kept as bit planes (a ripple-carry
 * adder over 32-bit words), so adding one hypervector costs a few word operations per word.
 */
class MajorityCounter {
  private planes: Uint32Array[] = [];
  n = 0;
  add(v: Uint32Array): void {
    for (let w = 0; w < WORDS; w++) {
      let carry = v[w];
      for (let p = 0; carry !== 0; p++) {
        if (p === this.planes.length) this.planes.push(new Uint32Array(WORDS));
        const plane = this.planes[p];
        const t = plane[w] & carry;
        plane[w] ^= carry;
        carry = t;
      }
    }
    this.n++;
  }
  /** Bit set where more than half the added vectors had it; exact ties take `tie`'s bit. */
  result(tie: Uint32Array): Uint8Array {
    const out = new Uint8Array(HDC_BITS / 8);
    const half = this.n / 2;
    for (let w = 0; w < WORDS; w++) {
      for (let b = 0; b < 32; b++) {
        let c = 0;
        for (let p = 0; p < this.planes.length; p++) c += ((this.planes[p][w] >>> b) & 1) << p;
        const bit = w * 32 + b;
        if (c > half || (c === half && ((tie[w] >>> b) & 1) === 1)) out[bit >>> 3] |= 1 << (bit & 7);
      }
    }
    return out;
  }
}

export function hdcFeatures(text: string): Uint8Array | undefined {
  const terms = analyzeWithSurface(text, { stopwords: false }).map((t) => t.term);
  if (!terms.length) return undefined;
  const acc = new MajorityCounter();
  const gram = new Uint32Array(WORDS);
  for (let i = 0; i < terms.length; i++) {
    acc.add(termVector(terms[i]));
    for (let len = 2; len <= 3 && i + len <= terms.length; len++) {
      rotateInto(gram, termVector(terms[i]), 0, false);
      for (let k = 1; k < len; k++) rotateInto(gram, termVector(terms[i + k]), k, true);
      acc.add(gram);
    }
  }
  // ties (possible with an even count) broken by a fixed random vector: deterministic output
  return acc.result(termVector('\u0000tie'));
}
