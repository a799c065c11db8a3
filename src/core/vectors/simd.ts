// The int8 scan in WebAssembly SIMD: a 219-byte module written out here (no toolchain, nothing
// fetched), run wherever the engine runs (worker, main thread, Node). It computes, for `n` rows of
// `stride` int8 codes, the int32 dot product with a query held as int16 (sign-extended once):
// per 16 codes one v128 load, two sign extensions to i16x8 and two i32x4.dot_i16x8_s. Where
// WebAssembly or its SIMD is missing (validate() says no), the store scans in JS (kernels.ts).
//
// Memory layout of the store's WebAssembly.Memory (grown by the store, never shrunk):
//   [0, 64 KiB)               the query as int16 (stride ≤ 32768)
//   [64 KiB, +cap × stride)   the int8 codes, slot-major, each row zero-padded to `stride` (× 16)
//   then CHUNK × 4 bytes      the int32 dot products of one chunk of rows

export const QUERY_BYTES = 65536;
export const CHUNK = 4096;
const PAGE = 65536;

const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
};
const section = (id: number, body: number[]): number[] => [id, ...leb(body.length), ...body];
const str = (s: string): number[] => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];

// locals: 0 q16, 1 data, 2 n, 3 stride, 4 out (params, i32); 5 j (i32); 6 acc, 7 dv (v128)
const SIMD = 0xfd;
const get = (i: number) => [0x20, i];
const set = (i: number) => [0x21, i];
const tee = (i: number) => [0x22, i];
const i32c = (v: number) => [0x41, ...leb(v)]; // small non-negative constants only
const v128load = (offset: number) => [SIMD, 0x00, 0x00, ...leb(offset)];
const EXT_LO = [SIMD, 0x87, 0x01];
const EXT_HI = [SIMD, 0x88, 0x01];
const DOT = [SIMD, 0xba, 0x01];
const ADD4 = [SIMD, 0xae, 0x01];
const lane = (l: number) => [...get(6), SIMD, 0x1b, l];

function moduleBytes(): Uint8Array {
  const code = [
    0x02, 0x40, // block
    ...get(2), 0x45, 0x0d, 0x00, // n == 0: out
    0x03, 0x40, // loop $rows
    SIMD, 0x0c, ...new Array(16).fill(0), ...set(6), // acc = 0
    ...i32c(0), ...set(5), // j = 0
    0x03, 0x40, // loop $inner
    ...get(1), ...get(5), 0x6a, ...v128load(0), ...set(7), // dv = load(data + j)
    ...get(6),
    ...get(7), ...EXT_LO,
    ...get(0), ...get(5), ...i32c(1), 0x74, 0x6a, ...v128load(0), // q16 + 2j
    ...DOT, ...ADD4,
    ...get(7), ...EXT_HI,
    ...get(0), ...get(5), ...i32c(1), 0x74, 0x6a, ...v128load(16),
    ...DOT, ...ADD4,
    ...set(6),
    ...get(5), ...i32c(16), 0x6a, ...tee(5), ...get(3), 0x49, 0x0d, 0x00, // j += 16; j < stride: again
    0x0b, // end $inner
    ...get(4), ...lane(0), ...lane(1), 0x6a, ...lane(2), 0x6a, ...lane(3), 0x6a, 0x36, 0x02, 0x00, // out[i] = Σ lanes
    ...get(4), ...i32c(4), 0x6a, ...set(4),
    ...get(1), ...get(3), 0x6a, ...set(1),
    ...get(2), ...i32c(1), 0x6b, ...tee(2), 0x0d, 0x00, // --n: again
    0x0b, // end $rows
    0x0b, // end block
    0x0b, // end function
  ];
  const fn = [0x02, 0x01, 0x7f, 0x02, 0x7b, ...code]; // locals: 1 × i32, 2 × v128
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [0x01, 0x60, 0x05, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]),
    ...section(2, [0x01, ...str('env'), ...str('m'), 0x02, 0x00, 0x01]),
    ...section(3, [0x01, 0x00]),
    ...section(7, [0x01, ...str('dots'), 0x00, 0x00]),
    ...section(10, [0x01, ...leb(fn.length), ...fn]),
  ]);
}

interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmHost {
  Memory: new (d: { initial: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (m: object, imports: object) => { exports: Record<string, unknown> };
  validate(bytes: Uint8Array): boolean;
}

type Dots = (q16: number, data: number, n: number, stride: number, out: number) => void;

let compiled: object | null | undefined;

function host(): WasmHost | undefined {
  return (globalThis as unknown as { WebAssembly?: WasmHost }).WebAssembly;
}

/** The compiled module, or null where WebAssembly SIMD is not available (then JS scans). */
function wasmModule(): object | null {
  if (compiled !== undefined) return compiled;
  try {
    const w = host();
    const bytes = moduleBytes();
    compiled = w && w.validate(bytes) ? new w.Module(bytes) : null;
  } catch {
    compiled = null;
  }
  return compiled;
}

/** True when the SIMD kernel runs here (bench and tests report it). */
export function simdAvailable(): boolean {
  return wasmModule() !== null;
}

/** The rows' stride: the dimension rounded up to a multiple of 16 (the padding codes are 0). */
export function strideOf(dim: number): number {
  return (dim + 15) & ~15;
}

/** A growable int8 code arena in one WebAssembly memory, with the SIMD dot kernel over it. */
export class SimdArena {
  private readonly memory: WasmMemory;
  private readonly dots: Dots;
  private capacity = 0;
  codes: Int8Array<ArrayBuffer>;
  private q16: Int16Array;
  private out: Int32Array;

  private constructor(
    module: object,
    readonly stride: number,
    capacity: number,
  ) {
    const w = host()!;
    this.memory = new w.Memory({ initial: Math.ceil(this.bytesFor(capacity) / PAGE) });
    const inst = new w.Instance(module, { env: { m: this.memory } });
    this.dots = inst.exports.dots as Dots;
    this.capacity = capacity;
    this.codes = new Int8Array(0);
    this.q16 = new Int16Array(0);
    this.out = new Int32Array(0);
    this.views();
  }

  /** null when SIMD is not available here, or the stride does not fit the query area. */
  static create(stride: number, capacity: number): SimdArena | null {
    const m = wasmModule();
    if (!m || stride * 2 > QUERY_BYTES) return null;
    try {
      return new SimdArena(m, stride, capacity);
    } catch {
      return null; // no memory for the arena here: the JS kernel scans
    }
  }

  private bytesFor(cap: number): number {
    return QUERY_BYTES + cap * this.stride + CHUNK * 4;
  }

  private views(): void {
    const buf = this.memory.buffer;
    this.q16 = new Int16Array(buf, 0, this.stride);
    this.codes = new Int8Array(buf, QUERY_BYTES, this.capacity * this.stride);
    this.out = new Int32Array(buf, QUERY_BYTES + this.capacity * this.stride, CHUNK);
  }

  /** Room for `cap` rows; the codes keep their place (they start at a fixed offset). */
  grow(cap: number): void {
    const need = this.bytesFor(cap);
    const have = this.memory.buffer.byteLength;
    if (need > have) this.memory.grow(Math.ceil((need - have) / PAGE));
    this.capacity = cap;
    this.views();
  }

  /** Sets the query (int8 codes, zero-padded to the stride). */
  setQuery(codes: Int8Array): void {
    this.q16.fill(0);
    for (let j = 0; j < codes.length; j++) this.q16[j] = codes[j];
  }

  /** The int32 dots of rows [from, from + n) (n ≤ CHUNK) with the query: a view, valid until the next call. */
  chunk(from: number, n: number): Int32Array {
    this.dots(0, QUERY_BYTES + from * this.stride, n, this.stride, QUERY_BYTES + this.capacity * this.stride);
    return this.out;
  }
}
