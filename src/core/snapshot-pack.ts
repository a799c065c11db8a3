// Named typed arrays packed into ONE byte stream (issue 13, the engine snapshot): the built
// indexes' arrays (src/core/vectors/store-pack.ts, src/core/pipeline/space-index-pack.ts) go in
// as they are, each at an 8-byte-aligned offset, so unpacking makes views into the stream (no copy
// per array, no object per memory). A directory (`PackEntry[]`, small) says where each one is;
// string lists (memory ids) are stored as UTF-16 code units, NUL-separated. `checksum` covers every byte.
// The stream's bytes are held in consecutive parts (the rows it is stored in): the writer cuts
// them at array boundaries (an array larger than a part spans several), so a reader views each
// array inside its part and copies only an array that spans parts (or one of a stream cut
// elsewhere, as the first engine snapshots were): no join of the whole stream, no second copy.
// Readers check the kind and length of each array they take; anything wrong is SNAPSHOT_INVALID.

import { AppError } from './errors';

export type PackedArray = Float32Array | Float64Array | Int32Array | Uint32Array | Uint8Array | Int8Array | Uint16Array;
const KINDS = {
  f32: Float32Array,
  f64: Float64Array,
  i32: Int32Array,
  u32: Uint32Array,
  u8: Uint8Array,
  i8: Int8Array,
  u16: Uint16Array,
} as const;
export type PackKind = keyof typeof KINDS;
type ArrayOf<K extends PackKind> = InstanceType<(typeof KINDS)[K]>;

export interface PackEntry {
  name: string;
  kind: PackKind;
  /** Byte offset in the stream (a multiple of 8). */
  offset: number;
  /** Elements. */
  length: number;
}

export interface PackedStream {
  entries: PackEntry[];
  /** The stream's bytes in consecutive parts (one part: the whole stream). */
  bytes: readonly Uint8Array<ArrayBuffer>[];
  /** Small numbers and strings the readers need (dimensions, encoder ids, counts). */
  meta: Record<string, number | string | boolean>;
}

const ALIGN = 8;
/** The parts a stored stream is cut in (one stored row each; a multiple of 8): one structured-clone item per row, none near a browser's limits. */
export const STREAM_PART_BYTES = 32 * 2 ** 20;
const SEP = 0;

export const invalid = (detail: string): AppError => new AppError('SNAPSHOT_INVALID', undefined, detail);

function kindOf(a: PackedArray): PackKind {
  for (const [k, C] of Object.entries(KINDS)) if (a instanceof C) return k as PackKind;
  throw invalid('an array of an unknown kind');
}

/** Collects arrays (kept by reference until `finish`, which copies them once into the stream). */
export class PackWriter {
  private readonly parts: { name: string; kind: PackKind; data: PackedArray }[] = [];
  private readonly names = new Set<string>();
  readonly meta: Record<string, number | string | boolean> = {};

  put(name: string, data: PackedArray): void {
    if (this.names.has(name)) throw invalid(`two arrays named ${name}`);
    this.names.add(name);
    this.parts.push({ name, kind: kindOf(data), data });
  }

  /** A list of strings without NUL characters (ids, encoder names). */
  putStrings(name: string, list: readonly string[]): void {
    for (const s of list) if (s.includes('\u0000')) throw invalid('a string with a NUL character');
    const joined = list.join('\u0000');
    const units = new Uint16Array(joined.length);
    for (let i = 0; i < joined.length; i++) units[i] = joined.charCodeAt(i);
    this.put(name, units);
    this.meta[`${name}#`] = list.length;
  }

  /**
   * The stream in parts of at most `maxPart` bytes (a multiple of 8), cut at array boundaries; an
   * array larger than a part is split over consecutive parts. Each array is copied once, into its part.
   */
  finish(maxPart = Number.POSITIVE_INFINITY): PackedStream {
    const { stream, starts } = this.layout(maxPart);
    this.parts.forEach((p, i) => copyInto(stream.bytes, starts, stream.entries[i].offset, bytesOf(p.data)));
    return stream;
  }

  /**
   * `finish` with the copying in steps of at most `step` bytes, awaiting `pause` after each (the
   * engine's save: the worker answers queries in between; the caller keeps the arrays unchanged
   * until it resolves).
   */
  async finishInSteps(maxPart: number, pause: () => Promise<void>, step = 4 * 2 ** 20): Promise<PackedStream> {
    const { stream, starts } = this.layout(maxPart);
    for (let i = 0; i < this.parts.length; i++) {
      const src = bytesOf(this.parts[i].data);
      for (let at = 0; at < src.byteLength; at += step) {
        copyInto(stream.bytes, starts, stream.entries[i].offset + at, src.subarray(at, at + step));
        await pause();
      }
    }
    return stream;
  }

