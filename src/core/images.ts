// Pictures on memories: what is kept (the types, by their bytes, not by a file name), the size
// limit, the thumbnail's size, and the picture's entries in a memory's media list. Pure: the
// decoding and drawing happen where a canvas exists (src/services/image-codec.ts).

import { AppError, MESSAGES } from './errors';
import type { MediaRef } from './types';

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
export const IMAGE_MIMES: readonly ImageMime[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** The largest picture kept: 8 MiB (a phone photo is 2-5 MB; a backup carries it as base64, x1.33). */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** The thumbnail's longer edge in pixels (the graph draws nodes of up to ~40 CSS px, x2 for dense screens, with room). */
export const THUMB_EDGE = 128;
/** A picture's caption (what it shows; its alt text and its E10 text) may be this long. */
export const MAX_CAPTION_LENGTH = 500;
/** Bytes `sniffImage` needs to see. */
export const SNIFF_BYTES = 16;

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) => b.length >= at + sig.length && sig.every((x, i) => b[at + i] === x);

/**
 * The picture type of a file from its first bytes (the WHATWG mime sniffing signatures), null
 * when it is none of the kept types. A renamed text file is null whatever its extension says.
 */
export function sniffImage(head: Uint8Array): ImageMime | null {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, [0x47, 0x49, 0x46, 0x38]) && (head[4] === 0x37 || head[4] === 0x39) && head[5] === 0x61) return 'image/gif';
  if (startsWith(head, [0x52, 0x49, 0x46, 0x46]) && startsWith(head, [0x57, 0x45, 0x42, 0x50, 0x56, 0x50], 8)) return 'image/webp';
  return null;
}

/** "1.5 MB" / "820 KB" / "12 bytes": sizes in the messages a person reads. */
export function describeBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}

/**
 * Checks a picked file before anything is decoded: IMAGE_TOO_LARGE over MAX_IMAGE_BYTES (and for
 * an empty file: IMAGE_UNREADABLE), IMAGE_UNSUPPORTED when its bytes are not a kept type. Returns
 * the sniffed type (the type stored, whatever the file's name or claimed type).
 */
export function checkImageFile(size: number, head: Uint8Array, name = 'This file'): ImageMime {
  if (size > MAX_IMAGE_BYTES) throw new AppError('IMAGE_TOO_LARGE', MESSAGES.imageTooLarge(describeBytes(size), describeBytes(MAX_IMAGE_BYTES)));
  if (size === 0) throw new AppError('IMAGE_UNREADABLE');
  const mime = sniffImage(head);
  if (!mime) throw new AppError('IMAGE_UNSUPPORTED', MESSAGES.imageUnsupported(name.slice(0, 80)));
  return mime;
}

/** The thumbnail's size: the longer edge THUMB_EDGE (never enlarged), whole pixels, at least 1. */
export function thumbSize(width: number, height: number, edge = THUMB_EDGE): { width: number; height: number } {
  if (!(width > 0) || !(height > 0)) throw new AppError('IMAGE_UNREADABLE');
  const k = Math.min(1, edge / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * k)), height: Math.max(1, Math.round(height * k)) };
}

/** The media entries that are stored pictures. */
export const imageRefs = (media: readonly MediaRef[] | undefined): (MediaRef & { imageId: string })[] =>
  (media ?? []).filter((m): m is MediaRef & { imageId: string } => typeof m.imageId === 'string' && m.imageId.length > 0);

/** Every picture id a set of memory rows refers to. */
export function referencedImageIds(rows: readonly { media?: readonly MediaRef[] }[]): Set<string> {
  const out = new Set<string>();
  for (const r of rows) for (const m of imageRefs(r.media as MediaRef[] | undefined)) out.add(m.imageId);
  return out;
}

/**
 * A memory's media list with its picture replaced: `next` null removes the picture, otherwise it
 * is the one picture entry (caption trimmed; INVALID_OPTION when empty: the caption is the picture's
 * alt text and what search reads of it). Entries that are not pictures are kept as they are.
 */
export function withImage(media: readonly MediaRef[] | undefined, next: { imageId: string; caption: string; mime: string } | null): MediaRef[] {
  const others = (media ?? []).filter((m) => !m.imageId);
  if (!next) return others;
  const caption = next.caption.trim();
  if (!caption) throw new AppError('INVALID_OPTION', 'Add a caption that says what the picture shows: it is read aloud in place of the picture and found by search.');
  if (caption.length > MAX_CAPTION_LENGTH) throw new AppError('INVALID_OPTION', MESSAGES.tooLong('A caption', MAX_CAPTION_LENGTH));
  return [...others, { caption, imageId: next.imageId, mime: next.mime }];
}
