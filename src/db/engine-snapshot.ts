// Schema v12 (issue 13): the engine snapshot, the warm engine's built indexes (src/core/engine-snapshot.ts).
//
// `engineSnapshot` rows, written together by the engine worker (derived data: never in a backup or
// export, rebuilt whenever it is missing, damaged, stale or of another format, producer, dimension
// or schema):
//   'head'          { format, dbVersion, seq, producers, dim, size, checksums, the two streams'
//                     directories and meta, their byte lengths and row counts, writtenAt }
//   'v:00000' ...   the vectors stream (E1's dense store) in rows of at most CHUNK_BYTES
//   's:00000' ...   the spaces stream (the space index) likewise
// `seq`: every change in `lexicalLog` up to it is in the snapshot (the keyword snapshot's log,
// which every write of memories and of features appends to). Log rows are deleted only up to the
// seq both snapshots cover (src/db/lexical-snapshot.ts `coveredSeq`).
// Why rows of 32 MiB: one structured-clone item per row, and no single value near the browsers'
// limits (a 100k store's vectors are ~190 MB); a start reads them in one transaction. The streams
// are packed in parts of at most 32 MiB cut at array boundaries (src/core/snapshot-pack.ts), one
// row per part, so a reader views each array inside its row (rows cut at every 32 MiB, as the
// first snapshots were, are read too: an array across two rows is copied out).

import type { EngineSnapshot } from '../core/engine-snapshot';
import { cutAtArrays, STREAM_PART_BYTES, streamBytes, type PackEntry, type PackedStream } from '../core/snapshot-pack';

export const STORES_V12 = {
  engineSnapshot: 'key',
} as const;

/** Bytes per data row (the parts the streams are packed in). */
export const CHUNK_BYTES = STREAM_PART_BYTES;

export interface EngineProducers {
  encoder: string;
  lexical: string;
}

interface StreamHead {
  entries: PackEntry[];
  meta: PackedStream['meta'];
  bytes: number;
  rows: number;
}

export interface EngineHeadRow {
  key: 'head';
  format: number;
  dbVersion: number;
  /** Every logged change up to this seq is in the snapshot. */
  seq: number;
  producers: EngineProducers;
  /** E1's dimension. */
  dim: number;
  /** Memories in the space index. */
  size: number;
  checksums: EngineSnapshot['checksums'];
  vectors: StreamHead;
  spaces: StreamHead;
  writtenAt: number;
  /** The rows are cut at array boundaries (src/core/snapshot-pack.ts `cutAtArrays`); absent in the first snapshots' heads. */
  cutAtArrays?: boolean;
}

export interface EngineChunkRow {
  key: string;
  data: ArrayBuffer;
}

export type EngineSnapshotRow = EngineHeadRow | EngineChunkRow;

const chunkKey = (stream: 'v' | 's', i: number) => `${stream}:${String(i).padStart(5, '0')}`;

/** The stream's parts as rows (packed with `maxPart` = the chunk size, each part is one row as it is; a larger part is cut). */
function chunks(stream: 'v' | 's', parts: readonly Uint8Array<ArrayBuffer>[], size: number): EngineChunkRow[] {
  const out: EngineChunkRow[] = [];
  const row = (b: Uint8Array<ArrayBuffer>): ArrayBuffer => (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b.buffer : b.slice().buffer);
  const push = (b: Uint8Array<ArrayBuffer>) => out.push({ key: chunkKey(stream, out.length), data: row(b) });
  for (const p of parts) {
    if (p.byteLength <= size) push(p);
    else for (let at = 0; at < p.byteLength; at += size) push(p.subarray(at, at + size));
  }
  if (out.length === 0) out.push({ key: chunkKey(stream, 0), data: new ArrayBuffer(0) });
  return out;
}

/** True when `rows` cut the stream at array boundaries (see `cutAtArrays`). */
const asRows = (p: PackedStream, rows: EngineChunkRow[], size: number): boolean => cutAtArrays({ ...p, bytes: rows.map((r) => new Uint8Array(r.data)) }, size);

/** The rows of `s` (head first). */
export function engineRows(
  s: EngineSnapshot,
  at: { seq: number; dbVersion: number; producers: EngineProducers; dim: number; size: number; now: number },
  chunkBytes = CHUNK_BYTES,
): EngineSnapshotRow[] {
  const v = chunks('v', s.vectors.bytes, chunkBytes);
  const sp = chunks('s', s.spaces.bytes, chunkBytes);
  const stream = (p: PackedStream, rows: number): StreamHead => ({ entries: p.entries, meta: p.meta, bytes: streamBytes(p.bytes), rows });
  const head: EngineHeadRow = {
    key: 'head',
    format: s.format,
    dbVersion: at.dbVersion,
    seq: at.seq,
    producers: { ...at.producers },
    dim: at.dim,
    size: at.size,
    checksums: { ...s.checksums },
    vectors: stream(s.vectors, v.length),
    spaces: stream(s.spaces, sp.length),
    writtenAt: at.now,
    cutAtArrays: asRows(s.vectors, v, chunkBytes) && asRows(s.spaces, sp, chunkBytes),
  };
  return [head, ...v, ...sp];
}

/** The keys of the data rows a head names. */
export function chunkKeys(head: EngineHeadRow): string[] {
  return [...Array.from({ length: head.vectors.rows }, (_, i) => chunkKey('v', i)), ...Array.from({ length: head.spaces.rows }, (_, i) => chunkKey('s', i))];
}

/**
 * The snapshot the head and its data rows hold (in `chunkKeys` order), each stream as the rows'
 * buffers (no join: the readers view each array inside its row, src/core/snapshot-pack.ts);
 * undefined when a row is missing or the sizes differ.
 */
export function engineOfRows(head: EngineHeadRow, rows: (EngineSnapshotRow | undefined)[]): EngineSnapshot | undefined {
  const parts = (from: number, h: StreamHead): PackedStream | undefined => {
    const got = rows.slice(from, from + h.rows);
    if (got.length !== h.rows || got.some((r) => !r || !('data' in r) || !(r.data instanceof ArrayBuffer))) return undefined;
    const bytes = got.map((r) => new Uint8Array((r as EngineChunkRow).data));
    if (streamBytes(bytes) !== h.bytes) return undefined;
    return { entries: h.entries, meta: h.meta, bytes };
  };
  if (!head.vectors || !head.spaces) return undefined;
  const vectors = parts(0, head.vectors);
  const spaces = parts(head.vectors.rows, head.spaces);
  if (!vectors || !spaces) return undefined;
  return { format: head.format, vectors, spaces, checksums: head.checksums };
}
