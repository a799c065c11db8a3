// The deduplication key: re-running an import skips what is already there. Two drafts are the
// same memory when their text, creation time and source are the same. The key is stored with
// (or computed from) each memory, so it must never change meaning: a change needs a migration.

import type { ValidMemoryInput } from '../core/validate';

/**
 * What the key covers. Text is NFC-normalised with CRLF / CR as LF, so a file saved on another
 * system or by another editor still matches; createdAt is epoch ms ('' when absent, i.e. "now at
 * write time", so a plain note without date matches on text and source only); source as stored.
 */
export function dedupeMaterial(d: Pick<ValidMemoryInput, 'text' | 'createdAt' | 'source'>): string {
  const text = d.text.replace(/\r\n?/g, '\n').normalize('NFC');
  return `${text}\u0000${d.createdAt ?? ''}\u0000${d.source ?? ''}`;
}

/**
 * A stable 64-bit content hash (16 hex digits) of dedupeMaterial: two independent 32-bit
 * multiply-xorshift hashes over the UTF-16 code units (cyrb53's mixing, both halves kept).
 * Not cryptographic: it only has to tell a person's own memories apart (about 1 collision in
 * 2^32 pairs), and it is synchronous so a 50k-item preview stays a plain loop.
 */
export function dedupeKey(d: Pick<ValidMemoryInput, 'text' | 'createdAt' | 'source'>): string {
  const s = dedupeMaterial(d);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}
