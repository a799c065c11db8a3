// Careful ranking in words: each state one plain sentence; the figures apart.
import { describe, expect, it } from 'vitest';
import type { CarefulRankingStatus } from '../../services/judge';
import { carefulFigures, carefulNoteWords, carefulStatusWords } from './careful-words';

const base: CarefulRankingStatus = {
  on: true,
  model: 'ready',
  read: 340,
  total: 1000,
  reading: true,
  paused: false,
  figures: { id: 'all-mpnet-base-v2-int8', name: 'all-mpnet-base-v2 (weight-only int8)', dim: 768, depth: 30, weight: 0.25, loadMs: 4200 },
};

describe('careful ranking in words', () => {
  it('says how far the reading is, and why it is not there', () => {
    expect(carefulStatusWords(base)).toBe('Careful ranking has read 340 of 1,000 memories.');
    expect(carefulStatusWords({ ...base, paused: true })).toBe('Careful ranking has read 340 of 1,000 memories. It waits while you search or save.');
    expect(carefulStatusWords({ ...base, read: 0, total: 0 })).toBe('Ready. It reads each memory you save, in the background.');
    expect(carefulStatusWords({ ...base, on: false })).toBe('Off. Answers are ranked without the second reading.');
    expect(carefulStatusWords({ ...base, model: 'none' })).toBe('Not available with this search model.');
    expect(carefulStatusWords({ ...base, model: 'unavailable', detail: 'Could not locate file: "models/all-mpnet-base-v2-int8/onnx/model_quantized.onnx"' })).toBe(
      "Careful ranking isn't available: one of its files is missing from this copy of the app. Answers are ranked as usual.",
    );
  });

  it('keeps the figures behind details, and words an answer\'s note', () => {
    expect(carefulFigures(base)).toEqual([
      'model: all-mpnet-base-v2 (weight-only int8) (all-mpnet-base-v2-int8), 768 dimensions',
      're-reads the best 30 of each answer · weight 0.25',
      'progress: 340 / 1000 (reading)',
      'model loaded in 4.2 s',
    ]);
    expect(carefulNoteWords({ applied: false, reason: 'reading', percent: 34 }).line).toBe('Careful ranking is still reading your memories: 34%. This answer is ranked without it.');
    expect(carefulNoteWords({ applied: true, model: 'm', depth: 30, weight: 0.25, readNow: 2, ms: 850 }).figures).toEqual(['model: m', 're-read the best 30 · weight 0.25', 'read now: 2 · 850 ms']);
  });
});
