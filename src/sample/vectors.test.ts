import { describe, expect, it } from 'vitest';
import { decodeSampleVectors, encodeSampleVectors, textsHash } from './vectors';

describe('sample vectors file', () => {
  it('round-trips the header and every vector exactly', () => {
    const vs = [new Float32Array([0.5, -0.25, 1]), new Float32Array([0, 0.125, -1])];
    const bytes = encodeSampleVectors({ model: 'use-lite/x', dim: 3, textsHash: textsHash(['a', 'b']) }, vs);
    // header {"version":1,"model":"use-lite/x","dim":3,"textsHash":"…","count":2} padded to 4, then 2 × 3 × 4 bytes
    expect(bytes.length % 4).toBe(0);
    const got = decodeSampleVectors(bytes.buffer as ArrayBuffer);
    expect(got).toMatchObject({ version: 1, model: 'use-lite/x', dim: 3, count: 2, textsHash: textsHash(['a', 'b']) });
    expect(got.vectors.map((v) => [...v])).toEqual([
      [0.5, -0.25, 1],
      [0, 0.125, -1],
    ]);
  });

  it('refuses what is not one, a cut file, and a vector of the wrong size', () => {
    expect(() => decodeSampleVectors(new TextEncoder().encode('<!doctype html>').buffer as ArrayBuffer)).toThrow('not a sample vectors file');
    const bytes = encodeSampleVectors({ model: 'm', dim: 2, textsHash: '0' }, [new Float32Array([1, 2])]);
    expect(() => decodeSampleVectors(bytes.slice(0, bytes.length - 4).buffer as ArrayBuffer)).toThrow('wrong length');
    expect(() => encodeSampleVectors({ model: 'm', dim: 2, textsHash: '0' }, [new Float32Array(3)])).toThrow('3 dimensions');
  });

  it('hashes texts so that any change shows (FNV-1a)', () => {
    expect(textsHash([])).toBe('811c9dc5'); // the FNV offset basis: nothing hashed
    expect(textsHash(['a'])).toBe('e40c292c'); // FNV-1a("a"), the published test vector
    expect(textsHash(['ab'])).not.toBe(textsHash(['a', 'b'])); // the separator counts
  });
});
