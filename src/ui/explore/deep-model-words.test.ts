// A deep hit the language model on this computer read says so with its first reason, in the
// model's words; it counts as close from MODEL_CLOSE; the results card says the pool was read with
// the language model, and its figures under details.
import { describe, expect, it } from 'vitest';
import type { RecallView } from '../../services';
import { mergedReport, turnAfter } from '../../testing/deep-report';
import { deepSearchFigures, deepSearchWords } from './deep-note';
import { foundOf, MODEL_CLOSE, nothingClose, resultRows } from './view-model';

const via = turnAfter;
const REASON = 'the language model on this computer: seedlings go in the garden';
function view(readerScore: number, reasons = [REASON]): RecallView {
  return {
    memory: { id: 'd', text: 'memory d', tags: [], importance: 0.5, createdAt: 0, updatedAt: 0, status: 'active' } as unknown as RecallView['memory'],
    result: {
      id: 'd',
      score: 0.5,
      mode: 'standard',
      hybridScore: 0,
      why: { lexical: 0, semantic: 0, bm25: 0, cosine: 0, matchedTerms: [] },
      deep: { readerScore, reasons, via, source: 'deep' },
    } as unknown as RecallView['result'],
    explanation: '',
  };
}

describe('deep hits read by the language model on this computer', () => {
  it("says the model's first reason in its words, the score under details; the offline reader's words as before", () => {
    expect(foundOf(view(0.9))).toMatchObject({
      how: `said near a memory you found (1 turn after); ${REASON}`,
      figures: `reader score 0.90 · ${REASON} · placed by the reader's score`,
    });
    expect(foundOf(view(0.9, ['shares 2 words with the question']))?.how).toBe('said near a memory you found (1 turn after)');
  });

  it('a deep hit the model scores from MODEL_CLOSE up is close: an answer of it alone is not "Nothing close"', () => {
    expect(MODEL_CLOSE).toBe(0.5);
    expect(nothingClose(resultRows([view(0.5)]))).toBe(false);
    expect(nothingClose(resultRows([view(0.49)]))).toBe(true);
    expect(nothingClose(resultRows([view(0.9, ['shares 2 words with the question'])]))).toBe(true);
  });

  it("the results card: read with the language model, and the model's figures under details", () => {
    const r = mergedReport();
    const read = { ...r, model: { read: 1, of: 2, ms: 840 } };
    expect(deepSearchWords(read, 1)).toBe('Your first results looked unsure, so deeper search read 1 more memory with the language model on this computer and added 1.');
    expect(deepSearchFigures(read).at(-1)).toBe('read by the language model on this computer: it scored 1 of 2 memories · 840 ms');
    expect(deepSearchFigures(r).some((l) => l.includes('language model'))).toBe(false);
  });
});