  /** The directory, the cuts and the (empty) parts. */
  private layout(maxPart: number): { stream: PackedStream; starts: number[] } {
    if (maxPart !== Number.POSITIVE_INFINITY && (!Number.isInteger(maxPart) || maxPart <= 0 || maxPart % ALIGN !== 0)) throw invalid(`a part of ${maxPart} bytes`);
    let size = 0;
    const entries: PackEntry[] = this.parts.map((p) => {
      const e = { name: p.name, kind: p.kind, offset: size, length: p.data.length };
      size += Math.ceil(p.data.byteLength / ALIGN) * ALIGN;
      return e;
    });
    // the cuts: a part closes before an array that would not fit in it; an oversized array is cut every maxPart bytes
    const cuts: number[] = [0];
    entries.forEach((e, i) => {
      const end = i + 1 < entries.length ? entries[i + 1].offset : size;
      if (end - cuts[cuts.length - 1] <= maxPart) return;
      let from = e.offset;
      if (from > cuts[cuts.length - 1]) cuts.push(from);
      while (end - from > maxPart) cuts.push((from += maxPart));
    });
    cuts.push(size);
    const out: Uint8Array<ArrayBuffer>[] = [];
    for (let k = 0; k + 1 < cuts.length; k++) if (cuts[k + 1] > cuts[k] || out.length === 0) out.push(new Uint8Array(cuts[k + 1] - cuts[k]));
    return { stream: { entries, bytes: out, meta: { ...this.meta } }, starts: partStarts(out) };
  }
}

const bytesOf = (a: PackedArray): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Each part's offset in the stream (and the stream's length last). */
function partStarts(parts: readonly Uint8Array[]): number[] {
  const out = [0];
  for (const p of parts) out.push(out[out.length - 1] + p.byteLength);
  return out;
}

