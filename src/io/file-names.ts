// File names for the Markdown archive: readable (a slug of the memory's first line), unique (a
// short id, then a counter), and safe on every system a zip may be opened on: no separators, no
// "..", no control characters, no Windows reserved device names, no trailing dot or space.

import { isFenceLine } from '../core/text/title';

const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;
const MAX_SLUG = 50;

/** The first line with text (a code fence's opening line is not: a snippet is named by its code), without Markdown markers, as lowercase words joined by '-'. */
export function slugOf(text: string): string {
  const first = text.split(/\r\n|\r|\n/).find((l) => l.trim() && !isFenceLine(l)) ?? '';
  const words = first
    .replace(/^\s*(?:#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)*/, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  const cut = [...words].slice(0, MAX_SLUG).join('').replace(/-+$/, '');
  return cut || 'memory';
}

/** The last 8 letters or digits of an id: random bits in a UUIDv7, so two memories differ there. */
export function shortId(id: string): string {
  return id.toLowerCase().replace(/[^a-z0-9]/g, '').slice(-8);
}

/** A unique, safe `<slug>-<shortid>.md`; `used` holds the names given so far (lowercased). */
export function markdownFileName(text: string, id: string, used: Set<string>): string {
  let base = slugOf(text);
  const sid = shortId(id);
  if (sid) base = `${base}-${sid}`;
  if (RESERVED.test(base)) base = `memory-${base}`;
  let name = `${base}.md`;
  for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base}-${n}.md`;
  used.add(name.toLowerCase());
  return name;
}
