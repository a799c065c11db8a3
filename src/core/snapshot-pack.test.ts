import { describe, expect, it } from 'vitest';
import { checksumAdd, checksumEnd, checksumStart, cutAtArrays, joinParts, PackReader, PackWriter, streamBytes, streamChecksum, type PackedStream } from './snapshot-pack';

/** The checksum as the first engine snapshots computed it (one word per step over the joined stream): the reference. */
function referenceChecksum(bytes: Uint8Array): number {
  const words = Math.floor(bytes.byteLength / 4);
  const w = new Int32Array(bytes.slice(0, words * 4).buffer);
  let a = 1;
  let b = 0;
  for (let i = 0; i < w.length; i++) {
    a = (a + w[i]) | 0;
    b = (b + a) | 0;
  }
  for (let i = words * 4; i < bytes.byteLength; i++) {
    a = (a + bytes[i]) | 0;
    b = (b + a) | 0;
  }
  return (Math.imul(b, 0x01000193) ^ a ^ bytes.byteLength) >>> 0;
}

/** `bytes` cut at the given offsets, each part in a buffer of its own (as rows come back from the store). */
const cut = (bytes: Uint8Array, at: number[]): Uint8Array<ArrayBuffer>[] =>
  [0, ...at].map((from, i) => bytes.slice(from, i < at.length ? at[i] : bytes.byteLength));

/** Three arrays: 10 bytes (padded to 16), 3 floats (12, padded to 16), 40 bytes: offsets 0, 16, 32; 72 bytes in all. */
function writer(): PackWriter {
  const w = new PackWriter();
  w.put('a', Uint8Array.from({ length: 10 }, (_, i) => i + 1));
  w.put('b', Float32Array.of(0.5, -1, 3));
  w.put('c', Int8Array.from({ length: 40 }, (_, i) => i - 20));
  return w;
}

describe('packed streams in parts (the engine snapshot rows, issue 13)', () => {
  it('cuts parts at array boundaries and splits only an array larger than a part', () => {
    const s = writer().finish(32);
    expect(s.entries.map((e) => [e.name, e.offset])).toEqual([['a', 0], ['b', 16], ['c', 32]]);
    // a and b fill the first part (0-32); c (40 bytes) is larger than a part: 32-64, 64-72
    expect(s.bytes.map((p) => p.byteLength)).toEqual([32, 32, 8]);
    expect(streamBytes(s.bytes)).toBe(72);
    const r = new PackReader(s);
    const a = r.get('a', 'u8');
    expect(Array.from(a)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(a.buffer).toBe(s.bytes[0].buffer); // a view inside its part
    expect(Array.from(r.get('b', 'f32'))).toEqual([0.5, -1, 3]);
    const c = r.get('c', 'i8');
    expect(c[0]).toBe(-20);
    expect(c[39]).toBe(19);
    expect(s.bytes.some((p) => p.buffer === c.buffer)).toBe(false); // across parts: copied out
    // one part when no size is given: the same bytes
    expect(Array.from(joinParts(s.bytes))).toEqual(Array.from(writer().finish().bytes[0]));
    // b moves to a part of its own when a and b do not fit together
    expect(writer().finish(24).bytes.map((p) => p.byteLength)).toEqual([16, 16, 24, 16]);
    expect(() => writer().finish(20)).toThrow(expect.objectContaining({ code: 'SNAPSHOT_INVALID' }));
  });

  it('copies in steps with a pause after each, to the same parts', async () => {
    let pauses = 0;
    const stepped = await writer().finishInSteps(32, async () => void pauses++, 8);
    // a: 10 bytes in 2 steps, b: 12 in 2, c: 40 in 5
    expect(pauses).toBe(9);
    expect(stepped.bytes.map((p) => Array.from(p))).toEqual(writer().finish(32).bytes.map((p) => Array.from(p)));
    expect(stepped.entries).toEqual(writer().finish(32).entries);
  });

  it('reads a stream cut anywhere at 8-byte steps (rows cut at every 32 MiB, as the first snapshots were)', () => {
    const whole = writer().finish().bytes[0];
    for (const at of [[8], [24], [16, 40], [8, 16, 24, 48, 64]]) {
      const r = new PackReader({ ...writer().finish(), bytes: cut(whole, at) });
      expect(Array.from(r.get('a', 'u8'))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(Array.from(r.get('b', 'f32'))).toEqual([0.5, -1, 3]);
      expect(Array.from(r.get('c', 'i8'))).toEqual(Array.from({ length: 40 }, (_, i) => i - 20));
    }
    // rows cut as this code writes them, or not (b, 12 bytes at 16-28, across a cut at 24)
    expect(cutAtArrays(writer().finish(32), 32)).toBe(true);
    expect(cutAtArrays({ ...writer().finish(), bytes: cut(whole, [32]) }, 32)).toBe(true); // only c (40 bytes) spans
    expect(cutAtArrays({ ...writer().finish(), bytes: cut(whole, [24]) }, 32)).toBe(false);
    // an array that runs past the last part is refused
    const short: PackedStream = { ...writer().finish(), bytes: cut(whole, [32]).slice(0, 1) };
    expect(() => new PackReader(short)).toThrow(expect.objectContaining({ code: 'SNAPSHOT_INVALID', detail: 'c runs past the end' }));
  });

  it('gives an array a buffer of its own when a store keeps it', () => {
    const s = writer().finish(32);
    const r = new PackReader(s);
    const b = r.own('b', 'f32');
    expect(Array.from(b)).toEqual([0.5, -1, 3]);
    expect(s.bytes.some((p) => p.buffer === b.buffer)).toBe(false);
    s.bytes[0][16] ^= 0xff; // the stream's bytes change: the kept array does not
    expect(Array.from(b)).toEqual([0.5, -1, 3]);
  });

  it('checksums by hand-worked values, the same however the stream is cut', () => {
    // words 1, 2 then a tail byte 3: a = 1 -> 2 -> 4 -> 7, b = 0 -> 2 -> 6 -> 13;
    // (13 * 0x01000193 = 218109047) ^ 7 ^ 9 (the length) = 218109049
    expect(streamChecksum([Uint8Array.of(1, 0, 0, 0, 2, 0, 0, 0, 3)])).toBe(218109049);
    // four words 1..4 (one step of four): a = 11, b = 2 + 4 + 7 + 11 = 24; 24 * 0x01000193 = 402662856; ^ 11 ^ 16 = 402662867
    expect(streamChecksum([Uint8Array.of(1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0)])).toBe(402662867);
    // the same words cut inside a word, and in an empty part
    expect(streamChecksum([Uint8Array.of(1, 0), Uint8Array.of(), Uint8Array.of(0, 0, 2, 0, 0), Uint8Array.of(0, 3)])).toBe(218109049);
    // against the one-word-per-step reference: signed words, overflow, odd lengths, many cuts
    let x = 7;
    const bytes = Uint8Array.from({ length: 1003 }, () => (x = (x * 1103515245 + 12345) >>> 0) >>> 24);
    const want = referenceChecksum(bytes);
    expect(streamChecksum([bytes])).toBe(want);
    expect(streamChecksum(cut(bytes, [1, 5, 6, 400, 401, 999]))).toBe(want);
    const st = checksumStart();
    for (const p of cut(bytes, [3, 500])) checksumAdd(st, p);
    expect(checksumEnd(st)).toBe(want);
    // one flipped bit anywhere changes it
    const flipped = bytes.slice();
    flipped[777] ^= 16;
    expect(streamChecksum([flipped])).not.toBe(want);
  });
});
