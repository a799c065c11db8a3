// Pictures in the JSON backup (backup version 2, schema v10). A backup with pictures is written as
// version 2 with an `images` section; one without is still written as version 1, so an older app
// keeps reading it. Reading: a version-1 backup has no pictures; each entry of a version-2 `images`
// section is checked (its schema, its base64, that its bytes are the type and size it says, by
// their content, and that its memory is restored) and skipped with a reason when it is not.

import * as v from 'valibot';
import { IMAGE_MIMES, MAX_IMAGE_BYTES, sniffImage, SNIFF_BYTES, type ImageMime } from '../core/images';
import { base64ToBytes, bytesToBase64 } from './base64';
import { describeIssues } from './backup-schema';
import { problem, type ImportProblem } from './result';
import { MAX_TIME, MIN_TIME } from './text';

/** The backup version that carries pictures. */
export const IMAGES_BACKUP_VERSION = 2;

/** A stored picture as the database holds it (src/db/images.ts ImageRow), its bytes as buffers. */
export interface ImageRecord {
  id: string;
  memoryId: string;
  mime: ImageMime;
  size: number;
  width: number;
  height: number;
  createdAt: number;
  data: ArrayBuffer;
  thumb: ArrayBuffer;
  /** The thumbnail's type (PNG or WebP, whichever the browser made). */
  thumbMime: ImageMime;
}

/** A picture as written in the file: the buffers as base64. */
export type ImageEntry = Omit<ImageRecord, 'data' | 'thumb'> & { data: string; thumb: string };

const id = v.pipe(v.string(), v.minLength(1), v.maxLength(200));
const px = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000));
/** base64 of at most MAX_IMAGE_BYTES (4 characters per 3 bytes). */
const b64 = v.pipe(v.string(), v.maxLength(Math.ceil(MAX_IMAGE_BYTES / 3) * 4));

export const ImageSchema = v.strictObject({
  id,
  memoryId: id,
  mime: v.picklist(IMAGE_MIMES),
  size: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_IMAGE_BYTES)),
  width: px,
  height: px,
  createdAt: v.pipe(v.number(), v.finite(), v.minValue(MIN_TIME), v.maxValue(MAX_TIME)),
  data: b64,
  thumb: b64,
  thumbMime: v.picklist(IMAGE_MIMES),
});

export const imageEntries = (rows: readonly ImageRecord[]): ImageEntry[] =>
  rows.map((r) => ({ ...r, data: bytesToBase64(new Uint8Array(r.data)), thumb: bytesToBase64(new Uint8Array(r.thumb)) }));

const typeOf = (bytes: Uint8Array) => sniffImage(bytes.subarray(0, SNIFF_BYTES));

/** The valid pictures of a backup's `images` section whose memory is restored; the others in `errors`. */
export function imagesOf(raw: unknown, memoryIds: Set<string>, errors: ImportProblem[]): ImageRecord[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    errors.push(problem({ path: 'images' }, 'images must be a list; the whole section was skipped.'));
    return [];
  }
  const out: ImageRecord[] = [];
  const seen = new Set<string>();
  raw.forEach((entry, i) => {
    const where = { index: i, path: `images[${i}]` };
    const res = v.safeParse(ImageSchema, entry);
    if (!res.success) {
      errors.push(problem(where, describeIssues(`images[${i}]`, res.issues).message));
      return;
    }
    const e = res.output;
    if (seen.has(e.id)) {
      errors.push(problem(where, `images[${i}] repeats an earlier picture (${e.id.slice(0, 80)}); the first one was kept.`));
      return;
    }
    if (!memoryIds.has(e.memoryId)) {
      errors.push(problem(where, `images[${i}] belongs to a memory that is not restored (${e.memoryId.slice(0, 80)}); skipped.`));
      return;
    }
    const data = base64ToBytes(e.data);
    const thumb = base64ToBytes(e.thumb);
    if (!data || data.byteLength !== e.size || typeOf(data) !== e.mime || !thumb || typeOf(thumb) !== e.thumbMime) {
      errors.push(problem(where, `images[${i}] is not the picture it says it is (its bytes, size or type differ); skipped.`));
      return;
    }
    seen.add(e.id);
    out.push({ ...e, data: data.buffer as ArrayBuffer, thumb: thumb.buffer as ArrayBuffer });
  });
  return out;
}
