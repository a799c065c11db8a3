// The thirteen spaces of a batch of memories (or one query), serialised for the trip out of the
// embed worker. Plain functions over an encoder and the lexical resources, so Node tests run the
// same code the worker does. One encoder call per batch: every text the encoder must see (the
// texts for E1, the causal clauses for E5, the media captions for E10) goes in one list.

import { extractCausalClauses, FEATURIZER_REVISION, meanVector, mediaTexts, RESOURCES_VERSION, type LexicalResources, type MediaText } from '../src/core/features';
import { FEATURE_FORMAT_VERSION, serializeFeatures, type SpaceFeatures } from '../src/core/spaces';
import type { SpaceId } from '../src/core/types';
import { AppError } from '../src/core/errors';
import { prepareForEmbedding } from '../src/embed/types';
import { featurizeLexical, featurizeQuery, type TextEncoder } from '../src/features';

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

/**
 * Characters of a memory the lexical featurizers read. They are linear in the text (E9, E12 and
 * NER the slowest); a multi-MB paste keeps its meaning in its first pages.
 */
export const MAX_FEATURE_CHARS = 20_000;

/** Id of the lexical featurizers + resources; stored as `model` on the rows of E2-E4, E6-E9, E11-E13. */
export const LEXICAL_ID = `spaces/f${FEATURE_FORMAT_VERSION}-r${RESOURCES_VERSION}-v${FEATURIZER_REVISION}`;

/** The spaces the sentence encoder produces (their rows carry the encoder's id). */
export const ENCODER_SPACES: readonly SpaceId[] = ['E1', 'E5', 'E10'];

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
    if (signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
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
  if (vecs.length !== texts.length) throw new Error(`the encoder returned ${vecs.length} vectors for ${texts.length} texts`);
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
    throw new AppError('MODEL_LOAD_FAILED', RESOURCES_MISSING_MESSAGE, e instanceof Error ? e.message : String(e));
  }
}
