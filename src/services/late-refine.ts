// Late interaction at query time (src/core/pipeline/late-interaction.ts; issue 8 / 11 quality
// work): the first recall's answer is shown at once; the engine also names the candidates the
// stage reads (`lateCandidates`: the top lateDepth re-scored, the top lateIdfDepth weighing the
// query's tokens). This module gets their token matrices from the embed worker (the full matrix
// for the top `depth`, token ids alone for the rest: the tokenizer, no model call) and hands them
// to the engine's second recall, which reproduces the first pass's candidates and re-scores them:
// exactly the pipeline the eval measures. Nothing is stored (no schema change): an LRU in memory,
// keyed by encoder id + memory id + a hash of the text, so a repeated or refined query costs
// little and an edited memory (new text, new hash) is never served its old matrix.
import type { TokenMatrix } from '../core/pipeline';
import type { MemoryId } from '../core/types';
import type { SpaceFeaturizer } from '../protocol/embed';

export interface LateTokens {
  query: TokenMatrix;
  memories: Record<MemoryId, TokenMatrix>;
}

export interface LateRefinerDeps {
  /** The embed bridge's token call (null: the running encoder has none, e.g. USE-lite). */
  featurizer: () => Pick<SpaceFeaturizer, 'tokens'>;
  /** The running encoder's id (part of every cache key). */
  encoderId: () => string;
  /** The current texts of `ids` (undefined: deleted). */
  textsOf: (ids: readonly MemoryId[]) => Promise<(string | undefined)[]>;
  /** Cached matrices (default 500: a full one is ~35 tokens x 384 floats, ~54 KB; ~27 MB at most). */
  capacity?: number;
}

export interface LateRefiner {
  /**
   * The token matrices for a second recall of `query` over `candidates` (best first; the top
   * `depth` in full), or null when the encoder has no token outputs. Rejects ABORTED when
   * `signal` aborts (a newer query), with the embed worker's error otherwise.
   */
  tokensFor(query: string, candidates: readonly MemoryId[], depth: number, signal?: AbortSignal): Promise<LateTokens | null>;
  /** Entries cached (tests, diagnostics). */
  size(): number;
  clear(): void;
}

/** FNV-1a of a text (32 bits, hex): the cache key's guard against an edited memory. */
export function textHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16);
}

export function createLateRefiner(deps: LateRefinerDeps): LateRefiner {
  const capacity = Math.max(1, deps.capacity ?? 500);
  // a Map keeps insertion order: re-inserting on a hit makes it the most recent; the first key is the oldest
  const cache = new Map<string, TokenMatrix>();
  const get = (key: string): TokenMatrix | undefined => {
    const m = cache.get(key);
    if (m) {
      cache.delete(key);
      cache.set(key, m);
    }
    return m;
  };
  const put = (key: string, m: TokenMatrix) => {
    cache.delete(key);
    cache.set(key, m);
    while (cache.size > capacity) cache.delete(cache.keys().next().value as string);
  };
  const full = (m: TokenMatrix) => m.vectors.length === m.ids.length * m.dim;

  return {
    async tokensFor(query, candidates, depth, signal) {
      const tokens = deps.featurizer().tokens;
      if (!tokens) return null;
      const enc = deps.encoderId();
      const texts = await deps.textsOf(candidates);
      const keyOf = (kind: string, id: string, text: string) => `${enc}\u0000${kind}\u0000${id}\u0000${textHash(text)}`;
      const memories: Record<MemoryId, TokenMatrix> = {};
      const wantFull: { key: string; id: MemoryId; text: string }[] = [];
      const wantIds: { key: string; id: MemoryId; text: string }[] = [];
      const queryKey = keyOf('q', '', query);
      let queryMatrix = get(queryKey);
      candidates.forEach((id, rank) => {
        const text = texts[rank];
        if (text === undefined || text.length === 0) return;
        const key = keyOf('m', id, text);
        const hit = get(key);
        // a full matrix serves an ids-only need too; an ids-only one never serves the top `depth`
        if (hit && (rank >= depth || full(hit))) memories[id] = hit;
        else (rank < depth ? wantFull : wantIds).push({ key, id, text });
      });
      const fetchInto = async (want: typeof wantFull, idsOnly: boolean) => {
        if (want.length === 0) return true;
        const got = await tokens(want.map((w) => w.text), signal, idsOnly);
        if (!got) return false;
        want.forEach((w, i) => {
          memories[w.id] = got[i];
          put(w.key, got[i]);
        });
        return true;
      };
      if (!queryMatrix) {
        const got = await tokens([query], signal, false);
        if (!got || !got[0]) return null;
        queryMatrix = got[0];
        put(queryKey, queryMatrix);
      }
      if (!(await fetchInto(wantFull, false)) || !(await fetchInto(wantIds, true))) return null;
      return { query: queryMatrix, memories };
    },
    size: () => cache.size,
    clear: () => cache.clear(),
  };
}
