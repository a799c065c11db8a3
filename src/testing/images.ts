// A picture codec for Node tests: reads a PNG's size from its header (IHDR) and "draws" a thumbnail
// as a tiny PNG; a PNG without a whole header or its end chunk is damaged (IMAGE_UNREADABLE), like
// createImageBitmap on a cut-short file. JPEG, GIF and WebP are taken at 100 x 80.
import { AppError } from '../core/errors';
import { thumbSize } from '../core/images';
import type { ImageCodec } from '../services/image-codec';
import { solidPng } from './png';

const IEND = [0x49, 0x45, 0x4e, 0x44];

export function createTestImageCodec(): ImageCodec & { calls: number } {
  const codec = {
    calls: 0,
    async thumbnail(blob: Blob, edge: number) {
      codec.calls++;
      const b = new Uint8Array(await blob.arrayBuffer());
      let width = 100;
      let height = 80;
      if (b[0] === 0x89) {
        const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
        const ended = b.length >= 12 && IEND.every((x, i) => b[b.length - 8 + i] === x);
        if (b.length < 33 || !ended) throw new AppError('IMAGE_UNREADABLE', undefined, 'cut short');
        width = view.getUint32(16);
        height = view.getUint32(20);
      }
      const t = thumbSize(width, height, edge);
      return { width, height, thumb: new Blob([solidPng(t.width, t.height) as Uint8Array<ArrayBuffer>], { type: 'image/png' }) };
    },
  };
  return codec;
}
