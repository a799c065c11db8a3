// The featurizers' lexical resources in Node (tests, eval, bench): the same files the browser
// fetches from /generated/, read from public/generated/ (built on demand if missing).

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  LEXICON_FILE,
  WORD_VECTORS_FILE,
  parseLexicon,
  parseWordVectors,
  type LexicalResources,
} from '../../src/core/features';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const GENERATED_DIR = join(root, 'public/generated');

let cached: Promise<LexicalResources> | undefined;

export function loadNodeResources(dir = GENERATED_DIR): Promise<LexicalResources> {
  if (dir === GENERATED_DIR && cached) return cached;
  const p = (async () => {
    if (!existsSync(join(dir, WORD_VECTORS_FILE)) || !existsSync(join(dir, LEXICON_FILE))) {
      if (dir !== GENERATED_DIR) throw new Error(`resources missing in ${dir}`);
      // @ts-expect-error plain .mjs build script, no types
      const { buildResources } = await import('../build-resources.mjs');
      await buildResources({ log: () => {} });
    }
    const buf = readFileSync(join(dir, WORD_VECTORS_FILE));
    const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
    return { vectors: parseWordVectors(ab), ...parseLexicon(JSON.parse(readFileSync(join(dir, LEXICON_FILE), 'utf8'))) };
  })();
  if (dir === GENERATED_DIR) cached = p;
  return p;
}
