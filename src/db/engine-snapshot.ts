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
// limits (a 100k store's vectors are ~190 MB); a start reads them in one transaction.

import type { EngineSnapshot } from '../core/engine-snapshot';
import type { PackEntry, PackedStream } from '../core/snapshot-pack';

export const STORES_V12 = {
  engineSnapshot: 'key',
} as const;

/** Bytes per data row. */
export const CHUNK_BYTES = 32 * 2 ** 20;

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
}

export interface EngineChunkRow {
  key: string;
  data: ArrayBuffer;
}

export type EngineSnapshotRow = EngineHeadRow | EngineChunkRow;

const chunkKey = (stream: 'v' | 's', i: number) => `${stream}:${String(i).padStart(5, '0')}`;

function chunks(stream: 'v' | 's', bytes: Uint8Array, size: number): EngineChunkRow[] {
  const out: EngineChunkRow[] = [];
  for (let at = 0, i = 0; at < bytes.byteLength || i === 0; at += size, i++) out.push({ key: chunkKey(stream, i), data: bytes.slice(at, at + size).buffer });
  return out;
}

/** The rows of `s` (head first). */
export function engineRows(
  s: EngineSnapshot,
  at: { seq: number; dbVersion: number; producers: EngineProducers; dim: number; size: number; now: number },
  chunkBytes = CHUNK_BYTES,
): EngineSnapshotRow[] {
  const v = chunks('v', s.vectors.bytes, chunkBytes);
  const sp = chunks('s', s.spaces.bytes, chunkBytes);
  const stream = (p: PackedStream, rows: number): StreamHead => ({ entries: p.entries, meta: p.meta, bytes: p.bytes.byteLength, rows });
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
  };
  return [head, ...v, ...sp];
}

/** The keys of the data rows a head names. */
export function chunkKeys(head: EngineHeadRow): string[] {
  return [...Array.from({ length: head.vectors.rows }, (_, i) => chunkKey('v', i)), ...Array.from({ length: head.spaces.rows }, (_, i) => chunkKey('s', i))];
}

/** The snapshot the head and its data rows hold (in `chunkKeys` order); undefined when a row is missing or the sizes differ. */
export function engineOfRows(head: EngineHeadRow, rows: (EngineSnapshotRow | undefined)[]): EngineSnapshot | undefined {
  const join = (from: number, h: StreamHead): PackedStream | undefined => {
    const parts = rows.slice(from, from + h.rows);
    if (parts.length !== h.rows || parts.some((r) => !r || !('data' in r) || !(r.data instanceof ArrayBuffer))) return undefined;
    const datas = parts.map((r) => (r as EngineChunkRow).data);
    const total = datas.reduce((a, d) => a + d.byteLength, 0);
    if (total !== h.bytes) return undefined;
    // one row: its buffer as it is (no copy); more: one copy into a buffer of the whole stream
    const bytes = datas.length === 1 ? new Uint8Array(datas[0]) : new Uint8Array(total);
    if (datas.length > 1) datas.reduce((at, d) => (bytes.set(new Uint8Array(d), at), at + d.byteLength), 0);
    return { entries: h.entries, meta: h.meta, bytes };
  };
  if (!head.vectors || !head.spaces) return undefined;
  const vectors = join(0, head.vectors);
  const spaces = join(head.vectors.rows, head.spaces);
  if (!vectors || !spaces) return undefined;
  return { format: head.format, vectors, spaces, checksums: head.checksums };
}
