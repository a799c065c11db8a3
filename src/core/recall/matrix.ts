// A contiguous, row-normalised vector matrix for neighbour scans (associative hops, lateral
// distances). Rows are L2-normalised once at build, so cosine = dot product: one tight pass over a
// Float32Array per scan, no per-row allocation.

import { AppError } from '../errors';
import type { MemoryId } from '../types';
import { NeighbourLists, type DenseStore } from '../vectors';
import { CROSS_SCOPE_PENALTY } from './scope';

export interface NeighbourMatrix {
  readonly ids: readonly MemoryId[];
  readonly dim: number;
  /** n * dim, row-major, each row unit length (an all-zero row stays zero). */
  readonly data: Float32Array;
  readonly indexOf: ReadonlyMap<MemoryId, number>;
  /** Interned scope (sessionId) per row; -1 = unknown. */
  readonly scope: Int32Array;
  /** Cached neighbour lists over the same rows (a matrix made by `matrixFromStore`): the walk's steps. */
  readonly neighbours?: NeighbourLists;
  /** A matrix kept in step with its store (`liveMatrix`): bumped by every change of its rows. */
  readonly version?: number;
  /** The memories whose row changed (added, removed, moved) after `version`, or null when that is not known any more (look every one up). */
  changedSince?(version: number): readonly MemoryId[] | null;
}

function internScopes(ids: readonly MemoryId[], scopeOf: (id: MemoryId) => string | undefined): Int32Array {
  const scope = new Int32Array(ids.length);
  const scopes = new Map<string, number>();
  for (let r = 0; r < ids.length; r++) {
    const s = scopeOf(ids[r]);
    if (s === undefined) scope[r] = -1;
    else {
      let k = scopes.get(s);
      if (k === undefined) scopes.set(s, (k = scopes.size));
      scope[r] = k;
    }
  }
  return scope;
}

/** One set of neighbour lists per store, kept in step with it across matrices (NeighbourLists watches the store). */
const listsOf = new WeakMap<DenseStore, NeighbourLists>();

/**
 * The matrix over a dense store's unit f32 rows, without copying them (rows = the store's slots; a
 * view, valid until the store changes: the engine drops it on every change), with neighbour lists
 * for the associative walk. The lists outlive the matrix: one per store, updated by each write
 * rather than recomputed (`fresh`: a new, unshared set, e.g. a bench measuring cold lists; `dispose` it).
 * A store without f32 rows gets a dequantised copy.
 */
export function matrixFromStore(store: DenseStore, scopeOf: (id: MemoryId) => string | undefined = () => undefined, opts: { fresh?: boolean } = {}): NeighbourMatrix {
  const ids = store.idList();
  const dim = store.dim;
  let data = store.floatRows();
  if (!data) {
    data = new Float32Array(ids.length * dim);
    for (let r = 0; r < ids.length; r++) data.set(store.vectorAt(r), r * dim);
  }
  const indexOf = new Map<MemoryId, number>();
  for (let r = 0; r < ids.length; r++) indexOf.set(ids[r], r);
  const scope = internScopes(ids, scopeOf);
  let neighbours = opts.fresh ? undefined : listsOf.get(store);
  if (neighbours) neighbours.setScope(scope);
  else if (store.keepFloat) {
    neighbours = new NeighbourLists(store, scope, CROSS_SCOPE_PENALTY);
    if (!opts.fresh) listsOf.set(store, neighbours);
  }
  return { ids, dim, data, indexOf, scope, neighbours };
}

/**
 * Build from an index-like source. Memories without a vector are left out (they cannot be reached
 * by a neighbour walk); a vector of another dimension or with NaN/Infinity is refused.
 */
export function buildNeighbourMatrix(
  ids: Iterable<MemoryId>,
  vectorOf: (id: MemoryId) => Float32Array | undefined,
  scopeOf: (id: MemoryId) => string | undefined = () => undefined,
): NeighbourMatrix {
  const rows: { id: MemoryId; v: Float32Array }[] = [];
  let dim = -1;
  for (const id of ids) {
    const v = vectorOf(id);
    if (!v) continue;
    if (dim === -1) dim = v.length;
    else if (v.length !== dim)
      throw new AppError('INVALID_EMBEDDING', undefined, `memory ${id} has a ${v.length}-d vector, expected ${dim}`);
    rows.push({ id, v });
  }
  if (dim === -1) dim = 0;
  const n = rows.length;
  const data = new Float32Array(n * dim);
  const scope = new Int32Array(n);
  const scopes = new Map<string, number>();
  const indexOf = new Map<MemoryId, number>();
  const out: MemoryId[] = new Array(n);
  for (let r = 0; r < n; r++) {
    const { id, v } = rows[r];
    let ss = 0;
    for (let j = 0; j < dim; j++) {
      const x = v[j];
      if (!Number.isFinite(x)) throw new AppError('INVALID_EMBEDDING', undefined, `memory ${id} has a non-finite component`);
      ss += x * x;
    }
    const inv = ss > 0 ? 1 / Math.sqrt(ss) : 0;
    const base = r * dim;
    for (let j = 0; j < dim; j++) data[base + j] = v[j] * inv;
    out[r] = id;
    indexOf.set(id, r);
    const s = scopeOf(id);
    if (s === undefined) scope[r] = -1;
    else {
      let k = scopes.get(s);
      if (k === undefined) scopes.set(s, (k = scopes.size));
      scope[r] = k;
    }
  }
  return { ids: out, dim, data, indexOf, scope };
}

/** A unit-length copy of `v` (zero vector stays zero). */
export function normalised(v: Float32Array): Float32Array {
  let ss = 0;
  for (let j = 0; j < v.length; j++) ss += v[j] * v[j];
  const inv = ss > 0 ? 1 / Math.sqrt(ss) : 0;
  const out = new Float32Array(v.length);
  for (let j = 0; j < v.length; j++) out[j] = v[j] * inv;
  return out;
}

/** Cosine of row r with a unit vector q. */
export function rowDot(m: NeighbourMatrix, r: number, q: Float32Array): number {
  const { data, dim } = m;
  const base = r * dim;
  let s = 0;
  for (let j = 0; j < dim; j++) s += data[base + j] * q[j];
  return s;
}
