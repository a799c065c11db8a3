// Packing vectors for storage and for transfer to the engine worker.

import type { MemoryId, SpaceId } from '../core/types';
import type { VectorRow } from './schema';

/** Copies the vector into its own exactly-sized buffer (a view into a larger buffer must not be stored whole). */
export function packVector(memoryId: MemoryId, space: SpaceId, vector: Float32Array, model: string): VectorRow {
  const data = new ArrayBuffer(vector.length * 4);
  new Float32Array(data).set(vector);
  return { memoryId, space, dim: vector.length, dtype: 'float32', model, data };
}

/** A Float32Array over the row's buffer (no copy); returns null on a malformed row. */
export function unpackVector(row: VectorRow | undefined): Float32Array | null {
  if (!row || row.dtype !== 'float32' || !(row.data instanceof ArrayBuffer)) return null;
  if (row.data.byteLength !== row.dim * 4) return null;
  return new Float32Array(row.data);
}

/** A serialised space feature (serializeSpace output) as a row; the buffer is stored as is. */
export function packSpace(memoryId: MemoryId, space: SpaceId, data: ArrayBuffer, model: string): VectorRow {
  return { memoryId, space, dim: data.byteLength, dtype: 'space', model, data };
}
