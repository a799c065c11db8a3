import { describe, expect, it } from 'vitest';
import { modelLoadWords } from './model-load-words';
import { MINILM } from '../../embed/encoders';

describe('modelLoadWords: a percent only when the whole download is known', () => {
  it('the first file done while the weights have not started is not "991 B / 991 B": no percent, the bytes in details', () => {
    expect(modelLoadWords({ loaded: 991, total: 991 }, MINILM)).toEqual({ label: 'Loading the model…', pct: null, detail: '991 B fetched so far (the model is about 22 MB)' });
    expect(modelLoadWords({ loaded: 0 }, MINILM)).toEqual({ label: 'Loading the model…', pct: null, detail: 'Starting the download (the model is about 22 MB)' });
    // a server that sends no sizes: the bytes grow, the words stay plain
    expect(modelLoadWords({ loaded: 12_000_000 }, MINILM).label).toBe('Loading the model…');
  });

  it('once the total holds the weights (at least 90 % of the catalogue size, 23.4 MB), a percent: 11.7 of 23.4 MB is 50 %', () => {
    // 0.9 x 23,400,000 = 21,060,000: this total counts as the whole
    expect(modelLoadWords({ loaded: 11_700_000, total: 23_400_000 }, MINILM).pct).toBe(50);
    // the words stay short (the header's one row); the percent is under details
    expect(modelLoadWords({ loaded: 11_700_000, total: 23_400_000 }, MINILM).label).toBe('Loading the model…');
    expect(modelLoadWords({ loaded: 11_700_000, total: 23_400_000 }, MINILM).detail).toBe('50%: 11 MB of 22 MB');
    // just under the share: still unknown
    expect(modelLoadWords({ loaded: 1_000_000, total: 21_000_000 }, MINILM).pct).toBeNull();
  });

  it("USE-lite's total comes from its manifest first: known at once; 1 of 4 MB floors to 25 %", () => {
    expect(modelLoadWords({ loaded: 1_048_576, total: 4_194_304 }, { runtime: 'tfjs', bytes: 27_000_000 })).toEqual({
      label: 'Loading the model…',
      pct: 25,
      detail: '25%: 1.0 MB of 4.0 MB',
    });
    // no encoder named yet (USE-lite's report): the total is the manifest's
    expect(modelLoadWords({ loaded: 3, total: 4 }, undefined).pct).toBe(75);
    expect(modelLoadWords({ loaded: 500 }, undefined).detail).toBe('500 B fetched so far');
  });
});
