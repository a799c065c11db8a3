// E12 token rows normalised once (at upsert for memories, once per query), so MaxSim in the
// ranking is a plain dot product per token pair.

import { stepsOf, type TokenMatrix } from '../spaces';

/**
 * E12 token rows normalised once (at upsert for memories, once per query), so MaxSim in the
 * ranking is a plain dot product per token pair: the same value as the registry's maxsim (mean
 * over the shorter side's non-zero tokens of the best cosine against the other side, clamped to
 * [-1, 1]; either side empty -> 0; any non-finite value -> 0), to float rounding.
 */
export interface UnitTokens {
  rows: number;
  dim: number;
  /** rows x dim, each non-zero row unit length. */
  data: Float32Array;
  /** 1 where the token row is non-zero. */
  live: Uint8Array;
  /** false when the matrix held NaN / Infinity (similarity 0, as maxsim). */
  finite: boolean;
}

export function unitTokens(m: TokenMatrix): UnitTokens {
  const { rows, dim } = m;
  const data = new Float32Array(rows * dim);
  const live = new Uint8Array(rows);
  let finite = true;
  for (let r = 0; r < rows; r++) {
    let ss = 0;
    for (let k = 0; k < dim; k++) {
      const x = m.data[r * dim + k];
      if (!Number.isFinite(x)) finite = false;
      ss += x * x;
    }
    if (ss > 0 && Number.isFinite(ss)) {
      const inv = 1 / Math.sqrt(ss);
      for (let k = 0; k < dim; k++) data[r * dim + k] = m.data[r * dim + k] * inv;
      live[r] = 1;
    }
  }
  return { rows, dim, data, live, finite };
}

export function unitMaxsim(a: UnitTokens, b: UnitTokens): number {
  if (a.rows === 0 || b.rows === 0 || a.dim !== b.dim) return 0;
  if (!a.finite || !b.finite) return 0;
  const [q, d] = b.rows < a.rows ? [b, a] : [a, b];
  const dim = q.dim;
  let sum = 0;
  let counted = 0;
  for (let i = 0; i < q.rows; i++) {
    if (!q.live[i]) continue;
    let best = -1;
    const qo = i * dim;
    for (let j = 0; j < d.rows; j++) {
      if (!d.live[j]) continue;
      const doff = j * dim;
      let dot = 0;
      for (let k = 0; k < dim; k++) dot += q.data[qo + k] * d.data[doff + k];
      if (dot > best) best = dot;
    }
    sum += Math.max(-1, Math.min(1, best));
    counted++;
  }
  return counted > 0 ? sum / counted : 0;
}

/**
 * E12 as the embed worker sends it: int8 steps of 1/127 (serializeSpace's token format). A matrix
 * whose every value is such a step is kept as those bytes (a quarter of f32, and one copy instead
 * of raw + unit rows: issue 13), and decoded per use to the very same f32 values, so MaxSim and
 * every similarity read exactly what they read before.
 */
export interface PackedTokens {
  rows: number;
  dim: number;
  q: Int8Array;
}

/** The int8 form of `m` when every value is exactly q / 127 rounded to f32; undefined otherwise. */
export function packTokens(m: TokenMatrix): PackedTokens | undefined {
  const n = m.rows * m.dim;
  // deserialised from its steps (the engine's load): those very bytes, not decoded and packed again
  const steps = stepsOf(m);
  if (steps && steps.length === n) return { rows: m.rows, dim: m.dim, q: steps };
  if (m.data.length < n) return undefined;
  const q = new Int8Array(n);
  for (let i = 0; i < n; i++) {
    const x = m.data[i];
    const k = Math.round(x * 127);
    if (!(k >= -127 && k <= 127) || Math.fround(k / 127) !== x) return undefined;
    q[i] = k;
  }
  return { rows: m.rows, dim: m.dim, q };
}

/** The f32 matrix `p` was packed from (bit for bit). */
export function unpackTokens(p: PackedTokens): TokenMatrix {
  const data = new Float32Array(p.q.length);
  for (let i = 0; i < data.length; i++) data[i] = p.q[i] / 127;
  return { rows: p.rows, dim: p.dim, data };
}

/**
 * unitTokens(unpackTokens(p)) written into `into`'s arrays when they are large enough (a scratch
 * reused per similarity: no two arrays per candidate per query), with the same arithmetic, so the
 * same values. Only `rows` rows of the result are meaningful.
 */
export function unitFromPacked(p: PackedTokens, into?: UnitTokens): UnitTokens {
  const { rows, dim, q } = p;
  const n = rows * dim;
  const data = into && into.data.length >= n ? into.data : new Float32Array(n);
  const live = into && into.live.length >= rows ? into.live : new Uint8Array(rows);
  for (let r = 0; r < rows; r++) {
    let ss = 0;
    for (let k = 0; k < dim; k++) {
      const x = Math.fround(q[r * dim + k] / 127);
      ss += x * x;
    }
    live[r] = ss > 0 ? 1 : 0;
    if (ss > 0) {
      const inv = 1 / Math.sqrt(ss);
      for (let k = 0; k < dim; k++) data[r * dim + k] = Math.fround(q[r * dim + k] / 127) * inv;
    }
  }
  return { rows, dim, data, live, finite: true };
}
