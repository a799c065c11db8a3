// Decoding a picked picture and drawing its thumbnail, where the browser can: createImageBitmap
// decodes (and fails on a damaged file), an OffscreenCanvas draws the downscaled copy, which is
// encoded as WebP (PNG where the browser cannot write WebP). Tests and Node pass their own codec.

import { AppError, describeError } from '../core/errors';
import { sniffImage, SNIFF_BYTES, thumbSize, type ImageMime } from '../core/images';

export interface DecodedImage {
  width: number;
  height: number;
  /** The downscaled copy (longer edge `edge` px, never enlarged). */
  thumb: Blob;
}

export interface ImageCodec {
  /** Decodes `blob` and makes its thumbnail; rejects IMAGE_UNREADABLE when it cannot be decoded. */
  thumbnail(blob: Blob, edge: number): Promise<DecodedImage>;
}

/** The thumbnail's type, read back from its bytes (the browser may have written PNG instead of WebP). */
export async function blobType(blob: Blob): Promise<ImageMime | null> {
  return sniffImage(new Uint8Array(await blob.slice(0, SNIFF_BYTES).arrayBuffer()));
}

/** The browser's codec (page or worker): createImageBitmap + OffscreenCanvas. */
export const browserImageCodec: ImageCodec = {
  async thumbnail(blob, edge) {
    if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas !== 'function')
      throw new AppError('IMAGE_UNREADABLE', 'This browser cannot read pictures here (no createImageBitmap / OffscreenCanvas). Nothing was attached.');
    let bitmap: ImageBitmap;
    try {
      bitmap = await createImageBitmap(blob);
    } catch (e) {
      throw new AppError('IMAGE_UNREADABLE', undefined, describeError(e));
    }
    try {
      const { width, height } = bitmap;
      const size = thumbSize(width, height, edge);
      const canvas = new OffscreenCanvas(size.width, size.height);
      const g = canvas.getContext('2d');
      if (!g) throw new AppError('IMAGE_UNREADABLE', undefined, 'no 2d context');
      g.imageSmoothingQuality = 'high';
      g.drawImage(bitmap, 0, 0, size.width, size.height);
      const thumb = await canvas.convertToBlob({ type: 'image/webp', quality: 0.85 });
      return { width, height, thumb };
    } finally {
      bitmap.close();
    }
  },
};
