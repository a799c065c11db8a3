// Deterministic features in every space a memory can hold (tests of the engine snapshot): E1 and
// E5 (on every third memory) dense, the sparse spaces over small vocabularies (so lists share
// terms), E9 bits, E11 entities with one triple, E12 as int8 steps (as serializeSpace stores them).
import { sparseFromEntries, type SpaceFeatures } from '../core/spaces';

export function seededFeatures(n: number, salt = 0, dim = 8): SpaceFeatures {
  let s = (n * 7919 + salt * 104729 + 1) >>> 0;
  const rnd = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 8) / 2 ** 24;
  const dense = (d: number) => Float32Array.from({ length: d }, () => rnd() * 2 - 1);
  const sparse = (vocab: number, k: number) => sparseFromEntries(Array.from({ length: k }, () => [1 + Math.floor(rnd() * vocab), 0.1 + rnd()] as [number, number]));
  const rows = 2 + (n % 3);
  const f: SpaceFeatures = {
    E1: dense(dim),
    E2: dense(4),
    E3: dense(6),
    E6: sparse(40, 6),
    E7: sparse(30, 3),
    E8: dense(5),
    E9: Uint8Array.from({ length: 16 }, () => Math.floor(rnd() * 256)),
    E11: { entities: Uint32Array.from(new Set([1 + (n % 5), 7 + (n % 4)])).sort(), triples: { count: 1, dim: 2, heads: dense(2), tails: dense(2), relations: Uint32Array.of(3) } },
    E12: { rows, dim: 4, data: Float32Array.from({ length: rows * 4 }, () => (Math.floor(rnd() * 5) - 2) / 127) },
    E13: sparse(40, 5),
  };
  if (n % 3 === 0) f.E5 = dense(6);
  return f;
}
