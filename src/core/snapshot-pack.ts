// Named typed arrays packed into ONE byte stream (issue 13, the engine snapshot): the built
// indexes' arrays (src/core/vectors/store-pack.ts, src/core/pipeline/space-index-pack.ts) go in
// as they are, each at an 8-byte-aligned offset, so unpacking makes views into the stream (no copy
// per array, no object per memory). A directory (`PackEntry[]`, small) says where each one is;
// string lists (memory ids) are stored as UTF-16 code units, NUL-separated. `checksum` covers every byte.
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
  bytes: Uint8Array<ArrayBuffer>;
  /** Small numbers and strings the readers need (dimensions, encoder ids, counts). */
  meta: Record<string, number | string | boolean>;
}

const ALIGN = 8;
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

  finish(): PackedStream {
    let size = 0;
    const entries: PackEntry[] = this.parts.map((p) => {
      const e = { name: p.name, kind: p.kind, offset: size, length: p.data.length };
      size += Math.ceil(p.data.byteLength / ALIGN) * ALIGN;
      return e;
    });
    const bytes = new Uint8Array(size);
    this.parts.forEach((p, i) => bytes.set(new Uint8Array(p.data.buffer, p.data.byteOffset, p.data.byteLength), entries[i].offset));
    return { entries, bytes, meta: { ...this.meta } };
  }
}

/** Reads a stream's arrays as views (checked against the directory and the stream's size). */
export class PackReader {
  private readonly byName = new Map<string, PackEntry>();
  constructor(private readonly stream: PackedStream) {
    for (const e of stream.entries) {
      if (!(e.kind in KINDS) || !Number.isInteger(e.offset) || e.offset % ALIGN !== 0 || !Number.isInteger(e.length) || e.length < 0) throw invalid(`a bad directory entry (${e.name})`);
      const end = e.offset + e.length * KINDS[e.kind].BYTES_PER_ELEMENT;
      if (end > stream.bytes.byteLength) throw invalid(`${e.name} runs past the end`);
      this.byName.set(e.name, e);
    }
    if (stream.bytes.byteOffset % ALIGN !== 0) throw invalid('a misaligned stream');
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

  /** The array `name` as a view; `length` (when given) must match. */
  get<K extends PackKind>(name: string, kind: K, length?: number): ArrayOf<K> {
    const e = this.byName.get(name);
    if (!e) throw invalid(`${name} is missing`);
    if (e.kind !== kind) throw invalid(`${name} is ${e.kind}, not ${kind}`);
    if (length !== undefined && e.length !== length) throw invalid(`${name} has ${e.length} elements, not ${length}`);
    const b = this.stream.bytes;
    return new KINDS[kind](b.buffer, b.byteOffset + e.offset, e.length) as ArrayOf<K>;
  }

  strings(name: string, count?: number): string[] {
    const units = this.get(name, 'u16');
    const n = this.num(`${name}#`);
    const out = n === 0 ? [] : new TextDecoder('utf-16le').decode(units).split(String.fromCharCode(SEP));
    if (out.length !== n || (count !== undefined && n !== count)) throw invalid(`${name} holds ${out.length} strings, not ${count ?? n}`);
    return out;
  }
}

/** A fast checksum over every byte (Fletcher-style over 32-bit words, then the tail). */
export function streamChecksum(bytes: Uint8Array): number {
  const words = Math.floor(bytes.byteLength / 4);
  const w = bytes.byteOffset % 4 === 0 ? new Int32Array(bytes.buffer, bytes.byteOffset, words) : new Int32Array(bytes.slice(0, words * 4).buffer);
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
