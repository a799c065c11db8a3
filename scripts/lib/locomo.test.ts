import { describe, expect, it } from 'vitest';
import { memoryText, parseLocomoDate, splitEvidence, toConversation, type LocomoSample } from './locomo';

describe('parseLocomoDate', () => {
  it('parses "h:mm am/pm on D Month, YYYY" as UTC', () => {
    expect(parseLocomoDate('1:56 pm on 8 May, 2023')).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(parseLocomoDate('12:48 am on 1 February, 2023')).toBe(Date.UTC(2023, 1, 1, 0, 48));
    expect(parseLocomoDate('12:05 pm on 3 June, 2022')).toBe(Date.UTC(2022, 5, 3, 12, 5));
  });
  it('throws on anything else', () => {
    expect(() => parseLocomoDate('yesterday')).toThrow(/Unrecognised/);
    expect(() => parseLocomoDate('1:00 pm on 3 Smarch, 2022')).toThrow(/Unknown month/);
  });
});

describe('protocol details', () => {
  it('memory text: speaker, text and the image caption', () => {
    expect(memoryText({ speaker: 'Mel', dia_id: 'D1:1', text: 'Look!' })).toBe('Mel: Look!');
    expect(memoryText({ speaker: 'Mel', dia_id: 'D1:1', text: 'Look!', blip_caption: 'a dog' })).toBe('Mel: Look! [image: a dog]');
  });

  it('evidence splits on ; and , and trims', () => {
    expect(splitEvidence(['D8:6; D9:17', 'D1:2 ,D1:3', ' '])).toEqual(['D8:6', 'D9:17', 'D1:2', 'D1:3']);
  });

  it('builds memories and queries per the README', () => {
    const sample: LocomoSample = {
      sample_id: 'conv-x',
      conversation: {
        speaker_a: 'A',
        speaker_b: 'B',
        session_2_date_time: '9:00 am on 2 May, 2023',
        session_2: [{ speaker: 'B', dia_id: 'D2:1', text: 'later' }],
        session_1_date_time: '1:00 pm on 1 May, 2023',
        session_1: [
          { speaker: 'A', dia_id: 'D1:1', text: 'hi' },
          { speaker: 'B', dia_id: 'D1:2', text: 'look', blip_caption: 'a cat' },
        ],
      },
      qa: [
        { question: 'q1', category: 1, evidence: ['D1:1; D2:1', 'D9:9'] },
        { question: 'q5', category: 5, evidence: ['D1:1'] },
        { question: 'no evidence', category: 2, evidence: [] },
        { question: 'unknown only', category: 3, evidence: ['D:11:26'] },
        { question: 'dupes', category: 4, evidence: ['D1:2', 'D1:2'] },
      ],
    };
    const c = toConversation(sample);
    expect(c.memories.map((m) => [m.id, m.text, m.session])).toEqual([
      ['D1:1', 'A: hi', 1],
      ['D1:2', 'B: look [image: a cat]', 1],
      ['D2:1', 'B: later', 2],
    ]);
    const t0 = Date.UTC(2023, 4, 1, 13, 0);
    expect(c.memories.map((m) => m.time)).toEqual([t0, t0 + 1000, Date.UTC(2023, 4, 2, 9, 0)]);
    expect(c.queries).toEqual([
      { question: 'q1', category: 1, evidence: ['D1:1', 'D2:1'] },
      { question: 'dupes', category: 4, evidence: ['D1:2'] },
    ]);
    expect(c.skippedQueries).toBe(1);
  });
});
