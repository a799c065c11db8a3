// Loads the lexical resources built by scripts/build-resources.mjs, in a worker or the page,
// by fetch from the app's own origin (/generated/...). Node uses scripts/lib/resources-node.ts.

import {
  LEXICON_FILE,
  WORD_VECTORS_FILE,
  parseLexicon,
  parseWordVectors,
  type LexicalResources,
} from '../core/features';

export type FetchLike = (url: string) => Promise<{ ok: boolean; status: number; arrayBuffer(): Promise<ArrayBuffer>; json(): Promise<unknown> }>;

export const DEFAULT_RESOURCES_BASE = '/generated/';

export class ResourceLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResourceLoadError';
  }
}

/** `base` ends with '/', e.g. '/generated/' or `${import.meta.env.BASE_URL}generated/`. */
export async function loadResources(
  base: string = DEFAULT_RESOURCES_BASE,
  fetchFn: FetchLike = (u) => fetch(u),
): Promise<LexicalResources> {
  const get = async (file: string) => {
    const url = `${base}${file}`;
    let res;
    try {
      res = await fetchFn(url);
    } catch (e) {
      throw new ResourceLoadError(`Could not load ${url}: ${(e as Error).message}`);
    }
    if (!res.ok) throw new ResourceLoadError(`Could not load ${url} (HTTP ${res.status}); run scripts/build-resources.mjs`);
    return res;
  };
  const [vec, lex] = await Promise.all([get(WORD_VECTORS_FILE), get(LEXICON_FILE)]);
  const [buffer, json] = await Promise.all([vec.arrayBuffer(), lex.json()]);
  return { vectors: parseWordVectors(buffer), ...parseLexicon(json) };
}

let cached: Promise<LexicalResources> | undefined;

/** One shared load per realm (worker / page); a failed load is forgotten so it can be retried. */
export function getResources(base?: string, fetchFn?: FetchLike): Promise<LexicalResources> {
  cached ??= loadResources(base, fetchFn).catch((e) => {
    cached = undefined;
    throw e;
  });
  return cached;
}
