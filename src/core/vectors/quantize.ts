// int8 quantisation with one scale per vector (symmetric, no zero point): q_i = round(x_i / s),
// s = max|x_i| / 127, so every component lands in [-127, 127] and x ≈ s · q. Alongside the codes
// we keep the exact L2 norm of the rounding error e = ||x - s·q||, which bounds the error of any
// dot product computed on the codes (Cauchy-Schwarz), so a scan on int8 can certify its short list.

/** The largest code: symmetric, so -128 is never used and negation is exact. */
export const INT8_MAX = 127;

export interface Quantised {
  /** s: x ≈ s · q (0 for an all-zero vector). */
  scale: number;
  /** ||x - s · q||₂, computed in double precision. */
  error: number;
}

/**
 * Writes the int8 codes of `x` into `out[offset .. offset + x.length)` and returns its scale and
 * rounding error. `x` must be finite (the store checks before). Rounding is to nearest, so each
 * component's error is at most s / 2 and `error` <= s/2 · sqrt(dim).
 */
export function quantiseInto(x: ArrayLike<number>, out: Int8Array, offset: number): Quantised {
  const n = x.length;
  let max = 0;
  for (let i = 0; i < n; i++) {
    const a = Math.abs(x[i]);
    if (a > max) max = a;
  }
  if (max === 0) {
    out.fill(0, offset, offset + n);
    return { scale: 0, error: 0 };
  }
  const scale = max / INT8_MAX;
  const inv = INT8_MAX / max;
  let err = 0;
  for (let i = 0; i < n; i++) {
    let q = Math.round(x[i] * inv);
    if (q > INT8_MAX) q = INT8_MAX;
    else if (q < -INT8_MAX) q = -INT8_MAX;
    out[offset + i] = q;
    const d = x[i] - q * scale;
    err += d * d;
  }
  return { scale, error: Math.sqrt(err) };
}

/** The vector the codes stand for: s · q. */
export function dequantise(codes: Int8Array, offset: number, dim: number, scale: number): Float32Array {
  const out = new Float32Array(dim);
  for (let i = 0; i < dim; i++) out[i] = codes[offset + i] * scale;
  return out;
}

/**
 * The worst-case |q·x − approx| for a query with rounding error `eq` (unit query) and a stored
 * unit vector with rounding error `ex`: |q·x − q̂·x̂| <= ||q − q̂||·||x|| + ||q̂||·||x − x̂||
 * <= eq + (1 + eq)·ex, plus a float32 / summation slack.
 */
export function dotErrorBound(eq: number, ex: number): number {
  return eq + (1 + eq) * ex + 1e-6;
}
