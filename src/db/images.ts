// Pictures on memories (schema v10): the `images` table, its upgrade, and its repository reads.
// The writes that add pictures are part of the memory writes they belong to (repo.insertMemory,
// keep.writeVersion, transfer.writeImportBatch: one transaction each), and the purge that removes
// a memory removes its pictures in the same transaction (keep.purgeMemories -> dropOrphanImages).

import { referencedImageIds, type ImageMime } from '../core/images';
import type { MemoryId } from '../core/types';
import type { MnemographDb } from './db';
import type { MemoryRow } from './schema';

/**
 * One stored picture. `memoryId` is the memory it was attached to (the current version's id, which
 * its earlier versions share through supersededBy), so purging a memory finds its pictures by
 * index. The memory's `media` entry { imageId, caption, mime } points here; an earlier version
 * keeps pointing at the picture it showed, so replacing a picture keeps the old one for the history.
 */
export interface ImageRow {
  id: string;
  memoryId: MemoryId;
  /** The sniffed type of `data` (src/core/images.ts), never the file name's. */
  mime: ImageMime;
  /** Bytes of `data`. */
  size: number;
  width: number;
  height: number;
  /** The picture as attached. */
  data: Blob;
  /** The downscaled copy (longer edge THUMB_EDGE) made when it was attached, for the graph and lists. */
  thumb: Blob;
  createdAt: number;
}

/**
 * Version 10 (pictures on memories, issue 12): the `images` table, keyed by id, indexed by the
 * memory. Only the new table is named: Dexie keeps every table of the earlier versions as they
 * were declared (v9, the packed vector blocks, is another release's and may change `vectors`), so
 * this version never re-declares them.
 */
export const STORES_V10 = {
  images: 'id, memoryId',
} as const;

/**
 * The v10 upgrade of a memory row: its `media` (written by earlier imports without a check) made a
 * list of plain entries, so the code that now reads `media[].imageId` can trust it. A non-list
 * media is removed, entries that are not objects are dropped, fields that are not text are dropped.
 * Text, tags, times and everything else stay as they are. Returns whether the row changed.
 */
export function upgradeMemoryV8toV10(row: Record<string, unknown>): boolean {
  if (row.media === undefined) return false;
  if (!Array.isArray(row.media)) {
    delete row.media;
    return true;
  }
  let changed = false;
  const media: Record<string, string>[] = [];
  for (const m of row.media as unknown[]) {
    if (typeof m !== 'object' || m === null) {
      changed = true;
      continue;
    }
    const out: Record<string, string> = {};
    for (const [k, val] of Object.entries(m as Record<string, unknown>)) {
      if ((k === 'caption' || k === 'alt' || k === 'mime') && typeof val === 'string') out[k] = val;
      else changed = true;
    }
    media.push(out);
  }
  if (changed) row.media = media;
  return changed;
}

/** Pictures by id (missing ones left out). */
export async function getImages(db: MnemographDb, ids: readonly string[]): Promise<ImageRow[]> {
  try {
    if (ids.length === 0) return [];
    return (await db.images.bulkGet([...ids])).filter((r): r is ImageRow => r !== undefined);
  } catch (e) {
    throw db.fail(e);
  }
}

/** Every picture of these memories (their earlier versions' included), for a backup. */
export async function imagesOfMemories(db: MnemographDb, memoryIds: readonly MemoryId[]): Promise<ImageRow[]> {
  try {
    if (memoryIds.length === 0) return [];
    return await db.images.where('memoryId').anyOf([...memoryIds]).toArray();
  } catch (e) {
    throw db.fail(e);
  }
}

/**
 * Inside a purge's transaction (which must include `memories` and `images`): deletes the pictures
 * of the memories `rootIds` that no remaining row (the memory or an earlier version) shows any
 * more. A purged memory loses all its pictures; a purged earlier version only those no other
 * version shows.
 */
export async function dropOrphanImages(db: MnemographDb, rootIds: readonly MemoryId[]): Promise<number> {
  if (rootIds.length === 0) return 0;
  const images = await db.images.where('memoryId').anyOf([...rootIds]).toArray();
  if (images.length === 0) return 0;
  const remaining: MemoryRow[] = [
    ...(await db.memories.bulkGet([...rootIds])).filter((r): r is MemoryRow => r !== undefined),
    ...(await db.memories.where('supersededBy').anyOf([...rootIds]).toArray()),
  ];
  const used = referencedImageIds(remaining);
  const gone = images.filter((i) => !used.has(i.id)).map((i) => i.id);
  if (gone.length) await db.images.bulkDelete(gone);
  return gone.length;
}
