// Dense-vector primitives: tight loops over Float32Array, no allocation in the hot paths.
// Non-finite inputs never leak out as NaN: every function returns a finite number.

/** Sum of a[i] * b[i] over the shorter length. NaN / Infinity results become 0. */
export function dot(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let s = 0;
  for (let i = 0; i < n; i++) s += a[i] * b[i];
  return Number.isFinite(s) ? s : 0;
}

/** Dot product of `q` with row `row` of a row-major matrix with `dim` columns. */
export function dotRow(q: Float32Array, matrix: Float32Array, row: number, dim: number): number {
  return dotAt(q, matrix, row * dim, dim);
}

/** Σ q[j] · data[off + j] over `dim` components (the one f32 dot loop: dotRow and the dense store). */
export function dotAt(q: Float32Array, data: Float32Array, off: number, dim: number): number {
  // Four independent accumulators: shorter dependency chains for the JIT.
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  const end = dim - (dim & 3);
  for (; i < end; i += 4) {
    const o = off + i;
    s0 += q[i] * data[o];
    s1 += q[i + 1] * data[o + 1];
    s2 += q[i + 2] * data[o + 2];
    s3 += q[i + 3] * data[o + 3];
  }
  for (; i < dim; i++) s0 += q[i] * data[off + i];
  return s0 + s1 + s2 + s3;
}

/** Euclidean norm; 0 when the vector holds a non-finite value. */
export function norm(a: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * a[i];
  const r = Math.sqrt(s);
  return Number.isFinite(r) ? r : 0;
}

/** True when every component is finite. */
export function isFiniteVector(a: Float32Array): boolean {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) return false;
  return true;
}

/**
 * A unit-length copy of `a`. A zero vector, or one holding NaN / Infinity, yields an all-zero
 * vector (it then has cosine 0 with everything) rather than NaNs.
 */
export function normalize(a: Float32Array): Float32Array {
  const out = new Float32Array(a.length);
  if (!isFiniteVector(a)) return out;
  const n = norm(a);
  if (n === 0) return out;
  const inv = 1 / n;
  for (let i = 0; i < a.length; i++) out[i] = a[i] * inv;
  return out;
}

/** Cosine similarity in [-1, 1]; 0 when either vector is zero or non-finite. */
export function cosine(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    ab += x * y;
    aa += x * x;
    bb += y * y;
  }
  if (!(aa > 0) || !(bb > 0)) return 0;
  const c = ab / Math.sqrt(aa * bb);
  if (!Number.isFinite(c)) return 0;
  return c > 1 ? 1 : c < -1 ? -1 : c;
}

/**
 * Euclidean distance between two unit vectors, from their dot product: ||a - b|| = sqrt(2 - 2 a.b).
 * Clamped to [0, 2] so rounding never produces NaN.
 */
export function unitL2Distance(a: Float32Array, b: Float32Array): number {
  const d = 2 - 2 * dot(a, b);
  return d <= 0 ? 0 : d >= 4 ? 2 : Math.sqrt(d);
}
