// One ArrayBuffer per (memory, space): the storage layer keeps one row per memory and space.
// Layout: 4-byte header [format version, kind tag, 0, 0], then the kind's payload (LE):
//   dense   f32[n]
//   sparse  u32 n | u32 indices[n] | f32 values[n]
//   binary  u8[n]
//   tokens  u32 rows | u32 dim | i8[rows*dim]   (unit rows x127: E12 is quantised at rest)
//   entity  u32 nEnt | u32 ids[nEnt] | u32 count | u32 dim | u32 relations[count] | f32 heads | f32 tails

import { AppError } from '../errors';
import type { SpaceId } from '../types';
import type { SpaceFeatures } from './features';
import { SPACE_IDS, SPACES, spaceLabel } from './registry';
import type { EntityFeatures, SparseVector, TokenMatrix } from './vectors';

export const FEATURE_FORMAT_VERSION = 1;

/** A memory's or query's features as they cross a worker boundary or rest in the database: one buffer per present space. */
export type SerializedFeatures = Partial<Record<SpaceId, ArrayBuffer>>;
const TAG = { dense: 1, sparse: 2, binary: 3, tokens: 4, entity: 5 } as const;
/** How a space's values are laid out (serialised here, held in columns by `pipeline/feature-columns.ts`). */
export type Kind = keyof typeof TAG;

export function kindOf(id: SpaceId): Kind {
  switch (SPACES[id].similarity) {
    case 'cosine':
      return 'dense';
    case 'jaccard':
    case 'sparse-cosine':
      return 'sparse';
    case 'hamming':
      return 'binary';
    case 'maxsim':
      return 'tokens';
    case 'transe':
      return 'entity';
  }
}

function header(buf: ArrayBuffer, kind: Kind): void {
  const u8 = new Uint8Array(buf, 0, 4);
  u8[0] = FEATURE_FORMAT_VERSION;
  u8[1] = TAG[kind];
}

export function serializeSpace(id: SpaceId, value: NonNullable<SpaceFeatures[SpaceId]>): ArrayBuffer {
  const kind = kindOf(id);
  switch (kind) {
    case 'dense': {
      const v = value as Float32Array;
      const buf = new ArrayBuffer(4 + v.length * 4);
      header(buf, kind);
      new Float32Array(buf, 4).set(v);
      return buf;
    }
    case 'sparse': {
      const v = value as SparseVector;
      const n = v.indices.length;
      const buf = new ArrayBuffer(8 + n * 8);
      header(buf, kind);
      new Uint32Array(buf, 4, 1)[0] = n;
      new Uint32Array(buf, 8, n).set(v.indices);
      new Float32Array(buf, 8 + n * 4, n).set(v.values);
      return buf;
    }
    case 'binary': {
      const v = value as Uint8Array;
      const buf = new ArrayBuffer(4 + v.length);
      header(buf, kind);
      new Uint8Array(buf, 4).set(v);
      return buf;
    }
    case 'tokens': {
      const m = value as TokenMatrix;
      const buf = new ArrayBuffer(12 + m.rows * m.dim);
      header(buf, kind);
      const u = new Uint32Array(buf, 4, 2);
      u[0] = m.rows;
      u[1] = m.dim;
      const q = new Int8Array(buf, 12, m.rows * m.dim);
      for (let r = 0; r < m.rows; r++) {
        let n = 0;
        for (let k = 0; k < m.dim; k++) n += m.data[r * m.dim + k] ** 2;
        const scale = n > 0 ? 127 / Math.sqrt(n) : 0;
        for (let k = 0; k < m.dim; k++) q[r * m.dim + k] = Math.round(m.data[r * m.dim + k] * scale);
      }
      return buf;
    }
    case 'entity': {
      const e = value as EntityFeatures;
      const n = e.entities.length;
      const { count, dim } = e.triples;
      const buf = new ArrayBuffer(4 + 4 + n * 4 + 8 + count * 4 + 2 * count * dim * 4);
      header(buf, kind);
      let o = 4;
      new Uint32Array(buf, o, 1)[0] = n;
      o += 4;
      new Uint32Array(buf, o, n).set(e.entities);
      o += n * 4;
      const cd = new Uint32Array(buf, o, 2);
      cd[0] = count;
      cd[1] = dim;
      o += 8;
      new Uint32Array(buf, o, count).set(e.triples.relations);
      o += count * 4;
      new Float32Array(buf, o, count * dim).set(e.triples.heads);
      o += count * dim * 4;
      new Float32Array(buf, o, count * dim).set(e.triples.tails);
      return buf;
    }
  }
}

