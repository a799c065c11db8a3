// The thirteen spaces of a batch of memories (or one query), serialised for the trip out of the
// embed worker. Plain functions over an encoder and the lexical resources, so Node tests run the
// same code the worker does. The encoder calls are planned by src/features' planFeatures (the
// plan the LoCoMo eval uses too): one call per batch.

import type { LexicalResources } from '../src/core/features';
import { serializeFeatures, type SerializedFeatures } from '../src/core/spaces';
import { AppError, describeError } from '../src/core/errors';
import type { EntityMentionOut, FeaturizedItem, FeaturizeItem, QueryVariant } from '../src/protocol/embed';
import { OfflineTransformer } from '../src/core/query';
import { recognizeEntities } from '../src/features/ner';
import { MAX_FEATURE_CHARS } from '../src/features/featurize';
import { prepareForEmbedding } from '../src/embed/types';
import { featurizeQuery, planFeatures, runPlan, type TextEncoder } from '../src/features';


/** The encoder with each text cut to its bounded prefix (prepareForEmbedding). */
export function boundedEncoder(encoder: TextEncoder): TextEncoder {
  return { embed: (texts, signal) => encoder.embed(texts.map((t) => prepareForEmbedding(t).text), signal) };
}

/** Every buffer of a batch, for Comlink.transfer. */
export function buffersOf(list: readonly SerializedFeatures[]): ArrayBuffer[] {
  return list.flatMap((f) => Object.values(f).filter((b): b is ArrayBuffer => b instanceof ArrayBuffer));
}

/** The batch's spaces through the shared featurizing plan: ONE encoder call for every item. */
export async function featurizeItems(
  items: readonly FeaturizeItem[],
  encoder: TextEncoder,
  resources: LexicalResources,
  signal?: AbortSignal,
): Promise<FeaturizedItem[]> {
  const plan = planFeatures(items, resources, { signal });
  const features = await runPlan(plan, boundedEncoder(encoder), { signal });
  return items.map((it, i) => {
    const entities = plan.mentions[i];
    return { spaces: serializeFeatures(features[i]), truncated: prepareForEmbedding(it.text).truncated, ...(entities && { entities }) };
  });
}

/** A query's content spaces (no temporal ones; its E10 is its E1), serialised. */
export async function featurizeQueryText(
  text: string,
  encoder: TextEncoder,
  resources: LexicalResources,
  signal?: AbortSignal,
): Promise<SerializedFeatures> {
  return serializeFeatures(await featurizeQuery(text, boundedEncoder(encoder), resources, { signal }));
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

/** The entity mentions of each text, as E11 finds them (the entity index's input). */
export function entitiesOfTexts(texts: readonly string[], resources: LexicalResources): EntityMentionOut[][] {
  const emphasis = (w: string) => resources.vader.has(w) || resources.afinn.has(w);
  return texts.map((t) => recognizeEntities(t.length <= MAX_FEATURE_CHARS ? t : t.slice(0, MAX_FEATURE_CHARS), emphasis));
}

/** The offline transformer's variants of `query`, each embedded as a query (one encoder call). */
export async function queryVariantsOf(
  query: string,
  count: number,
  feedback: readonly string[],
  encoder: TextEncoder,
  resources: LexicalResources,
  signal?: AbortSignal,
): Promise<QueryVariant[]> {
  const texts = new OfflineTransformer(resources).variantsSync(query, count, feedback);
  if (texts.length === 0) return [];
  const vectors = await boundedEncoder(encoder).embed(texts, signal);
  return texts.map((text, i) => ({ text, vector: vectors[i] ?? null }));
}
