// Backup version 2: pictures in, checked, and back out; version 1 never takes an images section.
import { describe, expect, it } from 'vitest';
import { buildBackup, parseBackup, serializeBackup } from './backup';
import type { ImageRecord } from './backup-images';
import type { Memory } from '../core/types';

const APP = { name: 'mnemograph', version: '0.1.0' };
const T0 = Date.UTC(2024, 0, 2, 3, 4, 5);
const memory = (i: number, over: Partial<Memory> = {}): Memory => ({
  id: `0190c2a0-0000-7000-8000-${String(i).padStart(12, '0')}`,
  text: `Memory number ${i}`,
  tags: [],
  suggestedTags: [],
  importance: 0.5,
  createdAt: T0,
  updatedAt: T0,
  validFrom: T0,
  validTo: null,
  sessionId: 's-1',
  status: 'active',
  deletedAt: null,
  embedTruncated: false,
  ...over,
});
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff, 0xe0];

const picture = (id: string, memoryId: string, over: Partial<ImageRecord> = {}): ImageRecord => ({
  id,
  memoryId,
  mime: 'image/png',
  size: 10,
  width: 20,
  height: 10,
  createdAt: Date.UTC(2024, 0, 2),
  data: new Uint8Array([...PNG, 1, 2]).buffer,
  thumb: new Uint8Array([...PNG, 3]).buffer,
  thumbMime: 'image/png',
  ...over,
});

describe('pictures in the backup (version 2)', () => {
  it('writes version 2 with the pictures as base64 and reads them back byte for byte', () => {
    const m = memory(1, { media: [{ caption: 'a door', imageId: 'p1', mime: 'image/png' }] });
    const doc = buildBackup({ memories: [m], feedback: [], settings: [], images: [picture('p1', m.id)] }, { app: APP, now: 0 });
    expect(doc.version).toBe(2);
    expect(doc.images?.[0]).toMatchObject({ id: 'p1', data: 'iVBORw0KGgoBAg==', thumb: 'iVBORw0KGgoD' }); // base64 of the bytes
    const back = parseBackup(serializeBackup(doc));
    expect(back.errors).toEqual([]);
    expect(back.items.memories[0].media).toEqual([{ caption: 'a door', imageId: 'p1', mime: 'image/png' }]);
    expect([...new Uint8Array(back.items.images[0].data)]).toEqual([...PNG, 1, 2]);
    expect(back.items.images[0]).toMatchObject({ id: 'p1', memoryId: m.id, mime: 'image/png', size: 10, width: 20, height: 10, thumbMime: 'image/png' });
    // without pictures: version 1, as before
    expect(buildBackup({ memories: [m], feedback: [], settings: [] }, { app: APP }).version).toBe(1);
  });

  it('skips a picture that lies about its type or size, repeats, or belongs to no restored memory; a version 1 file never takes pictures', () => {
    const m = memory(1);
    const doc = buildBackup(
      {
        memories: [m],
        feedback: [],
        settings: [],
        images: [
          picture('ok', m.id),
          picture('jpeg-named-png', m.id, { data: new Uint8Array([...JPEG, 0, 0, 0, 0, 0, 0]).buffer }),
          picture('short', m.id, { size: 11 }),
          picture('ok', m.id),
          picture('orphan', 'someone-else'),
        ],
      },
      { app: APP },
    );
    const back = parseBackup(serializeBackup(doc));
    expect(back.items.images.map((i) => i.id)).toEqual(['ok']);
    expect(back.errors.map((e) => e.message)).toEqual([
      'images[1] is not the picture it says it is (its bytes, size or type differ); skipped.',
      'images[2] is not the picture it says it is (its bytes, size or type differ); skipped.',
      'images[3] repeats an earlier picture (ok); the first one was kept.',
      'images[4] belongs to a memory that is not restored (someone-else); skipped.',
    ]);
    const v1 = parseBackup(JSON.stringify({ ...doc, version: 1 }));
    expect(v1.ok).toBe(true);
    expect(v1.items.images).toEqual([]);
    expect(v1.errors).toEqual([]);
    const hostile = parseBackup(JSON.stringify({ ...doc, images: [{ ...doc.images![0], mime: 'image/svg+xml' }] }));
    expect(hostile.items.images).toEqual([]);
    expect(hostile.errors[0].message).toMatch(/^images\[0\]\.mime: /);
  });
});