function corrupt(id: SpaceId, why: string): AppError {
  return new AppError('INVALID_EMBEDDING', `Stored ${spaceLabel(id)} features are unreadable: ${why}`);
}

export function deserializeSpace(id: SpaceId, buf: ArrayBuffer): NonNullable<SpaceFeatures[SpaceId]> {
  const kind = kindOf(id);
  if (buf.byteLength < 4) throw corrupt(id, 'truncated header');
  const h = new Uint8Array(buf, 0, 4);
  if (h[0] !== FEATURE_FORMAT_VERSION) throw corrupt(id, `format version ${h[0]}, expected ${FEATURE_FORMAT_VERSION}`);
  if (h[1] !== TAG[kind]) throw corrupt(id, `kind tag ${h[1]}, expected ${TAG[kind]} (${kind})`);
  const need = (bytes: number) => {
    if (buf.byteLength < bytes) throw corrupt(id, `${buf.byteLength} bytes, expected at least ${bytes}`);
  };
  switch (kind) {
    case 'dense':
      if ((buf.byteLength - 4) % 4) throw corrupt(id, 'length is not a whole number of floats');
      return new Float32Array(buf.slice(4));
    case 'sparse': {
      need(8);
      const n = new Uint32Array(buf, 4, 1)[0];
      need(8 + n * 8);
      return { indices: new Uint32Array(buf.slice(8, 8 + n * 4)), values: new Float32Array(buf.slice(8 + n * 4, 8 + n * 8)) };
    }
    case 'binary':
      return new Uint8Array(buf.slice(4));
    case 'tokens': {
      need(12);
      const [rows, dim] = new Uint32Array(buf, 4, 2);
      need(12 + rows * dim);
      return tokensFromSteps(rows, dim, new Int8Array(buf, 12, rows * dim));
    }
    case 'entity': {
      need(8);
      let o = 4;
      const n = new Uint32Array(buf, o, 1)[0];
      o += 4;
      need(o + n * 4 + 8);
      const entities = new Uint32Array(buf.slice(o, o + n * 4));
      o += n * 4;
      const [count, dim] = new Uint32Array(buf, o, 2);
      o += 8;
      need(o + count * 4 + 2 * count * dim * 4);
      const relations = new Uint32Array(buf.slice(o, o + count * 4));
      o += count * 4;
      const heads = new Float32Array(buf.slice(o, o + count * dim * 4));
      o += count * dim * 4;
      const tails = new Float32Array(buf.slice(o, o + count * dim * 4));
      return { entities, triples: { count, dim, heads, tails, relations } };
    }
  }
}

/** One buffer per present space. */
export function serializeFeatures(f: SpaceFeatures): SerializedFeatures {
  const out: SerializedFeatures = {};
  for (const id of SPACE_IDS) {
    const v = f[id];
    if (v !== undefined) out[id] = serializeSpace(id, v);
  }
  return out;
}

export function deserializeFeatures(rows: SerializedFeatures): SpaceFeatures {
  const out: SpaceFeatures = {};
  for (const id of SPACE_IDS) {
    const b = rows[id];
    if (b !== undefined) (out as Record<SpaceId, unknown>)[id] = deserializeSpace(id, b);
  }
  return out;
}

/** The int8 steps a token matrix was decoded from (tokensFromSteps), by matrix. */
const STEPS = new WeakMap<TokenMatrix, Int8Array>();

/**
 * E12 as it rests (int8 steps of 1/127): a matrix whose `data` (q / 127 in f32, as always) is
 * decoded on first read, and whose steps `stepsOf` gives back. The engine's load keeps E12 as those
 * very steps (pipeline/feature-columns.ts), so a memory's E12 is never decoded to f32 and packed
 * again at a start (issue 13: that round trip was ~15 % of the engine's load at 30k).
 */
export function tokensFromSteps(rows: number, dim: number, q: Int8Array): TokenMatrix {
  const m: TokenMatrix = {
    rows,
    dim,
    // decoded on the first read, then a plain property (hot loops read it per element)
    get data(): Float32Array {
      const data = new Float32Array(q.length);
      for (let i = 0; i < q.length; i++) data[i] = q[i] / 127;
      Object.defineProperty(m, 'data', { value: data, writable: true, enumerable: true, configurable: true });
      return data;
    },
  };
  STEPS.set(m, q);
  return m;
}

/** The int8 steps `m` was made from by tokensFromSteps (read only), or undefined. */
export const stepsOf = (m: TokenMatrix): Int8Array | undefined => STEPS.get(m);
