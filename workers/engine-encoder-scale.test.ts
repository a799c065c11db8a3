import { describe, expect, it } from 'vitest';
import { MINILM_ID } from '../src/embed/encoders';
import { USE_LITE_ID } from '../src/embed/types';
import { DEFAULT_SIMILARITY_CONFIG } from '../src/core/spaces';
import { divergenceOnEncoderScale, SCALED_MEANING_MARGIN, withEncoderMinCosine } from './engine-encoder-scale';

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

describe('the divergence lines on the encoder scale', () => {
  it("moves E1 / E10 (0.30) and E5 (0.25) to MiniLM's scale by its knots, and the gate's line to 0.28's place", () => {
    // knots (0.2, 0.076) .. (0.3, 0.145): 0.30 -> 0.145; 0.25 -> 0.076 + 0.5 x 0.069 = 0.1105; 0.28 -> 0.076 + 0.8 x 0.069 = 0.1312
    const { config, meaningLine } = divergenceOnEncoderScale(DEFAULT_SIMILARITY_CONFIG, MINILM_ID);
    expect(config.lowThresholds.E1).toBeCloseTo(0.145, 6);
    expect(config.lowThresholds.E10).toBeCloseTo(0.145, 6);
    expect(config.lowThresholds.E5).toBeCloseTo(0.1105, 6);
    expect(SCALED_MEANING_MARGIN).toBe(0.02);
    expect(meaningLine).toBeCloseTo(0.1312, 6);
    // the lexical spaces keep theirs, and the caller's config is not changed
    expect(config.lowThresholds.E6).toBe(0.2);
    expect(DEFAULT_SIMILARITY_CONFIG.lowThresholds.E1).toBe(0.3);
  });
  it('keeps a line the person set (and then no moved meaning line); leaves USE-lite and unknown encoders alone', () => {
    const mine = { ...DEFAULT_SIMILARITY_CONFIG, lowThresholds: { ...DEFAULT_SIMILARITY_CONFIG.lowThresholds, E1: 0.2 } };
    const moved = divergenceOnEncoderScale(mine, MINILM_ID);
    expect(moved.config.lowThresholds.E1).toBe(0.2);
    expect(moved.config.lowThresholds.E10).toBeCloseTo(0.145, 6);
    expect(moved.meaningLine).toBeUndefined();
    for (const enc of [USE_LITE_ID, 'hub:some/model@abc/q8', undefined]) {
      const same = divergenceOnEncoderScale(DEFAULT_SIMILARITY_CONFIG, enc);
      expect(same.config).toBe(DEFAULT_SIMILARITY_CONFIG);
      expect(same.meaningLine).toBeUndefined();
    }
  });
});
