// The value types stored per space. One per similarity kind; a space's feature is `undefined`
// when the memory has nothing to put there (no code -> no E7, no media -> no E10 ...).

/** Dense vector (E1-E5, E8, E10): compared by cosine. */
export type DenseVector = Float32Array;

/**
 * Sparse weighted term vector (E6, E7, E13): `indices` strictly increasing (hashed term ids),
 * `values` the non-negative weight of each. Compared by weighted Jaccard.
 */
export interface SparseVector {
  indices: Uint32Array;
  values: Float32Array;
}

/** Bit-packed binary hypervector (E9), compared by Hamming similarity. */
export type BinaryVector = Uint8Array;

/** Row-major token matrix (E12): `rows` token vectors of `dim` floats. Compared by MaxSim. */
export interface TokenMatrix {
  rows: number;
  dim: number;
  data: Float32Array;
}

/**
 * Entities and relations (E11): a set of hashed entity ids (strictly increasing) and
 * subject-relation-object triples as TransE-style head / tail vectors (`count` x `dim` each).
 * The relation vector of a stored triple is its translation tail - head (h + r = t).
 */
export interface EntityFeatures {
  entities: Uint32Array;
  triples: { count: number; dim: number; heads: Float32Array; tails: Float32Array; relations: Uint32Array };
}

export type SpaceVector = DenseVector | SparseVector | BinaryVector | TokenMatrix | EntityFeatures;

/** Build a SparseVector from a term -> weight map, hashing terms with `hash`. Sorted, duplicates summed. */
export function sparseFromEntries(entries: Iterable<[number, number]>): SparseVector {
  const acc = new Map<number, number>();
  for (const [k, v] of entries) acc.set(k >>> 0, (acc.get(k >>> 0) ?? 0) + v);
  const keys = [...acc.keys()].sort((a, b) => a - b);
  const indices = new Uint32Array(keys.length);
  const values = new Float32Array(keys.length);
  keys.forEach((k, i) => {
    indices[i] = k;
    values[i] = acc.get(k)!;
  });
  return { indices, values };
}

/** Token matrix from rows (tests, small inputs). */
export function tokenMatrix(rows: ArrayLike<number>[]): TokenMatrix {
  const dim = rows.length ? rows[0].length : 0;
  const data = new Float32Array(rows.length * dim);
  rows.forEach((r, i) => {
    if (r.length !== dim) throw new RangeError(`token row ${i} has ${r.length} values, expected ${dim}`);
    data.set(Array.from(r), i * dim);
  });
  return { rows: rows.length, dim, data };
}
