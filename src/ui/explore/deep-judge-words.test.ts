// A deep hit careful ranking's judge read says so in plain words; its cosine is under details; the
// results card says the pool was read with careful ranking, and the judge's figures.
import { describe, expect, it } from 'vitest';
import type { RecallView } from '../../services';
import { mergedReport, turnAfter } from '../../testing/deep-report';
import { deepSearchFigures, deepSearchWords } from './deep-note';
import { foundOf, JUDGE_CLOSE, nothingClose, resultRows } from './view-model';

const via = turnAfter;
function view(judge?: number): RecallView {
  return {
    memory: { id: 'd', text: 'memory d', tags: [], importance: 0.5, createdAt: 0, updatedAt: 0, status: 'active' } as unknown as RecallView['memory'],
    result: { id: 'd', score: 0.7, mode: 'standard', hybridScore: 0, deep: { readerScore: 0.81, reasons: ['the careful model reads it as close in meaning (0.93)'], via, source: 'deep', ...(judge === undefined ? {} : { judge }) } } as unknown as RecallView['result'],
    explanation: '',
  };
}

describe('deep hits read by careful ranking', () => {
  it('says "close in meaning, by careful ranking" from the judge cosine JUDGE_CLOSE up, its cosine under details', () => {
    expect(JUDGE_CLOSE).toBe(0.3);
    expect(foundOf(view(0.93))).toMatchObject({
      how: 'said near a memory you found (1 turn after); close in meaning, by careful ranking',
      figures: "reader score 0.81 · careful ranking's cosine 0.93 · the careful model reads it as close in meaning (0.93) · placed by the reader's score",
    });
    expect(foundOf(view(0.3))?.how).toBe('said near a memory you found (1 turn after); close in meaning, by careful ranking');
    expect(foundOf(view(0.29))?.how).toBe('said near a memory you found (1 turn after); read by careful ranking');
    expect(foundOf(view())?.how).toBe('said near a memory you found (1 turn after)'); // the offline reader: as before
  });

  it('a deep hit the judge reads as close is close: an answer of it alone is not "Nothing close"', () => {
    // no word matched and a low index cosine (why all zero): only the judge finds it close
    const zero = (j?: number) => ({ ...view(j), result: { ...view(j).result, why: { lexical: 0, semantic: 0, bm25: 0, cosine: 0, matchedTerms: [] } } }) as RecallView;
    expect(nothingClose(resultRows([zero(0.42)]))).toBe(false);
    expect(nothingClose(resultRows([zero(0.29)]))).toBe(true);
    expect(nothingClose(resultRows([zero()]))).toBe(true);
  });

  it("the results card: read with careful ranking, and the judge's figures under details", () => {
    const r = mergedReport();
    const judged = { ...r, judge: { read: 2, of: 2, ms: 412 } };
    expect(deepSearchWords(judged, 1)).toBe('Your first results looked unsure, so deeper search read 1 more memory with careful ranking and added 1.');
    expect(deepSearchWords(r, 1)).toBe('Your first results looked unsure, so deeper search read 1 more memory and added 1.');
    expect(deepSearchFigures(judged).at(-1)).toBe("read with careful ranking's judge: 2 of 2 memories had its vector · 412 ms");
    expect(deepSearchFigures(r).some((l) => l.includes('careful'))).toBe(false);
  });
});
