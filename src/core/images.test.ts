import { describe, expect, it } from 'vitest';
import { checkImageFile, describeBytes, MAX_IMAGE_BYTES, referencedImageIds, sniffImage, thumbSize, withImage } from './images';
import { AppError } from './errors';

const bytes = (...b: number[]) => new Uint8Array(b);
const code = (f: () => unknown) => {
  try {
    f();
    return 'none';
  } catch (e) {
    return e instanceof AppError ? e.code : String(e);
  }
};

describe('pictures (core)', () => {
  it('knows a picture by its first bytes, not by a name', () => {
    expect(sniffImage(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13))).toBe('image/png');
    expect(sniffImage(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(sniffImage(new TextEncoder().encode('GIF89a...'))).toBe('image/gif');
    expect(sniffImage(new TextEncoder().encode('GIF87a...'))).toBe('image/gif');
    expect(sniffImage(new TextEncoder().encode('GIF88a...'))).toBeNull();
    expect(sniffImage(new TextEncoder().encode('RIFF\x10\x00\x00\x00WEBPVP8 '))).toBe('image/webp');
    expect(sniffImage(new TextEncoder().encode('RIFF\x10\x00\x00\x00WAVEfmt '))).toBeNull(); // a sound, same container
    expect(sniffImage(new TextEncoder().encode('hello, I am a text file named photo.png'))).toBeNull();
    expect(sniffImage(bytes(0x89, 0x50, 0x4e))).toBeNull(); // cut short
    expect(sniffImage(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull(); // scripts can live in SVG: not kept
  });

  it('refuses a file over 8 MB, an empty file and a non-picture with their own messages', () => {
    const png = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
    expect(checkImageFile(MAX_IMAGE_BYTES, png)).toBe('image/png'); // exactly the limit is kept
    expect(code(() => checkImageFile(MAX_IMAGE_BYTES + 1, png))).toBe('IMAGE_TOO_LARGE');
    try {
      checkImageFile(12.5 * 1024 * 1024, png);
    } catch (e) {
      expect((e as Error).message).toBe('This picture is 12.5 MB; pictures can be at most 8 MB. Nothing was attached: choose a smaller one (or a smaller export of it).');
    }
    expect(code(() => checkImageFile(0, bytes()))).toBe('IMAGE_UNREADABLE');
    expect(code(() => checkImageFile(40, new TextEncoder().encode('not a picture'), 'notes.png'))).toBe('IMAGE_UNSUPPORTED');
    try {
      checkImageFile(40, new TextEncoder().encode('not a picture'), 'notes.png');
    } catch (e) {
      expect((e as Error).message).toContain('"notes.png" is not a picture');
    }
  });

  it('sizes the thumbnail to a 128 px longer edge, never enlarging', () => {
    expect(thumbSize(4000, 3000)).toEqual({ width: 128, height: 96 });
    expect(thumbSize(300, 1200)).toEqual({ width: 32, height: 128 });
    expect(thumbSize(64, 48)).toEqual({ width: 64, height: 48 }); // smaller than the edge: as it is
    expect(thumbSize(10_000, 1)).toEqual({ width: 128, height: 1 }); // at least one pixel
    expect(code(() => thumbSize(0, 10))).toBe('IMAGE_UNREADABLE');
    expect(describeBytes(820 * 1024)).toBe('820 KB');
    expect(describeBytes(12)).toBe('12 bytes');
  });

  it('puts one picture entry in the media, keeps other entries, and needs a caption', () => {
    const other = { caption: 'a voice note', mime: 'audio/ogg' };
    const m1 = withImage([other], { imageId: 'i1', caption: '  the red door  ', mime: 'image/png' });
    expect(m1).toEqual([other, { caption: 'the red door', imageId: 'i1', mime: 'image/png' }]);
    const m2 = withImage(m1, { imageId: 'i2', caption: 'a blue door', mime: 'image/jpeg' });
    expect(m2).toEqual([other, { caption: 'a blue door', imageId: 'i2', mime: 'image/jpeg' }]); // replaced, not added
    expect(withImage(m2, null)).toEqual([other]);
    expect(code(() => withImage([], { imageId: 'i', caption: '   ', mime: 'image/png' }))).toBe('INVALID_OPTION');
    expect(code(() => withImage([], { imageId: 'i', caption: 'x'.repeat(501), mime: 'image/png' }))).toBe('INVALID_OPTION');
    expect([...referencedImageIds([{ media: m1 }, { media: m2 }, {}])].sort()).toEqual(['i1', 'i2']);
  });
});
