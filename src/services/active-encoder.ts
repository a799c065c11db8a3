// The encoder the services use right now, replaceable at run time: an encoder switch (issue 8)
// ends by handing the holder the new encoder, so every module that reads `ctx.embedder` /
// `ctx.featurizer` follows at once without being rebuilt. A call already under way when the
// encoder changes is run again on the new one, so its vectors never meet the other encoder's.

import type { EncoderEntry } from '../embed/catalogue';
import type { Embedder } from '../embed/types';
import { capitalisedPhrases } from '../core/features';
import { embedderFeaturizer, isSpaceFeaturizer, type SpaceFeaturizer } from './featurizer';

/** A started encoder: what it embeds with, what featurizes with it, how to stop it. */
export interface EncoderRuntime {
  embedder: Embedder;
  featurizer: SpaceFeaturizer;
  dispose(): void;
}

/** Starts the encoder of a catalogue entry (the app: a new embed worker; tests: a fake of that dimension). */
export type EncoderFactory = (entry: EncoderEntry) => EncoderRuntime;

/** A runtime from an embedder (and its featurizer, else the embedder's own or E1-E4 only). */
export function runtimeOf(embedder: Embedder, featurizer?: SpaceFeaturizer, dispose: () => void = () => undefined): EncoderRuntime {
  return { embedder, featurizer: featurizer ?? (isSpaceFeaturizer(embedder) ? embedder : embedderFeaturizer(embedder)), dispose };
}

export interface ActiveEncoder {
  /** Delegates to the current encoder. */
  readonly embedder: Embedder;
  readonly featurizer: SpaceFeaturizer;
  current(): EncoderRuntime;
  /** Makes `next` current and returns the previous runtime (the caller disposes it). */
  use(next: EncoderRuntime): EncoderRuntime;
  /** Told after each change. Returns the unsubscribe function. */
  subscribe(fn: (r: EncoderRuntime) => void): () => void;
}

export function createActiveEncoder(initial: EncoderRuntime): ActiveEncoder {
  let cur = initial;
  let generation = 0;
  const listeners = new Set<(r: EncoderRuntime) => void>();

  /** Runs `fn` on the current encoder; if the encoder changed while it ran, runs it again on the new one. */
  async function onCurrent<T>(fn: (r: EncoderRuntime) => Promise<T>): Promise<T> {
    for (;;) {
      const g = generation;
      const out = await fn(cur);
      if (g === generation) return out;
    }
  }

  const embedder: Embedder = {
    embed: (texts, signal) => onCurrent((r) => r.embedder.embed(texts, signal)),
    info: () => cur.embedder.info(),
  };
  const featurizer: SpaceFeaturizer = {
    lexicalId: () => cur.featurizer.lexicalId(),
    featurize: (items, signal) => onCurrent((r) => r.featurizer.featurize(items, signal)),
    featurizeQuery: (text, signal) => onCurrent((r) => r.featurizer.featurizeQuery(text, signal)),
    // late interaction's token matrices (null: the running encoder has none)
    tokens: (texts, signal, idsOnly) => onCurrent(async (r) => (r.featurizer.tokens ? r.featurizer.tokens(texts, signal, idsOnly) : null)),
    // the entity index's recogniser (E11's): without it the index fell back to capitalised phrases
    entities: (texts, signal) => onCurrent(async (r) => (r.featurizer.entities ? r.featurizer.entities(texts, signal) : texts.map((t) => capitalisedPhrases(t)))),
    // the offline query rewording (multiQuery, iterative search's reformulations): present only when
    // the running encoder's featurizer offers it, so the services can tell "no rewording here"
    get queryVariants() {
      if (!cur.featurizer.queryVariants) return undefined;
      return (query: string, count: number, feedback: string[], signal?: AbortSignal) =>
        onCurrent(async (r) => (r.featurizer.queryVariants ? r.featurizer.queryVariants(query, count, feedback, signal) : []));
    },
  };
  return {
    embedder,
    featurizer,
    current: () => cur,
    use(next) {
      const prev = cur;
      cur = next;
      generation++;
      for (const l of [...listeners]) l(next);
      return prev;
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
