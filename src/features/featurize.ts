// Assembles memories' (or a query's) features in all thirteen spaces. Runs the pure featurizers
// of src/core/features with the loaded lexical resources and the wink NER. The one featurizing
// plan (planFeatures) is shared by the app's ingest (the embed worker) and the LoCoMo eval: it
// computes the encoder-free spaces at once and lists every text the sentence encoder must see
// (the text for E1 unless given, the causal clauses for E5, the media captions for E10), so a
// batch costs ONE encoder call; finish() completes the features from the vectors.

import {
  codeFeatures,
  emotionFeatures,
  entityFeatures,
  expandedFeatures,
  extractCausalClauses,
  extractRelations,
  hdcFeatures,
  lateFeatures,
  meanVector,
  mediaTexts,
  periodicFeatures,
  positionFeatures,
  recencyFeatures,
  sparseFeatures,
  type EntityMention,
  type LexicalResources,
  type MediaText,
} from '../core/features';
import { AppError, MESSAGES } from '../core/errors';
import type { SpaceFeatures } from '../core/spaces';
import type { SpaceId } from '../core/types';
import { recognizeEntities } from './ner';

/** The encoder as the featurizer needs it (structurally the Embedder of src/embed). */
export interface TextEncoder {
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
}

export interface FeaturizeInput {
  text: string;
  createdAt: number;
  /** 0-based position of the memory within its session (E4); default 0. */
  sessionPosition?: number;
  media?: readonly MediaText[];
  /** E1 when the caller already has it (ingest embeds the text for the index anyway). */
  semantic?: Float32Array;
}