/** The part holding stream offset `at` (the last part whose start is at or before it). */
function partAt(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Writes `src` into the parts from stream offset `at`. */
function copyInto(parts: readonly Uint8Array[], starts: readonly number[], at: number, src: Uint8Array): void {
  let done = 0;
  for (let k = partAt(starts, at); done < src.byteLength; k++) {
    const local = at + done - starts[k];
    const n = Math.min(src.byteLength - done, parts[k].byteLength - local);
    parts[k].set(src.subarray(done, done + n), local);
    done += n;
  }
}

/** Bytes [at, at + n) of the stream, copied out of the parts. */
function copyOut(parts: readonly Uint8Array[], starts: readonly number[], at: number, n: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(n);
  let done = 0;
  for (let k = partAt(starts, at); done < n; k++) {
    const local = at + done - starts[k];
    const m = Math.min(n - done, parts[k].byteLength - local);
    out.set(parts[k].subarray(local, local + m), done);
    done += m;
  }
  return out;
}

/** The stream's length in bytes. */
export const streamBytes = (parts: readonly Uint8Array[]): number => parts.reduce((n, p) => n + p.byteLength, 0);

/**
 * True when the stream's parts are cut as `finish(maxPart)` cuts them: every array no larger than
 * a part lies inside one part (so a reader copies out only the larger ones). Rows cut every
 * `maxPart` bytes, as the first engine snapshots were, are not: the arrays across their cuts are
 * copied out and kept twice while the rows live.
 */
export function cutAtArrays(s: PackedStream, maxPart: number): boolean {
  const starts = partStarts(s.bytes);
  return s.entries.every((e) => {
    const n = e.length * KINDS[e.kind].BYTES_PER_ELEMENT;
    if (n === 0 || n > maxPart) return true;
    const k = partAt(starts, e.offset);
    return e.offset + n <= starts[k + 1];
  });
}

/** The whole stream in one buffer (tests, tools; a reader never needs it). */
export function joinParts(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  return copyOut(parts, partStarts(parts), 0, streamBytes(parts));
}

/** Reads a stream's arrays as views (checked against the directory and the stream's size); an array across parts is copied out. */
export class PackReader {
  private readonly byName = new Map<string, PackEntry>();
  private readonly starts: number[];
  constructor(private readonly stream: PackedStream) {
    this.starts = partStarts(stream.bytes);
    const total = this.starts[this.starts.length - 1];
    for (const e of stream.entries) {
      if (!(e.kind in KINDS) || !Number.isInteger(e.offset) || e.offset % ALIGN !== 0 || !Number.isInteger(e.length) || e.length < 0) throw invalid(`a bad directory entry (${e.name})`);
      const end = e.offset + e.length * KINDS[e.kind].BYTES_PER_ELEMENT;
      if (end > total) throw invalid(`${e.name} runs past the end`);
      this.byName.set(e.name, e);
    }
  }

  get meta(): PackedStream['meta'] {
    return this.stream.meta;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  num(key: string): number {
    const v = this.stream.meta[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw invalid(`${key} is missing`);
    return v;
  }

  str(key: string): string {
    const v = this.stream.meta[key];
    if (typeof v !== 'string') throw invalid(`${key} is missing`);
    return v;
  }

  /** The array `name` as a view into its part (a copy when it spans parts or is misaligned in one); `length` (when given) must match. */
  get<K extends PackKind>(name: string, kind: K, length?: number): ArrayOf<K> {
    const e = this.byName.get(name);
    if (!e) throw invalid(`${name} is missing`);
    if (e.kind !== kind) throw invalid(`${name} is ${e.kind}, not ${kind}`);
    if (length !== undefined && e.length !== length) throw invalid(`${name} has ${e.length} elements, not ${length}`);
    const C = KINDS[kind];
    const n = e.length * C.BYTES_PER_ELEMENT;
    if (n === 0) return new C(0) as ArrayOf<K>;
    const parts = this.stream.bytes;
    const k = partAt(this.starts, e.offset);
    const p = parts[k];
    const at = p.byteOffset + e.offset - this.starts[k];
    if (e.offset + n <= this.starts[k + 1] && at % C.BYTES_PER_ELEMENT === 0) return new C(p.buffer, at, e.length) as ArrayOf<K>;
    return new C(copyOut(parts, this.starts, e.offset, n).buffer, 0, e.length) as ArrayOf<K>;
  }

  /** The array `name` in a buffer of its own (a copy unless it spans parts, which already copies): for a store that keeps it. */
  own<K extends PackKind>(name: string, kind: K, length?: number): ArrayOf<K> {
    const a = this.get(name, kind, length);
    return a.byteOffset === 0 && a.byteLength === a.buffer.byteLength && !this.stream.bytes.some((p) => p.buffer === a.buffer) ? a : (a.slice() as ArrayOf<K>);
  }

  strings(name: string, count?: number): string[] {
    const units = this.get(name, 'u16');
    const n = this.num(`${name}#`);
    const out = n === 0 ? [] : new TextDecoder('utf-16le').decode(units).split(String.fromCharCode(SEP));
    if (out.length !== n || (count !== undefined && n !== count)) throw invalid(`${name} holds ${out.length} strings, not ${count ?? n}`);
    return out;
  }
}

/**
 * A fast checksum over every byte of the stream, read part by part (Fletcher-style over 32-bit
 * little-endian words, then the tail bytes). The same value however the stream is cut. Four words
 * per step (`a` gains their sum, `b` gains 4a + 4w0 + 3w1 + 2w2 + w3, as four single steps would):
 * the dependency chain is a quarter as long.
 */
export function streamChecksum(parts: readonly Uint8Array[]): number {
  const st = checksumStart();
  for (const p of parts) checksumAdd(st, p);
  return checksumEnd(st);
}

export interface ChecksumState {
  a: number;
  b: number;
  /** Bytes seen. */
  n: number;
  /** Bytes of an unfinished word carried to the next part (at most 3). */
  carry: number[];
}

export const checksumStart = (): ChecksumState => ({ a: 1, b: 0, n: 0, carry: [] });

/** Adds the next part of the stream. */
export function checksumAdd(st: ChecksumState, bytes: Uint8Array): void {
  let i = 0;
  st.n += bytes.byteLength;
  // finish a word begun in the previous part
  while (st.carry.length > 0 && st.carry.length < 4 && i < bytes.byteLength) st.carry.push(bytes[i++]);
  if (st.carry.length === 4) {
    const c = st.carry;
    st.a = (st.a + (c[0] | (c[1] << 8) | (c[2] << 16) | (c[3] << 24))) | 0;
    st.b = (st.b + st.a) | 0;
    st.carry = [];
  }
  const start = bytes.byteOffset + i;
  const words = Math.floor((bytes.byteLength - i) / 4);
  const w = start % 4 === 0 ? new Int32Array(bytes.buffer, start, words) : new Int32Array(bytes.slice(i, i + words * 4).buffer);
  let a = st.a;
  let b = st.b;
  const quads = words - (words % 4);
  let k = 0;
  for (; k < quads; k += 4) {
    const w0 = w[k];
    const w1 = w[k + 1];
    const w2 = w[k + 2];
    const w3 = w[k + 3];
    b = (b + 4 * a + 4 * w0 + 3 * w1 + 2 * w2 + w3) | 0;
    a = (a + w0 + w1 + w2 + w3) | 0;
  }
  for (; k < words; k++) {
    a = (a + w[k]) | 0;
    b = (b + a) | 0;
  }
  st.a = a;
  st.b = b;
  for (let j = i + words * 4; j < bytes.byteLength; j++) st.carry.push(bytes[j]);
}

export function checksumEnd(st: ChecksumState): number {
  let { a, b } = st;
  // the tail: bytes after the last whole word, one by one
  for (const x of st.carry) {
    a = (a + x) | 0;
    b = (b + a) | 0;
  }
  return (Math.imul(b, 0x01000193) ^ a ^ st.n) >>> 0;
}
