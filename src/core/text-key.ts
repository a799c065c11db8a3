// "Already saved": two texts are the same memory when they are equal after trimming and turning
// every whitespace run into one space (so a pasted copy with other line breaks or indentation
// still counts). The key is a hash of that form, stored and indexed on each memory row (schema
// v6); equal keys are confirmed by comparing the normalised texts (a hash can collide).

/** Trimmed, every run of whitespace (spaces, tabs, line breaks) as one space. */
export function normaliseForDuplicate(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}

/** FNV-1a 32-bit over UTF-16 code units, seeded. */
function fnv1a(s: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The duplicate key of `text`: two FNV-1a hashes (different seeds) and the length of its normalised form. */
export function textKey(text: string): string {
  const n = normaliseForDuplicate(text);
  return `${fnv1a(n, 0x811c9dc5).toString(16).padStart(8, '0')}${fnv1a(n, 0x2f6b2c1d).toString(16).padStart(8, '0')}-${n.length.toString(36)}`;
}

/** Whether two texts are the same memory by the rule above. */
export function sameText(a: string, b: string): boolean {
  return normaliseForDuplicate(a) === normaliseForDuplicate(b);
}
