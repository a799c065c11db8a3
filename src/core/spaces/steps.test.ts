// E12 deserialised over its stored int8 steps (issue 13, the engine's load): the matrix's data is
// the steps / 127 in f32, decoded on the first read (then a plain, writable property); stepsOf and
// packTokens give the stored bytes themselves, no decode and re-pack.
import { describe, expect, it } from 'vitest';
import { packTokens } from '../pipeline/unit-tokens';
import { deserializeSpace, serializeSpace, stepsOf, type TokenMatrix } from './index';

describe('E12 over its steps', () => {
  // unit rows (serializeSpace stores unit rows x 127): [0.6, 0.8] -> steps 76, 102; [0, -1] -> 0, -127
  const given: TokenMatrix = { rows: 2, dim: 2, data: Float32Array.of(0.6, 0.8, 0, -1) };
  const buf = serializeSpace('E12', given);

  it('data is steps / 127, read lazily; stepsOf views the stored bytes', () => {
    const m = deserializeSpace('E12', buf) as TokenMatrix;
    const steps = stepsOf(m)!;
    expect(Array.from(steps)).toEqual([76, 102, 0, -127]);
    expect(steps.buffer).toBe(buf); // a view, not a copy
    expect(m).toEqual({ rows: 2, dim: 2, data: Float32Array.of(76 / 127, 102 / 127, 0, -1) });
    expect(m.data).toBe(m.data); // decoded once
    m.data = new Float32Array(4); // then an ordinary property
    expect(m.data[0]).toBe(0);
  });

  it('packTokens takes the steps as they are; a matrix not made from steps is packed as before', () => {
    const m = deserializeSpace('E12', buf) as TokenMatrix;
    expect(packTokens(m)!.q).toBe(stepsOf(m));
    const plain: TokenMatrix = { rows: 2, dim: 2, data: Float32Array.of(76 / 127, 102 / 127, 0, -1) };
    expect(stepsOf(plain)).toBeUndefined();
    expect(Array.from(packTokens(plain)!.q)).toEqual([76, 102, 0, -127]);
  });
});
