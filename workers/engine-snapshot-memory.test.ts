// What an adopted engine snapshot keeps alive (issue 13, engine memory at 100k): the unpacked
// space index views the arrays inside the stored rows and copies out an array that spans rows;
// a row lying wholly inside such an array must then be free to go. A closure made inside
// FeatureColumns.unpack (the binary pool's `make`) kept the whole reader, and with it every row of
// the stream: +92 MiB in Chromium at 100k. Node's gc is reached through vm (vitest runs without
// --expose-gc).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { SpaceIndex } from '../src/core/pipeline';
import { PackReader, PackWriter, type PackedStream } from '../src/core/snapshot-pack';
import { seededFeatures } from '../src/testing/features';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;
const tick = () => new Promise((r) => setTimeout(r, 0));

const N = 40;
const ids = Array.from({ length: N }, (_, i) => `m${String(i).padStart(3, '0')}`);

/** A space index of N memories packed in parts of 64 bytes: E9's pool (N x 16 bytes) spans ten of them. */
function packed(): { stream: PackedStream; e9: Uint8Array[] } {
  const x = new SpaceIndex();
  ids.forEach((id, i) => x.upsert(id, seededFeatures(i)));
  const w = new PackWriter();
  x.pack(w, 'sp');
  return { stream: w.finish(64), e9: ids.map((_, i) => seededFeatures(i).E9!) };
}

/** The parts lying wholly inside `name`'s bytes (their buffers, weakly). */
function partsInside(stream: PackedStream, name: string): WeakRef<ArrayBuffer>[] {
  const e = stream.entries.find((x) => x.name === name)!;
  const out: WeakRef<ArrayBuffer>[] = [];
  let at = 0;
  for (const p of stream.bytes) {
    if (at >= e.offset && at + p.byteLength <= e.offset + e.length) out.push(new WeakRef(p.buffer));
    at += p.byteLength;
  }
  return out;
}

describe('an unpacked space index', () => {
  it('keeps no row that lies wholly inside an array it copied out (E9 pool across parts)', async () => {
    // the stream reached only through `held` (an async function's locals live across its awaits)
    const held: { stream?: PackedStream; index?: SpaceIndex } = {};
    const { inside, e9 } = (() => {
      const p = packed();
      held.stream = p.stream;
      return { inside: partsInside(p.stream, 'sp.cols.E9.pool'), e9: p.e9 };
    })();
    expect(inside.length).toBeGreaterThanOrEqual(8); // 640 bytes in parts of 64: at least 8 wholly inside
    held.index = SpaceIndex.unpack(new PackReader(held.stream), 'sp');
    delete held.stream;
    for (let i = 0; i < 3; i++) {
      await tick();
      gc();
    }
    expect(inside.filter((r) => r.deref() !== undefined).length).toBe(0);
    // the index still answers from its copy of the pool
    expect(held.index.size).toBe(N);
    expect([...held.index.features(ids[7])!.E9!]).toEqual([...e9[7]]);
    expect([...held.index.features(ids[39])!.E9!]).toEqual([...e9[39]]);
  });
});
