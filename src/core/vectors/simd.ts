// The int8 scan in WebAssembly SIMD: a small module written out here (no toolchain, nothing
// fetched), run wherever the engine runs (worker, main thread, Node). It computes, for `n` rows of
// `stride` int8 codes, the int32 dot product with a query held as int16 (sign-extended once):
// per 16 codes one v128 load, two sign extensions to i16x8 and two i32x4.dot_i16x8_s. Two entry
// points (421 bytes in all): `dots` over consecutive rows, `gather` over rows named by a slot list
// (an approximate index's candidates). Where
// WebAssembly or its SIMD is missing (validate() says no), the store scans in JS (kernels.ts).
//
// Memory layout of the store's WebAssembly.Memory (grown by the store, never shrunk):
//   [0, 64 KiB)               the query as int16 (stride ≤ 32768)
//   [64 KiB, +cap × stride)   the int8 codes, slot-major, each row zero-padded to `stride` (× 16)
//   then CHUNK × 4 bytes      the int32 dot products of one chunk of rows
//   then CHUNK × 4 bytes      the slots of one gathered chunk (an approximate index's candidates)

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

/** Local indices of one kernel; `gather`: rows found through an int32 slot list (base + slot · stride). */
interface Locals {
  q16: number;
  data: number;
  n: number;
  stride: number;
  out: number;
  j: number;
  acc: number;
  dv: number;
  gather?: { base: number; idx: number };
}

function kernel(L: Locals): number[] {
  const lane = (l: number) => [...get(L.acc), SIMD, 0x1b, l];
  const g = L.gather;
  return [
    0x02, 0x40, // block
    ...get(L.n), 0x45, 0x0d, 0x00, // n == 0: out
    0x03, 0x40, // loop $rows
    ...(g ? [...get(g.base), ...get(g.idx), 0x28, 0x02, 0x00, ...get(L.stride), 0x6c, 0x6a, ...set(L.data)] : []), // data = base + idx[i] · stride
    SIMD, 0x0c, ...new Array(16).fill(0), ...set(L.acc), // acc = 0
    ...i32c(0), ...set(L.j), // j = 0
    0x03, 0x40, // loop $inner
    ...get(L.data), ...get(L.j), 0x6a, ...v128load(0), ...set(L.dv), // dv = load(data + j)
    ...get(L.acc),
    ...get(L.dv), ...EXT_LO,
    ...get(L.q16), ...get(L.j), ...i32c(1), 0x74, 0x6a, ...v128load(0), // q16 + 2j
    ...DOT, ...ADD4,
    ...get(L.dv), ...EXT_HI,
    ...get(L.q16), ...get(L.j), ...i32c(1), 0x74, 0x6a, ...v128load(16),
    ...DOT, ...ADD4,
    ...set(L.acc),
    ...get(L.j), ...i32c(16), 0x6a, ...tee(L.j), ...get(L.stride), 0x49, 0x0d, 0x00, // j += 16; j < stride: again
    0x0b, // end $inner
    ...get(L.out), ...lane(0), ...lane(1), 0x6a, ...lane(2), 0x6a, ...lane(3), 0x6a, 0x36, 0x02, 0x00, // out[i] = Σ lanes
    ...get(L.out), ...i32c(4), 0x6a, ...set(L.out),
    ...(g ? [...get(g.idx), ...i32c(4), 0x6a, ...set(g.idx)] : [...get(L.data), ...get(L.stride), 0x6a, ...set(L.data)]),
    ...get(L.n), ...i32c(1), 0x6b, ...tee(L.n), 0x0d, 0x00, // --n: again
    0x0b, // end $rows
    0x0b, // end block
    0x0b, // end function
  ];
}

function moduleBytes(): Uint8Array {
  // dots(q16, data, n, stride, out): locals 5 j, 6 acc, 7 dv
  const dots = [0x02, 0x01, 0x7f, 0x02, 0x7b, ...kernel({ q16: 0, data: 1, n: 2, stride: 3, out: 4, j: 5, acc: 6, dv: 7 })];
  // gather(q16, base, idx, n, stride, out): locals 6 j, 7 data, 8 acc, 9 dv
  const gather = [0x02, 0x02, 0x7f, 0x02, 0x7b, ...kernel({ q16: 0, data: 7, n: 3, stride: 4, out: 5, j: 6, acc: 8, dv: 9, gather: { base: 1, idx: 2 } })];
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [0x02, 0x60, 0x05, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00, 0x60, 0x06, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]),
    ...section(2, [0x01, ...str('env'), ...str('m'), 0x02, 0x00, 0x01]),
    ...section(3, [0x02, 0x00, 0x01]),
    ...section(7, [0x02, ...str('dots'), 0x00, 0x00, ...str('gather'), 0x00, 0x01]),
    ...section(10, [0x02, ...leb(dots.length), ...dots, ...leb(gather.length), ...gather]),
  ]);
}

/** The module's size in bytes (README, tests). */
export function moduleSize(): number {
  return moduleBytes().length;
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
type Gather = (q16: number, base: number, idx: number, n: number, stride: number, out: number) => void;

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
  private readonly gatherDots: Gather;
  private idx: Int32Array;
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
    this.gatherDots = inst.exports.gather as Gather;
    this.capacity = capacity;
    this.codes = new Int8Array(0);
    this.q16 = new Int16Array(0);
    this.out = new Int32Array(0);
    this.idx = new Int32Array(0);
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
    return QUERY_BYTES + cap * this.stride + CHUNK * 8;
  }

  private views(): void {
    const buf = this.memory.buffer;
    this.q16 = new Int16Array(buf, 0, this.stride);
    this.codes = new Int8Array(buf, QUERY_BYTES, this.capacity * this.stride);
    this.out = new Int32Array(buf, QUERY_BYTES + this.capacity * this.stride, CHUNK);
    this.idx = new Int32Array(buf, QUERY_BYTES + this.capacity * this.stride + CHUNK * 4, CHUNK);
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

  /**
   * The int32 dots of the rows `slots[from .. from + n)` (n ≤ CHUNK, any order) with the query, in
   * one call (the kernel reads each row through the slot list): a view, valid until the next call.
   */
  gather(slots: Int32Array, from: number, n: number): Int32Array {
    this.idx.set(slots.subarray(from, from + n));
    const outAt = QUERY_BYTES + this.capacity * this.stride;
    this.gatherDots(0, QUERY_BYTES, outAt + CHUNK * 4, n, this.stride, outAt);
    return this.out;
  }
}
