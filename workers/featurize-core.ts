// The thirteen spaces of a batch of memories (or one query), serialised for the trip out of the
// embed worker. Plain functions over an encoder and the lexical resources, so Node tests run the
// same code the worker does. One encoder call per batch: every text the encoder must see (the
// texts for E1, the causal clauses for E5, the media captions for E10) goes in one list.

import { extractCausalClauses, meanVector, mediaTexts, type LexicalResources } from '../src/core/features';
import { serializeFeatures, type SerializedFeatures, type SpaceFeatures } from '../src/core/spaces';
import { AppError, describeError, MESSAGES } from '../src/core/errors';
import type { FeaturizedItem, FeaturizeItem } from '../src/protocol/embed';
import { prepareForEmbedding } from '../src/embed/types';
import { featurizeLexical, featurizeQuery, type TextEncoder } from '../src/features';

/**
 * Characters of a memory the lexical featurizers read. They are linear in the text (E9, E12 and
 * NER the slowest); a multi-MB paste keeps its meaning in its first pages.
 */
export const MAX_FEATURE_CHARS = 20_000;

function boundedText(text: string): string {
  return text.length <= MAX_FEATURE_CHARS ? text : text.slice(0, MAX_FEATURE_CHARS);
}

/** The encoder with each text cut to its bounded prefix (prepareForEmbedding). */
export function boundedEncoder(encoder: TextEncoder): TextEncoder {
  return { embed: (texts, signal) => encoder.embed(texts.map((t) => prepareForEmbedding(t).text), signal) };
}

/** Every buffer of a batch, for Comlink.transfer. */
export function buffersOf(list: readonly SerializedFeatures[]): ArrayBuffer[] {
  return list.flatMap((f) => Object.values(f).filter((b): b is ArrayBuffer => b instanceof ArrayBuffer));
}

export async function featurizeItems(
  items: readonly FeaturizeItem[],
  encoder: TextEncoder,
  resources: LexicalResources,
  signal?: AbortSignal,
): Promise<FeaturizedItem[]> {
  const features: SpaceFeatures[] = [];
  const texts: string[] = [];
  const plan: { e1: number; clauses: [number, number]; captions: [number, number] }[] = [];
  for (const it of items) {
    if (signal?.aborted) throw new AppError('ABORTED');
    const text = boundedText(it.text);
    features.push(featurizeLexical({ text, createdAt: it.createdAt, sessionPosition: it.sessionPosition }, resources));
    const e1 = texts.push(it.text) - 1;
    const clauses = extractCausalClauses(text).map((c) => c.text);
    const c0 = texts.length;
    texts.push(...clauses);
    const captions = mediaTexts(it.media);
    const m0 = texts.length;
    texts.push(...captions);
    plan.push({ e1, clauses: [c0, c0 + clauses.length], captions: [m0, m0 + captions.length] });
  }
  const vecs = texts.length ? await boundedEncoder(encoder).embed(texts, signal) : [];
  if (vecs.length !== texts.length) throw new AppError('INVALID_EMBEDDING', undefined, MESSAGES.wrongCount('vectors', vecs.length, texts.length));
  return items.map((it, i) => {
    const f = features[i];
    const p = plan[i];
    f.E1 = vecs[p.e1];
    const e5 = meanVector(vecs.slice(...p.clauses));
    const e10 = meanVector(vecs.slice(...p.captions));
    if (e5) f.E5 = e5;
    if (e10) f.E10 = e10;
    return { spaces: serializeFeatures(f), truncated: prepareForEmbedding(it.text).truncated };
  });
}

/** A query's content spaces (no temporal ones; its E10 is its E1), serialised. */
export async function featurizeQueryText(
  text: string,
  encoder: TextEncoder,
  resources: LexicalResources,
  signal?: AbortSignal,
): Promise<SerializedFeatures> {
  return serializeFeatures(await featurizeQuery(boundedText(text), boundedEncoder(encoder), resources, { signal }));
}

export const RESOURCES_MISSING_MESSAGE =
  'The word lists the memory spaces need could not be loaded. Rebuild the app (node scripts/build-resources.mjs) and reload.';

/**
 * The lexical resources, or MODEL_LOAD_FAILED saying how to fix a missing / stale build
 * (public/generated/ not built, or built by another version); the cause is in `detail`.
 */
export async function resourcesOrFail(load: () => Promise<LexicalResources>): Promise<LexicalResources> {
  try {
    return await load();
  } catch (e) {
    throw new AppError('MODEL_LOAD_FAILED', RESOURCES_MISSING_MESSAGE, describeError(e));
  }
}
