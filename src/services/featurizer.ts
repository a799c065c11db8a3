// Turning featurizer output into stored rows and engine docs, and the fallback featurizer used
// when the embedder cannot featurize (a plain Embedder, e.g. in tests): E1 from the encoder and
// the three temporal spaces, which need no lexical resources.

import { AppError } from '../core/errors';
import { periodicFeatures, positionFeatures, recencyFeatures } from '../core/features';
import { deserializeSpace, serializeSpace } from '../core/spaces';
import type { SpaceId } from '../core/types';
import type { VectorRow } from '../db/schema';
import { packSpace } from '../db/vectors';
import { isEncoderSpace, type FeaturizedItem, type FeaturizeItem, type SerializedFeatures, type SpaceFeaturizer } from '../protocol/embed';
import { embedQueries, prepareForEmbedding, type Embedder } from '../embed/types';

export type { FeaturizedItem, FeaturizeItem, SerializedFeatures, SpaceFeaturizer };

export { isEncoderSpace };
export const TEMPORAL_ONLY_ID = 'temporal-only/v1';

export function isSpaceFeaturizer(x: unknown): x is SpaceFeaturizer {
  const f = x as Partial<SpaceFeaturizer> | null;
  return !!f && typeof f.featurize === 'function' && typeof f.featurizeQuery === 'function' && typeof f.lexicalId === 'function';
}

/** E1 (the encoder) + E2-E4 (time and session position). Used when the embedder cannot featurize. */
export function embedderFeaturizer(embedder: Embedder): SpaceFeaturizer {
  return {
    lexicalId: () => TEMPORAL_ONLY_ID,
    async featurize(items, signal) {
      const prepared = items.map((it) => prepareForEmbedding(it.text));
      const vecs = items.length ? await embedder.embed(prepared.map((p) => p.text), signal) : [];
      return items.map((it, i) => ({
        truncated: prepared[i].truncated,
        spaces: {
          E1: serializeSpace('E1', vecs[i]),
          E2: serializeSpace('E2', recencyFeatures(it.createdAt)),
          E3: serializeSpace('E3', periodicFeatures(it.createdAt)),
          E4: serializeSpace('E4', positionFeatures(it.sessionPosition)),
        },
      }));
    },
    async featurizeQuery(text, signal) {
      const [v] = await embedQueries(embedder, [prepareForEmbedding(text).text], signal);
      return { E1: serializeSpace('E1', v) };
    },
  };
}

/** The E1 vector of a feature set, checked: the encoder's dimension, every value finite. */
export function semanticOf(spaces: SerializedFeatures, dim: number): Float32Array {
  const buf = spaces.E1;
  if (!buf) throw new AppError('INVALID_EMBEDDING', 'The encoder returned no vector for the text.');
  const v = deserializeSpace('E1', buf) as Float32Array;
  if (v.length !== dim) throw new AppError('INVALID_EMBEDDING', `The encoder returned ${v.length} dimensions; expected ${dim}.`);
  for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i])) throw new AppError('INVALID_EMBEDDING');
  return v;
}

/** One row per present space, E1 included; each carries the id of what produced it (encoder or lexical featurizers). */
export function featureRows(memoryId: string, spaces: SerializedFeatures, ids: { encoder: string; lexical: string }): VectorRow[] {
  const rows: VectorRow[] = [];
  for (const [space, buf] of Object.entries(spaces) as [SpaceId, ArrayBuffer | undefined][])
    if (buf) rows.push(packSpace(memoryId, space, buf, isEncoderSpace(space) ? ids.encoder : ids.lexical));
  return rows;
}

/** Copies of the buffers (the engine message transfers the originals). */
export function copyFeatures(spaces: SerializedFeatures): SerializedFeatures {
  const out: SerializedFeatures = {};
  for (const [k, b] of Object.entries(spaces) as [SpaceId, ArrayBuffer | undefined][]) if (b) out[k] = b.slice(0);
  return out;
}
