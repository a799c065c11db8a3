// A plain search's keyword candidates computed ahead (issue 13): the services ask the engine for
// them while the query is still being embedded in the encoder's worker, so the keyword half of a
// search overlaps the encoder instead of following it. The list is taken by the next search with
// the same text, gate (status, asOf) and BM25 settings, once, and only if the index's words and
// gates did not change in between (the index calls `stale()` on every such change).
import type { HybridConfig } from './hybrid-config';
import type { HybridSearchOptions, LexicalCandidate } from './hybrid';

/** What a keyword list depends on besides the index: the text, the gate (status, asOf) and BM25's settings. */
export function lexicalKey(text: string, o: HybridSearchOptions, c: HybridConfig): string {
  return JSON.stringify([text, o.includeQuarantined === true, o.includeArchived === true, o.asOf ?? null, c.candidateK, c.k1, c.b]);
}

export class LexicalAhead {
  private epoch = 0;
  private held: { key: string; epoch: number; lexical: LexicalCandidate[] } | null = null;
  /** Lists computed ahead that a search took / that were dropped unused (stale or another query): for the bench and tests. */
  taken = 0;
  dropped = 0;

  /** The words or a doc's gate changed: a list held now is stale. */
  stale(): void {
    this.epoch++;
  }

  put(text: string, opts: HybridSearchOptions, config: HybridConfig, lexical: LexicalCandidate[]): void {
    if (this.held) this.dropped++;
    this.held = { key: lexicalKey(text, opts, config), epoch: this.epoch, lexical };
  }

  /** The list held for exactly this query, if still current (then no longer held); null otherwise. */
  take(text: string, opts: HybridSearchOptions, config: HybridConfig): LexicalCandidate[] | null {
    const h = this.held;
    if (!h) return null;
    this.held = null;
    if (h.epoch === this.epoch && h.key === lexicalKey(text, opts, config)) {
      this.taken++;
      return h.lexical;
    }
    this.dropped++;
    return null;
  }
}
