// Pictures on memories (issue 12, schema v10): a picked or pasted file is checked (size, type by
// its bytes), decoded and given its thumbnail once, when it is attached (prepareImage); the
// capture and the editor then save it with the memory in the memory's own transaction. Its
// caption is the media entry's caption: the picture's alt text, read by E10 (the encoder over
// captions) and by keyword search (stored-features.ts toIndexDoc).

import { AppError } from '../core/errors';
import { checkImageFile, imageRefs, SNIFF_BYTES, THUMB_EDGE, withImage, type ImageMime } from '../core/images';
import type { MediaRef, MemoryId } from '../core/types';
import { getImages, type ImageRow } from '../db/images';
import type { ServiceContext } from './context';
import { blobType, type ImageCodec } from './image-codec';

/** A checked picture with its thumbnail, ready to be saved with a memory (not stored yet). */
export interface PreparedImage {
  readonly id: string;
  readonly mime: ImageMime;
  readonly size: number;
  readonly width: number;
  readonly height: number;
  readonly data: Blob;
  readonly thumb: Blob;
}

/** A picture for a new memory: the prepared file and what it shows, in the person's words. */
export interface ImageInput {
  prepared: PreparedImage;
  caption: string;
}

/**
 * A picture change in an edit: a new file (and its caption), the same picture with another caption
 * (`prepared` absent), or null to take the picture off. The earlier version keeps the picture it showed.
 */
export type ImageChange = { prepared?: PreparedImage; caption: string } | null;

const isPrepared = (p: unknown): p is PreparedImage =>
  !!p && typeof p === 'object' && typeof (p as PreparedImage).id === 'string' && (p as PreparedImage).data instanceof Blob && (p as PreparedImage).thumb instanceof Blob;

export function createImages(ctx: ServiceContext, codec: ImageCodec) {
  const { db } = ctx;

  /** The row stored for a prepared picture; its bytes checked again (what is stored is always a kept type). */
  async function rowOf(p: PreparedImage, memoryId: MemoryId): Promise<ImageRow> {
    if (!isPrepared(p)) throw new AppError('INVALID_OPTION', 'Attach the picture again: it was not prepared by this app.');
    const mime = checkImageFile(p.data.size, new Uint8Array(await p.data.slice(0, SNIFF_BYTES).arrayBuffer()));
    return { id: p.id, memoryId, mime, size: p.data.size, width: p.width, height: p.height, data: p.data, thumb: p.thumb, createdAt: ctx.now() };
  }

  return {
    /**
     * Checks a picked or pasted file and makes its thumbnail: IMAGE_TOO_LARGE over the limit
     * (8 MB), IMAGE_UNSUPPORTED when its bytes are not PNG, JPEG, GIF or WebP (whatever its name
     * says), IMAGE_UNREADABLE when it cannot be decoded. Nothing is stored until the memory is saved.
     */
    async prepareImage(file: Blob, name?: string): Promise<PreparedImage> {
      if (!(file instanceof Blob)) throw new AppError('INVALID_OPTION', 'Choose a picture file.');
      const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
      const mime = checkImageFile(file.size, head, name ?? (file as File).name ?? 'This file');
      const decoded = await codec.thumbnail(file, THUMB_EDGE);
      if (!(await blobType(decoded.thumb))) throw new AppError('IMAGE_UNREADABLE', undefined, 'the thumbnail is not a picture');
      const data = file.type === mime ? file : new Blob([file], { type: mime });
      return { id: ctx.newId(), mime, size: file.size, width: decoded.width, height: decoded.height, data, thumb: decoded.thumb };
    },

    /** Stored pictures by id (the opened memory, the graph's thumbnails); missing ones left out. */
    getImages: (ids: string[]): Promise<ImageRow[]> => getImages(db, ids),

    /**
     * A new memory's media with its picture (the caption checked: withImage), and the row to write
     * with it once the memory's id is known. No picture: the media as they are, no row.
     */
    attach(media: MediaRef[] | undefined, input: ImageInput | undefined): { media: MediaRef[] | undefined; row: (memoryId: MemoryId) => Promise<ImageRow[]> } {
      if (input === undefined || input === null) return { media, row: async () => [] };
      if (typeof input !== 'object' || !isPrepared(input.prepared)) throw new AppError('INVALID_OPTION', 'Attach the picture again: it was not prepared by this app.');
      const next = withImage(media, { imageId: input.prepared.id, caption: String(input.caption ?? ''), mime: input.prepared.mime });
      return { media: next, row: async (memoryId) => [await rowOf(input.prepared, memoryId)] };
    },

    /** An edit's media after `change`, and the new row when a new file came. */
    async change(media: MediaRef[] | undefined, change: ImageChange, memoryId: MemoryId): Promise<{ media: MediaRef[]; rows: ImageRow[] }> {
      if (change === null) return { media: withImage(media, null), rows: [] };
      if (typeof change !== 'object' || typeof change.caption !== 'string') throw new AppError('INVALID_OPTION', 'A picture needs a caption.');
      if (change.prepared) {
        const row = await rowOf(change.prepared, memoryId);
        return { media: withImage(media, { imageId: row.id, caption: change.caption, mime: row.mime }), rows: [row] };
      }
      const [ref] = imageRefs(media);
      if (!ref) throw new AppError('INVALID_OPTION', 'This memory has no picture to caption: attach one first.');
      return { media: withImage(media, { imageId: ref.imageId, caption: change.caption, mime: ref.mime ?? '' }), rows: [] };
    },
  };
}

export type Images = ReturnType<typeof createImages>;
