// Pictures on memories through the services (issue 12): attach at capture, caption in E10 and in
// keyword search, edits that replace / re-caption / remove a picture (versions), purge, bad input,
// and the backup (version 2 carries them; version 1 still restores).
import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LexicalResources } from '../core/features';
import { loadNodeResources } from '../../scripts/lib/resources-node';
import { codeOf } from '../testing/errors';
import { createTestImageCodec } from '../testing/images';
import { damagedPng, solidPng } from '../testing/png';
import { startServices } from '../testing/services';
import { storedVectors } from '../testing/db';
import { MAX_IMAGE_BYTES } from '../core/images';

let resources: LexicalResources;
beforeAll(async () => {
  resources = await loadNodeResources();
});

const T0 = Date.UTC(2026, 10, 24, 12);
const png = (w: number, h: number, colour: [number, number, number] = [200, 60, 40]) =>
  new File([solidPng(w, h, [colour]) as Uint8Array<ArrayBuffer>], 'door.png', { type: 'image/png' });

async function start() {
  let t = T0;
  const codec = createTestImageCodec();
  const started = await startServices({ dim: 512, resources, imageCodec: codec, now: () => t, sessionId: 'sess' });
  return { ...started, codec, tick: (ms: number) => (t += ms) };
}

describe('pictures on memories', () => {
  it('saves a picture with its memory: sniffed type, size, thumbnail, caption in E10 and in keyword search', async () => {
    const { s, codec } = await start();
    const prepared = await s.prepareImage(png(640, 480));
    expect(prepared).toMatchObject({ mime: 'image/png', width: 640, height: 480 });
    expect(codec.calls).toBe(1);
    expect(await s.db.images.count()).toBe(0); // nothing stored before the memory is saved
    const out = await s.saveMemory({ text: 'Painted the front door on Saturday', image: { prepared, caption: 'the lighthouse-red front door, freshly painted' } });
    expect(out.kind).toBe('saved');
    const m = out.memory;
    expect(m.media).toEqual([{ caption: 'the lighthouse-red front door, freshly painted', imageId: prepared.id, mime: 'image/png' }]);
    const [row] = await s.getImages([prepared.id]);
    expect(row).toMatchObject({ id: prepared.id, memoryId: m.id, mime: 'image/png', width: 640, height: 480, createdAt: T0 });
    expect(row.size).toBe(solidPng(640, 480).byteLength);
    // the thumbnail: 128 px on the longer edge (640x480 -> 128x96), a PNG from the test codec
    const thumb = new DataView(await row.thumb.arrayBuffer());
    expect([thumb.getUint32(16), thumb.getUint32(20)]).toEqual([128, 96]);
    // E10 exists only because of the caption (the text alone has no media)
    expect((await storedVectors.of(s.db, m.id)).map((v) => v.space)).toContain('E10');
    // a word only the caption has finds the memory by keywords
    expect((await s.search('lighthouse', { semantic: false })).map((h) => h.memory.id)).toEqual([m.id]);
  });

  it('refuses a non-picture, a huge file and a damaged picture with their own messages, storing nothing', async () => {
    const { s, codec } = await start();
    const before = await s.countMemories();
    const text = new File(['just some notes, honestly'], 'holiday.png', { type: 'image/png' });
    expect(await codeOf(s.prepareImage(text))).toBe('IMAGE_UNSUPPORTED');
    const huge = new File([new Uint8Array(MAX_IMAGE_BYTES + 1).fill(1, 8).map((x, i) => (i < 8 ? [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a][i] : x))], 'big.png');
    expect(await codeOf(s.prepareImage(huge))).toBe('IMAGE_TOO_LARGE');
    expect(codec.calls).toBe(0); // both refused before any decoding
    const broken = new File([damagedPng() as Uint8Array<ArrayBuffer>], 'broken.png');
    expect(await codeOf(s.prepareImage(broken))).toBe('IMAGE_UNREADABLE');
    // a caption is required, and a picture not prepared by the app is refused: nothing written
    const prepared = await s.prepareImage(png(10, 10));
    expect(await codeOf(s.saveMemory({ text: 'No caption here', image: { prepared, caption: '  ' } }))).toBe('INVALID_OPTION');
    const forged = { ...prepared, data: 'not a blob' } as never;
    expect(await codeOf(s.saveMemory({ text: 'Forged', image: { prepared: forged, caption: 'x' } }))).toBe('INVALID_OPTION');
    expect(await s.countMemories()).toBe(before);
    expect(await s.db.images.count()).toBe(0);
  });

  it('an edit that replaces the picture makes a version that keeps the old one; a new caption keeps the picture; purge removes all', async () => {
    const { s, tick } = await start();
    const p1 = await s.prepareImage(png(40, 30));
    const m = await s.addMemory({ text: 'The garden in May', image: { prepared: p1, caption: 'tulips by the shed' } });
    tick(1000);
    const p2 = await s.prepareImage(png(30, 40, [20, 120, 40]));
    const v2 = await s.updateMemory(m.id, { image: { prepared: p2, caption: 'roses by the shed' } });
    expect(v2.media).toEqual([{ caption: 'roses by the shed', imageId: p2.id, mime: 'image/png' }]);
    const history = await s.memoryHistory(m.id);
    expect(history.map((h) => [h.current, h.memory.media?.[0]?.imageId, h.memory.media?.[0]?.caption])).toEqual([
      [true, p2.id, 'roses by the shed'],
      [false, p1.id, 'tulips by the shed'], // the earlier version still shows the picture it had
    ]);
    expect((await s.db.images.where('memoryId').equals(m.id).primaryKeys()).sort()).toEqual([p1.id, p2.id].sort());

    tick(1000);
    const v3 = await s.updateMemory(m.id, { image: { caption: 'climbing roses by the shed' } });
    expect(v3.media).toEqual([{ caption: 'climbing roses by the shed', imageId: p2.id, mime: 'image/png' }]); // same picture
    expect(await s.db.images.count()).toBe(2);
    expect((await s.search('climbing', { semantic: false })).map((h) => h.memory.id)).toEqual([m.id]);

    tick(1000);
    const v4 = await s.updateMemory(m.id, { image: null });
    expect(v4.media).toEqual([]);
    expect(await codeOf(s.updateMemory(m.id, { image: { caption: 'nothing to caption' } }))).toBe('INVALID_OPTION');

    await s.deleteMemory(m.id); // the trash keeps pictures: the memory can come back
    expect(await s.db.images.count()).toBe(2);
    await s.emptyTrash();
    expect(await s.db.images.count()).toBe(0);
  });

  it('a backup carries pictures as version 2 and restores them; a version-1 backup without pictures still restores', async () => {
    const first = await start();
    const prepared = await first.s.prepareImage(png(64, 48));
    const m = await first.s.addMemory({ text: 'Harbour at dawn', image: { prepared, caption: 'fishing boats in fog' } });
    await first.s.addMemory({ text: 'No picture on this one' });
    const exported = await first.s.exportBackup({ vectors: false });
    const doc = JSON.parse(await exported.blob.text());
    expect(doc.version).toBe(2);
    expect(doc.images).toHaveLength(1);
    expect(doc.images[0]).toMatchObject({ id: prepared.id, memoryId: m.id, mime: 'image/png', width: 64, height: 48, thumbMime: 'image/png' });
    const original = new Uint8Array(await prepared.data.arrayBuffer());

    const second = await start();
    const file = { name: exported.fileName, bytes: new TextEncoder().encode(JSON.stringify(doc)) };
    const preview = await second.s.previewImport({ files: [file] });
    expect(preview).toMatchObject({ format: 'backup', fresh: 2, problems: [] });
    await second.s.runImport(preview.planId);
    const [row] = await second.s.getImages([prepared.id]);
    expect(row).toMatchObject({ memoryId: m.id, mime: 'image/png', width: 64, height: 48 });
    expect(new Uint8Array(await row.data.arrayBuffer())).toEqual(original);
    expect((await second.s.getMemory(m.id)).media?.[0]).toEqual({ caption: 'fishing boats in fog', imageId: prepared.id, mime: 'image/png' });

    // a picture whose bytes are not what it claims is skipped with a reason; the memory still comes back
    const bad = { ...doc, images: [{ ...doc.images[0], data: Buffer.from('not a png at all').toString('base64'), size: 16 }] };
    const third = await start();
    const p3 = await third.s.previewImport({ files: [{ name: 'b.json', bytes: new TextEncoder().encode(JSON.stringify(bad)) }] });
    expect(p3.problems.map((p) => p.message)).toEqual(['images[0] is not the picture it says it is (its bytes, size or type differ); skipped.']);
    await third.s.runImport(p3.planId);
    expect(await third.s.countMemories()).toBe(2);
    expect(await third.s.db.images.count()).toBe(0);

    // an older backup (version 1, no images section) restores as before
    const v1 = { ...doc, version: 1, memories: doc.memories.map((r: { media?: unknown }) => ({ ...r, media: undefined })) };
    delete v1.images;
    const fourth = await start();
    const p4 = await fourth.s.previewImport({ files: [{ name: 'old.json', bytes: new TextEncoder().encode(JSON.stringify(v1)) }] });
    expect(p4).toMatchObject({ fresh: 2, problems: [] });
    await fourth.s.runImport(p4.planId);
    expect(await fourth.s.countMemories()).toBe(2);

    // and a backup without pictures is still written as version 1, which older apps read
    const plain = await fourth.s.exportBackup({ vectors: false });
    expect(JSON.parse(await plain.blob.text()).version).toBe(1);
  });
});