export interface FeaturizeOptions {
  /** Minutes to add to UTC for local wall-clock time in E3; default 0 (UTC). */
  tzOffsetMinutes?: number;
  /** Skip these spaces (e.g. temporal ones for a query). */
  skip?: readonly SpaceId[];
  signal?: AbortSignal;
  /** Per-space wall time in ms, for benchmarks. */
  timings?: Partial<Record<SpaceId | 'encoder' | 'ner', number>>;
  /** Told the entity mentions E11 found (the entity index takes them instead of a second NER pass). */
  onMentions?: (mentions: EntityMention[]) => void;
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** The synchronous, encoder-free spaces (everything but E1, E5, E10). */
export function featurizeLexical(
  input: FeaturizeInput,
  resources: LexicalResources,
  options: FeaturizeOptions = {},
): SpaceFeatures {
  const skip = new Set(options.skip ?? []);
  const t = options.timings;
  const out: SpaceFeatures = {};
  const run = <K extends SpaceId>(id: K, f: () => SpaceFeatures[K]) => {
    if (skip.has(id)) return;
    const t0 = t ? now() : 0;
    const v = f();
    if (t) t[id] = (t[id] ?? 0) + now() - t0;
    if (v !== undefined) out[id] = v;
  };
  const text = input.text;
  run('E2', () => recencyFeatures(input.createdAt));
  run('E3', () => periodicFeatures(input.createdAt, options.tzOffsetMinutes ?? 0));
  run('E4', () => positionFeatures(input.sessionPosition ?? 0));
  run('E6', () => sparseFeatures(text, resources));
  run('E7', () => codeFeatures(text));
  run('E8', () => emotionFeatures(text, resources));
  run('E9', () => hdcFeatures(text));
  run('E11', () => {
    const mentions = recognizeEntities(text, (w) => resources.vader.has(w) || resources.afinn.has(w));
    options.onMentions?.(mentions);
    return entityFeatures(mentions, extractRelations(text, mentions));
  });
  run('E12', () => lateFeatures(text, resources.vectors));
  run('E13', () => expandedFeatures(text, resources));
  return out;
}

/**
 * Characters of a memory the featurizers read. They are linear in the text (E9, E12 and NER the
 * slowest); a multi-MB paste keeps its meaning in its first pages. (The encoder cuts its own,
 * shorter prefix: prepareForEmbedding.)
 */
export const MAX_FEATURE_CHARS = 20_000;

const bounded = (text: string) => (text.length <= MAX_FEATURE_CHARS ? text : text.slice(0, MAX_FEATURE_CHARS));

/** A batch's encoder-free features and the encoder calls they still need. */
export interface FeaturePlan {
  /** Every text the encoder must see, in order: per input its text (E1, unless given), clauses (E5), captions (E10). */
  readonly texts: readonly string[];
  /** The inputs' features (input order), completed with the encoder's vectors for `texts`. */
  finish(vectors: readonly Float32Array[]): SpaceFeatures[];
  /** Each input's entity mentions as E11 found them (undefined when E11 was skipped). */
  readonly mentions: readonly (EntityMention[] | undefined)[];
}

/** Plan the features of `inputs`: the encoder-free spaces now, the encoder's texts listed. */
export function planFeatures(inputs: readonly FeaturizeInput[], resources: LexicalResources, options: FeaturizeOptions = {}): FeaturePlan {
  const skip = new Set(options.skip ?? []);
  const t = options.timings;
  const texts: string[] = [];
  const parts: { features: SpaceFeatures; e1: number; clauses: [number, number]; captions: [number, number] }[] = [];
  const mentions: (EntityMention[] | undefined)[] = [];
  for (const input0 of inputs) {
    if (options.signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    const input = { ...input0, text: bounded(input0.text) };
    let found: EntityMention[] | undefined;
    const features = featurizeLexical(input, resources, { ...options, onMentions: (m) => (found = m) });
    mentions.push(found);
    const t0 = t ? now() : 0;
    const clauses = skip.has('E5') ? [] : extractCausalClauses(input.text).map((c) => c.text);
    const captions = skip.has('E10') ? [] : mediaTexts(input.media);
    if (t) t.E5 = (t.E5 ?? 0) + now() - t0;
    const wantE1 = !skip.has('E1');
    if (wantE1 && input.semantic !== undefined) features.E1 = input.semantic;
    const e1 = wantE1 && input.semantic === undefined ? texts.push(input.text) - 1 : -1;
    const c0 = texts.push(...clauses);
    const m0 = texts.push(...captions);
    parts.push({ features, e1, clauses: [c0 - clauses.length, c0], captions: [m0 - captions.length, m0] });
  }
  return {
    texts,
    mentions,
    finish(vectors) {
      if (vectors.length !== texts.length) throw new AppError('INVALID_EMBEDDING', MESSAGES.wrongCount('vectors', vectors.length, texts.length));
      return parts.map(({ features, e1, clauses, captions }) => {
        if (e1 >= 0) features.E1 = vectors[e1];
        const e5 = meanVector(vectors.slice(...clauses));
        const e10 = meanVector(vectors.slice(...captions));
        if (e5) features.E5 = e5;
        if (e10) features.E10 = e10;
        return features;
      });
    },
  };
}

/** The skipped spaces of a query: the temporal ones carry no query meaning; its E10 is its E1. */
const QUERY_SKIP: readonly SpaceId[] = ['E2', 'E3', 'E4', 'E10'];

/**
 * A query's plan: content spaces only. A query has no media, so its E10 is its E1: the text
 * itself is the cross-modal probe, compared with the encoded captions of memories' images
 * (same encoder, same space).
 */
export function planQueryFeatures(
  text: string,
  resources: LexicalResources,
  options: Omit<FeaturizeOptions, 'skip'> & { semantic?: Float32Array } = {},
): FeaturePlan {
  const plan = planFeatures([{ text, createdAt: Date.now(), semantic: options.semantic }], resources, { ...options, skip: QUERY_SKIP });
  return {
    texts: plan.texts,
    mentions: plan.mentions,
    finish: (vectors) =>
      plan.finish(vectors).map((f) => {
        if (f.E1) f.E10 = f.E1;
        return f;
      }),
  };
}

/** Runs a plan: one encoder call for all its texts (none when it has none), then finish. */
export async function runPlan(plan: FeaturePlan, encoder: TextEncoder, options: Pick<FeaturizeOptions, 'signal' | 'timings'> = {}): Promise<SpaceFeatures[]> {
  const t = options.timings;
  const t0 = t ? now() : 0;
  const vectors = plan.texts.length ? await encoder.embed([...plan.texts], options.signal) : [];
  if (t) t.encoder = (t.encoder ?? 0) + now() - t0;
  return plan.finish(vectors);
}

/** One memory's features in all thirteen spaces (planFeatures + runPlan). */
export async function featurize(
  input: FeaturizeInput,
  encoder: TextEncoder,
  resources: LexicalResources,
  options: FeaturizeOptions = {},
): Promise<SpaceFeatures> {
  return (await runPlan(planFeatures([input], resources, options), encoder, options))[0];
}

/** A query's features (planQueryFeatures + runPlan). */
export async function featurizeQuery(
  text: string,
  encoder: TextEncoder,
  resources: LexicalResources,
  options: Omit<FeaturizeOptions, 'skip'> & { semantic?: Float32Array } = {},
): Promise<SpaceFeatures> {
  return (await runPlan(planQueryFeatures(text, resources, options), encoder, options))[0];
}
