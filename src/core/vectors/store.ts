// DenseStore: the dense vectors of one space (E1, E5, E10 ...) for ONE encoder, any dimension.
//
// Layout (slot-major, contiguous, grown by doubling):
//   codes   Int8Array   capacity × stride  int8 codes, x ≈ scale[slot] · codes[slot]; stride = dim
//                                          rounded up to 16, zero-padded; in a WebAssembly memory
//                                          when the SIMD kernel runs (simd.ts), else a JS array
//   scales  Float32Array capacity        per-vector scale
//   errors  Float32Array capacity        ||x − scale·codes|| (bounds the int8 dot's error)
//   floats  Float32Array capacity × dim   the unit f32 rows, only with keepFloat (exact rescoring)
//   ids     string[]                      slot -> memory id; `slotOf` the reverse map
// A vector is stored unit-normalised (cosine = dot). Removal is a swap-remove (the last slot moves
// into the hole, O(1)); callers that mirror per-slot data apply the same move (`remove` says which).
//
// Search (`shortlist` + rescoring): one int8 pass scores every accepted slot approximately and keeps
// the k-th best LOWER bound L (approx − bound); every slot whose UPPER bound reaches L is short-listed
// and rescored in f32. The true top k is always inside the short list (a slot outside has exact score
// < L <= the k-th exact score), so `search` returns exactly what a full f32 scan returns, same scores,
// same order (ties by id ascending). Without floats (`keepFloat: false`, the 1M plan) the int8 score
// is the answer (its error is at most the bound, ~0.01-0.02 for 384-768-d unit vectors).

import { AppError } from '../errors';
import { isFiniteVector, normalize } from '../vector';
import { topKIndices } from '../topk';
import { dotF32, dotI8, KthLargest } from './kernels';
import { dotErrorBound, quantiseInto } from './quantize';
import { CHUNK, SimdArena, strideOf } from './simd';

export interface DenseStoreOptions {
  dim: number;
  /** The encoder (producer) id of every vector held: vectors of two encoders are never compared. */
  encoder: string;
  /** Keep the f32 rows for exact rescoring and neighbour walks (default true). */
  keepFloat?: boolean;
  /** 'auto' (default): the WebAssembly SIMD int8 kernel where it runs, else JS; 'js': JS always (benches). */
  kernel?: 'auto' | 'js';
}

export interface DenseHit {
  slot: number;
  id: string;
  score: number;
}

export interface DenseScanOptions {
  /** The status gate, by slot: false = never returned (applied before the top k). */
  accept?: (slot: number) => boolean;
  /** Only scores >= this (e.g. a neighbour walk's minimum cosine). */
  minScore?: number;
  /** The encoder the query came from: refused (INVALID_EMBEDDING) when it is not the store's. */
  encoder?: string;
}

/** A query prepared once (normalised + quantised), reusable across scans of the same store. */
export interface PreparedQuery {
  unit: Float32Array;
  codes: Int8Array;
  scale: number;
  error: number;
}

/** The store's arrays as `parts()` hands them out (read only). */
export interface StoreParts {
  codes: Int8Array;
  scales: Float32Array;
  errors: Float32Array;
  floats: Float32Array | null;
  arena: SimdArena | null;
  ids: readonly string[];
}

/** Told of every change, after it is made (an approximate index keeps its lists in step). */
export interface DenseWatcher {
  /** `slot` now holds a new (`added`) or replaced vector. */
  written(slot: number, added: boolean): void;
  /** `slot` was removed; `moved`: the last slot's vector now sits in `slot` (swap-remove). `size`: after. */
  removed(slot: number, moved: { from: number; to: number } | null, size: number): void;
  /** Before `id` (at `slot`, its row still there) is removed. */
  removing?(slot: number, id: string): void;
}

export class DenseStore {
  readonly dim: number;
  readonly encoder: string;
  readonly keepFloat: boolean;
  readonly stride: number;
  /** Bumped by every change: caches keyed on slots compare it. */
  version = 0;
  private capacity = 0;
  private codes = new Int8Array(0);
  private scales = new Float32Array(0);
  private errors = new Float32Array(0);
  private floats: Float32Array | null;
  private readonly arena: SimdArena | null;
  private readonly ids: string[] = [];
  private readonly slots = new Map<string, number>();
  // per-scan scratch (reused, never escapes)
  private approx = new Float64Array(0);
  private order = new Int32Array(0);
  private readonly watchers: DenseWatcher[] = [];

