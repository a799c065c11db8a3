// Assembles a memory's (or a query's) features in all thirteen spaces at ingest. Runs the pure
// featurizers of src/core/features with the loaded lexical resources and the wink NER, and
// makes ONE encoder call for everything the sentence encoder must see (the text for E1 unless
// given, the causal clauses for E5, the media captions for E10).

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
  type LexicalResources,
  type MediaText,
} from '../core/features';
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
    return entityFeatures(mentions, extractRelations(text, mentions));
  });
  run('E12', () => lateFeatures(text, resources.vectors));
  run('E13', () => expandedFeatures(text, resources));
  return out;
}

export async function featurize(
  input: FeaturizeInput,
  encoder: TextEncoder,
  resources: LexicalResources,
  options: FeaturizeOptions = {},
): Promise<SpaceFeatures> {
  const skip = new Set(options.skip ?? []);
  const out = featurizeLexical(input, resources, options);
  const t = options.timings;
  const t0 = t ? now() : 0;
  const clauses = skip.has('E5') ? [] : extractCausalClauses(input.text).map((c) => c.text);
  const captions = skip.has('E10') ? [] : mediaTexts(input.media);
  const wantE1 = !skip.has('E1') && input.semantic === undefined;
  if (t) t.E5 = (t.E5 ?? 0) + now() - t0;
  const texts = [...(wantE1 ? [input.text] : []), ...clauses, ...captions];
  const t1 = t ? now() : 0;
  const vecs = texts.length ? await encoder.embed(texts, options.signal) : [];
  if (t) t.encoder = (t.encoder ?? 0) + now() - t1;
  if (vecs.length !== texts.length) {
    throw new Error(`featurize: the encoder returned ${vecs.length} vectors for ${texts.length} texts`);
  }
  let i = 0;
  if (wantE1) out.E1 = vecs[i++];
  else if (!skip.has('E1') && input.semantic) out.E1 = input.semantic;
  const e5 = meanVector(vecs.slice(i, i + clauses.length));
  i += clauses.length;
  const e10 = meanVector(vecs.slice(i, i + captions.length));
  if (e5) out.E5 = e5;
  if (e10) out.E10 = e10;
  return out;
}

/**
 * A query's features: content spaces only (temporal spaces carry no query meaning). A query
 * has no media, so its E10 is its E1: the text itself is the cross-modal probe, compared with
 * the encoded captions of memories' images (same encoder, same space).
 */
export async function featurizeQuery(
  text: string,
  encoder: TextEncoder,
  resources: LexicalResources,
  options: Omit<FeaturizeOptions, 'skip'> & { semantic?: Float32Array } = {},
): Promise<SpaceFeatures> {
  const f = await featurize({ text, createdAt: Date.now(), semantic: options.semantic }, encoder, resources, {
    ...options,
    skip: ['E2', 'E3', 'E4', 'E10'],
  });
  if (f.E1) f.E10 = f.E1;
  return f;
}
