import { afterEach, describe, expect, it } from 'vitest';
import { MINILM_ID } from '../../embed/encoders';
import { isClose } from './format';
import { onActiveScale, setActiveEncoder } from './encoder-scale';

describe('cut-offs on the active encoder scale', () => {
  afterEach(() => setActiveEncoder(undefined));
  it('stays as written before an encoder is known', () => {
    expect(onActiveScale(0.3)).toBe(0.3);
  });
  it('moves "nothing close" (0.3 on USE-lite) to MiniLM\'s 0.145', () => {
    const why = { matchedTerms: [], bm25: 0, cosine: 0.2 };
    expect(isClose(why)).toBe(false); // 0.2 < 0.3 on USE-lite's scale
    setActiveEncoder(MINILM_ID);
    expect(onActiveScale(0.3)).toBeCloseTo(0.145, 3);
    expect(isClose(why)).toBe(true); // 0.2 >= 0.145 on MiniLM's
  });
});