  constructor(opts: DenseStoreOptions) {
    if (!Number.isInteger(opts.dim) || opts.dim < 1)
      throw new AppError('INVALID_CONFIG', `Vector dimension must be a whole number >= 1 (got ${opts.dim}).`);
    if (typeof opts.encoder !== 'string' || opts.encoder.length === 0) throw new AppError('INVALID_CONFIG', 'A vector store needs the id of its encoder.');
    this.dim = opts.dim;
    this.encoder = opts.encoder;
    this.keepFloat = opts.keepFloat ?? true;
    this.stride = strideOf(opts.dim);
    this.floats = this.keepFloat ? new Float32Array(0) : null;
    this.arena = opts.kernel === 'js' ? null : SimdArena.create(this.stride, 64);
    this.grow(64);
  }

  get size(): number {
    return this.ids.length;
  }

  /** Which int8 kernel scans: 'wasm-simd' or 'js'. */
  get kernel(): 'wasm-simd' | 'js' {
    return this.arena ? 'wasm-simd' : 'js';
  }

  /** Bytes held for the vectors (codes, scales, errors, f32 rows), capacity included. */
  get bytes(): number {
    return this.codes.byteLength + this.scales.byteLength * 2 + (this.floats?.byteLength ?? 0);
  }

  has = (id: string): boolean => this.slots.has(id);
  slotOf = (id: string): number | undefined => this.slots.get(id);
  idAt = (slot: number): string => this.ids[slot];

  /** Every id, slot order (a copy). */
  idList(): string[] {
    return this.ids.slice();
  }

  /** Refuses vectors of another encoder: their cosines mean nothing against these. */
  checkEncoder(encoder: string | undefined): void {
    if (encoder !== undefined && encoder !== this.encoder)
      throw new AppError(
        'INVALID_EMBEDDING',
        `These vectors come from the model "${encoder}", but the index holds the model "${this.encoder}"'s: vectors of two models cannot be compared.`,
      );
  }

  /** The unit f32 rows, slot-major (size × dim valid): a view, valid until the next change. */
  floatRows(): Float32Array | null {
    return this.floats ? this.floats.subarray(0, this.size * this.dim) : null;
  }

  /** The stored unit vector of `slot`: a view of the f32 row, or the dequantised codes without floats. */
  vectorAt(slot: number): Float32Array {
    const d = this.dim;
    if (this.floats) return this.floats.subarray(slot * d, slot * d + d);
    const out = new Float32Array(d);
    const s = this.scales[slot];
    for (let j = 0; j < d; j++) out[j] = this.codes[slot * this.stride + j] * s;
    return out;
  }

  vectorOf(id: string): Float32Array | undefined {
    const s = this.slots.get(id);
    return s === undefined ? undefined : this.vectorAt(s);
  }

  /** Room for `n` vectors without regrowing (a load that knows its size: no doubling slack). */
  reserve(n: number): void {
    if (n > this.capacity) this.grow(n);
  }

  /** Checks a vector without storing it (dimension, finite values, encoder). */
  validate(vec: Float32Array, encoder?: string): void {
    this.checkEncoder(encoder);
    if (vec.length !== this.dim) throw new AppError('INVALID_EMBEDDING', `The vector has ${vec.length} dimensions; the index expects ${this.dim}.`);
    if (!isFiniteVector(vec)) throw new AppError('INVALID_EMBEDDING');
  }

  /** Adds or replaces `id`'s vector (normalised here); O(1) amortised. Returns its slot. */
  set(id: string, vec: Float32Array, encoder?: string): number {
    this.validate(vec, encoder);
    const unit = normalize(vec);
    let slot = this.slots.get(id);
    const added = slot === undefined;
    if (slot === undefined) {
      slot = this.ids.length;
      if (slot >= this.capacity) this.grow(this.capacity * 2);
      this.ids.push(id);
      this.slots.set(id, slot);
    }
    this.write(slot, unit);
    this.version++;
    for (const w of this.watchers) w.written(slot, added);
    return slot;
  }

