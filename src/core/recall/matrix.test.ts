import { describe, expect, it } from 'vitest';
import { buildNeighbourMatrix, normalised, rowDot } from './matrix';

describe('NeighbourMatrix', () => {
  const vecs: Record<string, Float32Array | undefined> = {
    a: new Float32Array([3, 4]),
    b: undefined, // not embedded yet
    c: new Float32Array([0, 0]),
    d: new Float32Array([0, 2]),
  };
  const m = buildNeighbourMatrix(Object.keys(vecs), (id) => vecs[id], (id) => (id === 'd' ? 's2' : 's1'));

  it('stores unit rows contiguously, skipping memories without a vector', () => {
    expect(m.ids).toEqual(['a', 'c', 'd']);
    expect(m.dim).toBe(2);
    expect(Array.from(m.data)).toEqual([0.6000000238418579, 0.800000011920929, 0, 0, 0, 1]);
    expect(m.indexOf.get('d')).toBe(2);
    expect(Array.from(m.scope)).toEqual([0, 0, 1]);
  });

  it('gives cosines as dot products with a normalised query', () => {
    const q = normalised(new Float32Array([0, 5]));
    expect(rowDot(m, 0, q)).toBeCloseTo(0.8, 6);
    expect(rowDot(m, 1, q)).toBe(0); // zero vector: cosine 0, no NaN
    expect(rowDot(m, 2, q)).toBe(1);
  });

  it('refuses non-finite components and mixed dimensions with INVALID_EMBEDDING', () => {
    expect(() => buildNeighbourMatrix(['x'], () => new Float32Array([1, Number.NaN]))).toThrow(expect.objectContaining({ code: 'INVALID_EMBEDDING' }));
    expect(() => buildNeighbourMatrix(['x', 'y'], (id) => new Float32Array(id === 'x' ? 2 : 3))).toThrow(expect.objectContaining({ code: 'INVALID_EMBEDDING' }));
    expect(buildNeighbourMatrix([], () => undefined).ids).toEqual([]);
  });
});
