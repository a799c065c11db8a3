// The sample collection's stored E1 vectors (public/generated/sample-vectors.bin, built by
// scripts/build-sample-vectors.ts with the app's encoder in Node): loading the sample then skips the
// encoder for each memory's text; it still runs for causal clauses and captions (83 of the 406
// texts). Pure: the format only.
//
// Format: "MGSV" (4 bytes), u32 header length (little-endian), the header as UTF-8 JSON
// { version: 1, model, dim, count, textsHash }, zero padding to a multiple of 4, then
// count × dim float32 (little-endian), in the order of memories.json.

export const SAMPLE_VECTORS_FILE = 'sample-vectors.bin';

export interface SampleVectorsHeader {
  version: 1;
  /** The encoder that made them (EmbedderInfo.id): used only when the app runs the same one. */
  model: string;
  dim: number;
  count: number;
  /** textsHash(texts) of the sample they were made from: a changed sample makes them stale. */
  textsHash: string;
}

export interface SampleVectors extends SampleVectorsHeader {
  vectors: Float32Array[];
}

const MAGIC = [0x4d, 0x47, 0x53, 0x56]; // MGSV

/** FNV-1a 32-bit over the texts joined by NUL, as 8 hex digits: cheap, stable, enough to see a change. */
export function textsHash(texts: readonly string[]): string {
  let h = 0x811c9dc5;
  const s = texts.join('\u0000');
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

export function encodeSampleVectors(header: Omit<SampleVectorsHeader, 'version' | 'count'>, vectors: readonly Float32Array[]): Uint8Array {
  const head = new TextEncoder().encode(JSON.stringify({ version: 1, ...header, count: vectors.length }));
  const start = Math.ceil((8 + head.length) / 4) * 4;
  const out = new Uint8Array(start + vectors.length * header.dim * 4);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(4, head.length, true);
  out.set(head, 8);
  const view = new DataView(out.buffer);
  vectors.forEach((v, i) => {
    if (v.length !== header.dim) throw new Error(`vector ${i} has ${v.length} dimensions, not ${header.dim}`);
    for (let j = 0; j < v.length; j++) view.setFloat32(start + (i * header.dim + j) * 4, v[j], true);
  });
  return out;
}

/** Reads the file; throws an Error saying what is wrong with a file that is not one. */
export function decodeSampleVectors(bytes: ArrayBuffer): SampleVectors {
  const u8 = new Uint8Array(bytes);
  if (u8.length < 8 || MAGIC.some((b, i) => u8[i] !== b)) throw new Error('not a sample vectors file');
  const view = new DataView(bytes);
  const headLen = view.getUint32(4, true);
  if (8 + headLen > u8.length) throw new Error('sample vectors header cut short');
  const h = JSON.parse(new TextDecoder().decode(u8.subarray(8, 8 + headLen))) as SampleVectorsHeader;
  if (h.version !== 1 || typeof h.model !== 'string' || !(h.dim > 0) || !(h.count >= 0) || typeof h.textsHash !== 'string')
    throw new Error('sample vectors header is not understood');
  const start = Math.ceil((8 + headLen) / 4) * 4;
  if (start + h.count * h.dim * 4 !== u8.length) throw new Error('sample vectors file has the wrong length');
  const vectors: Float32Array[] = [];
  for (let i = 0; i < h.count; i++) {
    const v = new Float32Array(h.dim);
    for (let j = 0; j < h.dim; j++) v[j] = view.getFloat32(start + (i * h.dim + j) * 4, true);
    if (!v.every(Number.isFinite)) throw new Error(`sample vector ${i} is not finite`);
    vectors.push(v);
  }
  return { ...h, vectors };
}