  /**
   * Removes `id` by swap-remove. Returns the move done: the slot that was `from` (the last) is now
   * `to` (the hole), or null when nothing moved (the last slot was removed, or `id` was absent).
   */
  remove(id: string): { from: number; to: number } | null {
    const slot = this.slots.get(id);
    if (slot === undefined) return null;
    for (const w of this.watchers) w.removing?.(slot, id);
    this.slots.delete(id);
    this.version++;
    const last = this.ids.length - 1;
    let moved: { from: number; to: number } | null = null;
    if (slot !== last) {
      const d = this.dim;
      const st = this.stride;
      this.codes.copyWithin(slot * st, last * st, last * st + st);
      if (this.floats) this.floats.copyWithin(slot * d, last * d, last * d + d);
      this.scales[slot] = this.scales[last];
      this.errors[slot] = this.errors[last];
      const movedId = this.ids[last];
      this.ids[slot] = movedId;
      this.slots.set(movedId, slot);
      moved = { from: last, to: slot };
    }
    this.ids.pop();
    for (const w of this.watchers) w.removed(slot, moved, this.ids.length);
    return moved;
  }

  /**
   * Fills an empty store with packed rows (store-pack.ts checks them): ids by slot, codes size ×
   * stride, scales, errors, floats size × dim. `ownFloats`: the floats are the caller's to give
   * (a buffer of their own): kept as they are instead of copied, when they fill the capacity.
   */
  adopt(ids: readonly string[], codes: Int8Array, scales: Float32Array, errors: Float32Array, floats: Float32Array | null, ownFloats = false): void {
    if (this.ids.length) throw new AppError('SNAPSHOT_INVALID', undefined, 'the vector store is not empty');
    const keep = ownFloats && floats !== null && this.floats !== null && this.capacity <= ids.length && floats.length === ids.length * this.dim;
    if (keep) this.floats = null; // grow() makes no float rows to copy into
    if (ids.length > this.capacity) this.grow(ids.length);
    this.codes.set(codes);
    this.scales.set(scales);
    this.errors.set(errors);
    if (keep) this.floats = floats;
    else if (floats) this.floats?.set(floats);
    for (let s = 0; s < ids.length; s++) this.slots.set(ids[s], this.ids.push(ids[s]) - 1);
    for (let s = 0; s < ids.length; s++) for (const w of this.watchers) w.written(s, true);
    this.version++;
  }

  /** Normalises and quantises a query once. */
  prepare(q: Float32Array, encoder?: string): PreparedQuery {
    this.validate(q, encoder);
    const unit = normalize(q);
    const codes = new Int8Array(this.dim);
    const { scale, error } = quantiseInto(unit, codes, 0);
    return { unit, codes, scale, error };
  }

  /**
   * The certified short list for the best `k` (see the file's head): slots, ascending, whose exact
   * score may reach the k-th best. With `minScore`, only slots whose upper bound reaches it.
   */
  shortlist(p: PreparedQuery, k: number, opts: DenseScanOptions = {}): Int32Array {
    if (k <= 0 || this.ids.length === 0) return new Int32Array(0);
    const count = this.scoreAll(p, opts);
    const { approx, order, errors } = this;
    const eq = p.error;
    const kth = new KthLargest(k);
    for (let i = 0; i < count; i++) kth.offer(approx[i] - dotErrorBound(eq, errors[order[i]]));
    const cut = kth.value;
    let m = 0;
    for (let i = 0; i < count; i++) {
      const s = order[i];
      if (approx[i] + dotErrorBound(eq, errors[s]) >= cut) order[m++] = s;
    }
    return order.slice(0, m);
  }

  /**
   * The int8 pass: the approximate score of every accepted slot whose upper bound reaches
   * `minScore`, into the scratch `approx` / `order` (slot) arrays; returns how many.
   */
  private scoreAll(p: PreparedQuery, opts: DenseScanOptions): number {
    const n = this.ids.length;
    if (this.approx.length < n) {
      this.approx = new Float64Array(this.capacity);
      this.order = new Int32Array(this.capacity);
    }
    const { approx, order, codes, scales, errors, dim, stride, arena } = this;
    const accept = opts.accept;
    const floor = opts.minScore ?? -Infinity;
    const qs = p.scale;
    const eq = p.error;
    let count = 0;
    if (arena) {
      arena.setQuery(p.codes);
      for (let from = 0; from < n; from += CHUNK) {
        const c = Math.min(CHUNK, n - from);
        const out = arena.chunk(from, c);
        for (let i = 0; i < c; i++) {
          const s = from + i;
          if (accept && !accept(s)) continue;
          const a = qs * scales[s] * out[i];
          if (a + dotErrorBound(eq, errors[s]) < floor) continue;
          approx[count] = a;
          order[count++] = s;
        }
      }
      return count;
    }
    for (let s = 0; s < n; s++) {
      if (accept && !accept(s)) continue;
      const a = qs * scales[s] * dotI8(p.codes, codes, s * stride, dim);
      if (a + dotErrorBound(eq, errors[s]) < floor) continue;
      approx[count] = a;
      order[count++] = s;
    }
    return count;
  }

