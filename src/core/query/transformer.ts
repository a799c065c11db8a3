// Query transformation (seed 001's multiQuery and hyde): one interface, two providers. The
// offline one (offline.ts, the default) rewords from the bundled lexical resources and the first
// pass's results; the model one (src/services/model-transformer.ts) asks an OpenAI-compatible chat
// endpoint on this computer that the person configured.

export interface TransformContext {
  /** Texts of the first pass's best results, best first (pseudo-relevance feedback). */
  feedback?: readonly string[];
  /** Cancels the provider's call (an AbortSignal where the host has one). */
  signal?: { readonly aborted: boolean };
}

export interface QueryTransformer {
  /** 'offline' (bundled word lists) or 'model' (the person's language model). */
  readonly kind: 'offline' | 'model';
  /** Up to `count` reworded variants of `query` (never the query itself, no duplicates). */
  variants(query: string, count: number, ctx?: TransformContext): Promise<string[]>;
  /** A short hypothetical answer to embed (HyDE), or null when this provider cannot write one. */
  hypothetical(query: string, ctx?: TransformContext): Promise<string | null>;
}

/** Variants cleaned: trimmed, at most `max` chars, none equal (case-insensitively) to the query or each other. */
export function cleanVariants(query: string, raw: readonly string[], count: number, max = 300): string[] {
  const seen = new Set([query.trim().toLowerCase()]);
  const out: string[] = [];
  for (const r of raw) {
    const v = r.replace(/\s+/g, ' ').trim().slice(0, max);
    const key = v.toLowerCase();
    if (!v || seen.has(key)) continue;
    seen.add(key);
    out.push(v);
    if (out.length >= count) break;
  }
  return out;
}
