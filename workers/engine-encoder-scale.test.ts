import { describe, expect, it } from 'vitest';
import { MINILM_ID } from '../src/embed/encoders';
import { USE_LITE_ID } from '../src/embed/types';
import { withEncoderMinCosine } from './engine-encoder-scale';

describe('the associative default on the encoder scale', () => {
  it('moves 0.72 (USE-lite) to MiniLM\'s scale: the measured knot 0.587', () => {
    expect(withEncoderMinCosine({ assocHops: 2 }, MINILM_ID).minCosine).toBeCloseTo(0.587, 3);
  });
  it('keeps a minimum the person set, and leaves USE-lite or an unknown encoder alone', () => {
    expect(withEncoderMinCosine({ minCosine: 0.8 }, MINILM_ID)).toEqual({ minCosine: 0.8 });
    expect(withEncoderMinCosine({ assocHops: 1 }, USE_LITE_ID)).toEqual({ assocHops: 1, minCosine: 0.72 });
    expect(withEncoderMinCosine({ assocHops: 1 }, 'no-such-encoder')).toEqual({ assocHops: 1 });
    expect(withEncoderMinCosine({ assocHops: 1 }, undefined)).toEqual({ assocHops: 1 });
  });
});