  /**
   * The best `k` by cosine (score desc, id asc), after `accept`: exactly the full f32 scan's answer
   * when floats are kept, the int8 estimate otherwise.
   */
  search(q: Float32Array | PreparedQuery, k: number, opts: DenseScanOptions = {}): DenseHit[] {
    const p = q instanceof Float32Array ? this.prepare(q, opts.encoder) : (this.checkEncoder(opts.encoder), q);
    if (!this.floats) return this.approximate(p, k, opts);
    const short = this.shortlist(p, k, opts);
    const d = this.dim;
    const scores = new Float64Array(short.length);
    const floor = opts.minScore ?? -Infinity;
    let m = 0;
    for (let i = 0; i < short.length; i++) {
      const sc = dotF32(p.unit, this.floats, short[i] * d, d);
      if (sc < floor) continue;
      scores[m] = sc;
      short[m++] = short[i];
    }
    return topKIndices(scores, m, k, (i) => this.ids[short[i]]).map((i) => ({ slot: short[i], id: this.ids[short[i]], score: scores[i] }));
  }

  /** The `k` nearest other vectors of the memory `id` (its own slot excluded). */
  nearest(id: string, k: number, opts: DenseScanOptions = {}): DenseHit[] {
    const self = this.slots.get(id);
    if (self === undefined) return [];
    const accept = opts.accept;
    return this.search(this.vectorAt(self).slice(), k, { ...opts, accept: (s) => s !== self && (!accept || accept(s)) });
  }

  /** Registers a watcher of every later change (see DenseWatcher); returns its removal. */
  watch(w: DenseWatcher): () => void {
    this.watchers.push(w);
    return () => void this.watchers.splice(this.watchers.indexOf(w) >>> 0, 1);
  }

  /**
   * The scan's arrays, for the approximate index in this folder (among.ts, ivf.ts): read only,
   * valid until the next change (a growth replaces them).
   */
  parts(): StoreParts {
    return { codes: this.codes, scales: this.scales, errors: this.errors, floats: this.floats, arena: this.arena, ids: this.ids };
  }

  private approximate(p: PreparedQuery, k: number, opts: DenseScanOptions): DenseHit[] {
    const m = this.scoreAll(p, opts);
    const floor = opts.minScore ?? -Infinity;
    const slots = this.order.slice(0, m);
    const scores = this.approx.slice(0, m).map((a) => (a < floor ? -Infinity : a));
    return topKIndices(scores, m, k, (i) => this.ids[slots[i]])
      .filter((i) => scores[i] >= floor)
      .map((i) => ({ slot: slots[i], id: this.ids[slots[i]], score: scores[i] }));
  }

  private write(slot: number, unit: Float32Array): void {
    const d = this.dim;
    const { scale, error } = quantiseInto(unit, this.codes, slot * this.stride);
    this.scales[slot] = scale;
    this.errors[slot] = error;
    if (this.floats) this.floats.set(unit, slot * d);
  }

  private grow(cap: number): void {
    const d = this.dim;
    if (this.arena) {
      this.arena.grow(cap);
      this.codes = this.arena.codes;
    } else {
      const codes = new Int8Array(cap * this.stride);
      codes.set(this.codes);
      this.codes = codes;
    }
    const scales = new Float32Array(cap);
    scales.set(this.scales);
    this.scales = scales;
    const errors = new Float32Array(cap);
    errors.set(this.errors);
    this.errors = errors;
    if (this.floats) {
      const f = new Float32Array(cap * d);
      f.set(this.floats);
      this.floats = f;
    }
    this.capacity = cap;
  }
}
