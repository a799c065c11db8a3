// The engine snapshot (issue 13, schema v12): the warm engine's built structures, so a start
// adopts them instead of deserialising every memory's features and indexing every space again.
// Two packed streams (src/core/snapshot-pack.ts):
//   vectors  the hybrid index's E1 DenseStore (ids by slot, int8 codes, scales, error bounds, unit
//            f32 rows): copied into the engine's store (its codes live in the SIMD kernel's memory);
//   spaces   the SpaceIndex (slots, feature columns, token dictionary, inverted lists, weights,
//            holders, the E5 / E10 int8 stores): adopted as views of the stream, no copy.
// Each stream has its own checksum; `format` says which code wrote it; the caller (the worker)
// also refuses another encoder, dimension, producer or schema. Unpacking checks every structure
// (SNAPSHOT_INVALID): a snapshot is never trusted blindly.

import type { HybridIndex } from './hybrid';
import type { MemoryId } from './types';
import { SpaceIndex } from './pipeline/space-index';
import { invalid, PackReader, PackWriter, STREAM_PART_BYTES, streamChecksum, type PackedStream } from './snapshot-pack';
import { packDenseStore, unpackDenseStore } from './vectors/store-pack';

/** Bumped when a packed layout changes. */
export const ENGINE_FORMAT = 1;

export interface EngineSnapshot {
  format: number;
  vectors: PackedStream;
  spaces: PackedStream;
  /** streamChecksum of each stream's bytes. */
  checksums: { vectors: number; spaces: number };
}

/** Bytes per part of a stream (one stored row each: src/db/engine-snapshot.ts). */
export const ENGINE_PART_BYTES = STREAM_PART_BYTES;

/** The arrays of the hybrid's vectors and of the space index, by reference (SNAPSHOT_INVALID when a structure cannot be packed). */
function writers(hybrid: HybridIndex, spaces: SpaceIndex): [PackWriter, PackWriter] {
  const v = new PackWriter();
  packDenseStore(v, 'e1', hybrid.vectors);
  const s = new PackWriter();
  spaces.pack(s, 'sp');
  return [v, s];
}

/**
 * The hybrid's vectors and the space index packed, each stream in parts of at most `maxPart`
 * bytes (the rows it is stored in), without checksums: synchronous (nothing changes in between),
 * each array copied once. SNAPSHOT_INVALID when a structure cannot be packed.
 */
export function packEngineStreams(hybrid: HybridIndex, spaces: SpaceIndex, maxPart?: number): Omit<EngineSnapshot, 'checksums'> {
  const [v, s] = writers(hybrid, spaces);
  return { format: ENGINE_FORMAT, vectors: v.finish(maxPart), spaces: s.finish(maxPart) };
}

/**
 * packEngineStreams with the copying in steps, awaiting `pause` between them (the worker answers
 * queries meanwhile): the caller holds every write to the engine until it resolves.
 */
export async function packEngineInSteps(hybrid: HybridIndex, spaces: SpaceIndex, maxPart: number, pause: () => Promise<void>): Promise<Omit<EngineSnapshot, 'checksums'>> {
  const [v, s] = writers(hybrid, spaces);
  return { format: ENGINE_FORMAT, vectors: await v.finishInSteps(maxPart, pause), spaces: await s.finishInSteps(maxPart, pause) };
}

/** packEngineStreams with the checksums (synchronous). */
export function packEngine(hybrid: HybridIndex, spaces: SpaceIndex, maxPart?: number): EngineSnapshot {
  const { format, vectors, spaces: packed } = packEngineStreams(hybrid, spaces, maxPart);
  return { format, vectors, spaces: packed, checksums: { vectors: streamChecksum(vectors.bytes), spaces: streamChecksum(packed.bytes) } };
}

/** Why the snapshot cannot be adopted (format, checksums), or null. */
export function engineSnapshotProblem(s: EngineSnapshot | undefined): string | null {
  if (!s) return 'missing';
  if (s.format !== ENGINE_FORMAT) return `format ${s.format}, this code reads ${ENGINE_FORMAT}`;
  if (streamChecksum(s.vectors.bytes) !== s.checksums.vectors) return 'the vectors do not match their checksum';
  if (streamChecksum(s.spaces.bytes) !== s.checksums.spaces) return 'the spaces do not match their checksum';
  return null;
}

/** The space index of a snapshot (checked; views of the stream). `e1` is how it reads E1 (the hybrid's rows). Throws SNAPSHOT_INVALID. */
export function unpackSpaces(s: EngineSnapshot, e1: (id: MemoryId) => Float32Array | undefined): SpaceIndex {
  return SpaceIndex.unpack(new PackReader(s.spaces), 'sp', { e1 });
}

/** The snapshot's vectors adopted into `hybrid` (its dense store emptied first; rows of memories it does not hold dropped). Throws SNAPSHOT_INVALID with the hybrid left without vectors. */
export function adoptVectorsOf(hybrid: HybridIndex, s: EngineSnapshot): void {
  const r = new PackReader(s.vectors);
  hybrid.adoptVectors((store) => void unpackDenseStore(r, 'e1', store));
}

/**
 * The space index unpacked (checked) and the vectors adopted into `hybrid` (its dense store
 * emptied first; rows of memories it does not hold dropped). Throws SNAPSHOT_INVALID with the
 * hybrid left without vectors. `e1` is how the space index reads E1 (the hybrid's rows).
 * `verified`: the caller has checked the format and checksums already (in steps, between which
 * the worker answers queries: workers/engine-warm.ts).
 */
export function adoptEngine(hybrid: HybridIndex, s: EngineSnapshot, e1: (id: MemoryId) => Float32Array | undefined, verified = false): SpaceIndex {
  const problem = verified ? null : engineSnapshotProblem(s);
  if (problem) throw invalid(problem);
  const spaces = unpackSpaces(s, e1);
  adoptVectorsOf(hybrid, s);
  return spaces;
}
