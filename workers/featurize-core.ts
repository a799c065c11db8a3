// The thirteen spaces of a batch of memories (or one query), serialised for the trip out of the
// embed worker. Plain functions over an encoder and the lexical resources, so Node tests run the
// same code the worker does. The encoder calls are planned by src/features' planFeatures (the
// plan the LoCoMo eval uses too): one call per batch.

import { FEATURIZER_REVISION, RESOURCES_VERSION, type LexicalResources, type MediaText } from '../src/core/features';
import { FEATURE_FORMAT_VERSION, serializeFeatures } from '../src/core/spaces';
import type { SpaceId } from '../src/core/types';
import { AppError } from '../src/core/errors';
import { prepareForEmbedding } from '../src/embed/types';
import { featurizeQuery, MAX_FEATURE_CHARS, planFeatures, runPlan, type TextEncoder } from '../src/features';

/** Serialised features, one buffer per present space (serializeSpace format). */
export type SerializedFeatures = Partial<Record<SpaceId, ArrayBuffer>>;

export interface FeaturizeItem {
  text: string;
  createdAt: number;
  /** 0-based position of the memory within its session (E4). */
  sessionPosition: number;
  media?: readonly MediaText[];
}

export interface FeaturizedItem {
  spaces: SerializedFeatures;
  /** The text was longer than the encoder's bounded prefix (Memory.embedTruncated). */
  truncated: boolean;
}

/** Characters of a memory the featurizers read (the shared plan's bound; re-exported under its old home). */
export { MAX_FEATURE_CHARS };

/** Id of the lexical featurizers + resources; stored as `model` on the rows of E2-E4, E6-E9, E11-E13. */
export const LEXICAL_ID = `spaces/f${FEATURE_FORMAT_VERSION}-r${RESOURCES_VERSION}-v${FEATURIZER_REVISION}`;

/** The spaces the sentence encoder produces (their rows carry the encoder's id). */
export const ENCODER_SPACES: readonly SpaceId[] = ['E1', 'E5', 'E10'];

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
  return items.map((it, i) => ({ spaces: serializeFeatures(features[i]), truncated: prepareForEmbedding(it.text).truncated }));
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
    throw new AppError('MODEL_LOAD_FAILED', RESOURCES_MISSING_MESSAGE, e instanceof Error ? e.message : String(e));
  }
}
