import { describe, expect, it } from 'vitest';
import { parseReaderAnswer, readerPrompt } from '.';

const ids = ['a', 'b', 'c'];

describe('parseReaderAnswer (the model reader)', () => {
  it('reads a fenced JSON array; scores on 0..1, 0..10 and 0..100; reason or reasons', () => {
    const got = parseReaderAnswer('Here you go:\n```json\n[{"n": 2, "score": 0.9, "reason": "same trip"}, {"id": "3", "score": "7", "reasons": ["x", ""]}, {"index": 1, "score": 40}]\n```', ids);
    expect(got).toEqual([
      { id: 'b', score: 0.9, reasons: ['same trip'] },
      { id: 'c', score: 0.7, reasons: ['x'] },
      { id: 'a', score: 0.4, reasons: [] },
    ]);
  });
  it('a partial answer (cut off mid-array) keeps its complete objects', () => {
    expect(parseReaderAnswer('[{"n": 3, "score": 0.5, "reason": "r"}, {"n": 1, "sco', ids)).toEqual([{ id: 'c', score: 0.5, reasons: ['r'] }]);
  });
  it('drops numbers outside the pool, repeats and bad scores; nothing readable is null', () => {
    expect(parseReaderAnswer('[{"n": 4, "score": 1}, {"n": 2, "score": -1}, {"n": 2, "score": 0.2}, {"n": 2, "score": 0.9}]', ids)).toEqual([{ id: 'b', score: 0.2, reasons: [] }]);
    expect(parseReaderAnswer('I cannot help with that.', ids)).toBeNull();
    expect(parseReaderAnswer('[1, 2, 3]', ids)).toBeNull();
  });
  it('the prompt numbers the pool and cuts long texts', () => {
    const p = readerPrompt('when?', [{ text: 'first  note' }, { text: 'x'.repeat(700) }], 10);
    expect(p).toContain('Question: "when?"');
    expect(p).toContain('[1] first note\n[2] xxxxxxxxxx\n');
  });
});
