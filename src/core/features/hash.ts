// Deterministic hashing and pseudo-random numbers, identical in Node and browsers.

/** FNV-1a 32-bit over UTF-16 code units. */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small, fast 32-bit PRNG; returns uint32 values. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** Deterministic numbers in [0, 1) from a seed: mulberry32 scaled down (synthetic data, benches). */
export function seededUniform(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
}

/** Term id of a feature string within a namespace, so E6 "run" and E7 "run" never collide by design. */
export function termId(namespace: string, term: string): number {
  return fnv1a(term, fnv1a(namespace));
}
