// Packing features for storage: one row per (memory, space), the serialised buffer stored as is.

import type { MemoryId, SpaceId } from '../core/types';
import type { VectorRow } from './schema';

/** A serialised space feature (serializeSpace output) as a row; the buffer is stored as is. */
export function packSpace(memoryId: MemoryId, space: SpaceId, data: ArrayBuffer, model: string): VectorRow {
  return { memoryId, space, dim: data.byteLength, dtype: 'space', model, data };
}
