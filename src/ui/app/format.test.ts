import { describe, expect, it } from 'vitest';
import { farWords, formatBytes, formatDate, formatWhen, happenedAt, isoDateTime, formatReinforceLine, formatSuppressLine, highlight, isClose, preview, recallMatch, searchMatch, spaceWords } from './format';

describe('formatBytes', () => {
  it('uses binary units with one decimal under ten', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB'); // 1536 / 1024 = 1.5
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
    expect(formatBytes(20 * 1024 * 1024)).toBe('20 MB');
    expect(formatBytes(null)).toBe('—');
  });
});

describe('highlight', () => {
  it('marks words starting with a matched stem, case-insensitively', () => {
    expect(highlight('Repaired the Engine today', ['repair', 'engin'])).toEqual([
      { text: 'Repaired', hit: true },
      { text: ' the ', hit: false },
      { text: 'Engine', hit: true },
      { text: ' today', hit: false },
    ]);
  });
  it('leaves text whole with no terms and ignores regex characters', () => {
    expect(highlight('a+b', [])).toEqual([{ text: 'a+b', hit: false }]);
    expect(highlight('a (b) c', ['(b'])).toEqual([{ text: 'a (b) c', hit: false }]);
  });
});

describe('preview', () => {
  it('cuts long text and says so', () => {
    expect(preview('abcdef', 3)).toEqual({ text: 'abc…', cut: true });
    expect(preview('abc', 3)).toEqual({ text: 'abc', cut: false });
  });
});

describe('feedback confirmation lines', () => {
  it('words what reinforce / suppress returned, with the lateral note only for a lateral result', () => {
    expect(formatReinforceLine('m-1', 50, true)).toBe("👍 Reinforced 'm-1' with valence=50 (lateral result — feedback recorded)");
    expect(formatReinforceLine('m-1', -30, false)).toBe("👎 Reinforced 'm-1' with valence=-30");
    expect(formatSuppressLine('m-2', 'irrelevant', true)).toBe("🚫 Suppressed 'm-2' (irrelevant) (lateral result — feedback recorded)");
    expect(formatSuppressLine('m-2', undefined, false)).toBe("🚫 Suppressed 'm-2'");
  });
});

describe('match words', () => {
  it('search: strong from 0.6, good from 0.3, weak below; the bar is the score', () => {
    expect(searchMatch(1)).toEqual({ level: 'strong', words: 'strong match', fill: 1 });
    expect(searchMatch(0.6).level).toBe('strong');
    expect(searchMatch(0.59).level).toBe('good');
    expect(searchMatch(0.3).level).toBe('good');
    expect(searchMatch(0.29)).toEqual({ level: 'weak', words: 'weak match', fill: 0.29 });
    expect(searchMatch(Number.NaN)).toEqual({ level: 'weak', words: 'weak match', fill: 0 });
  });
  it('recall: strong from 0.8, good from 0.4; the bar is full at 1.2', () => {
    expect(recallMatch(1.381)).toEqual({ level: 'strong', words: 'strong match', fill: 1 });
    expect(recallMatch(0.8).level).toBe('strong');
    expect(recallMatch(0.5)).toEqual({ level: 'good', words: 'good match', fill: 0.5 / 1.2 });
    expect(recallMatch(0.39).level).toBe('weak');
  });
});

describe('isClose', () => {
  it('"zzqx blorp": no word matched and cosine 0.12 is not close', () => {
    expect(isClose({ matchedTerms: [], bm25: 0, cosine: 0.12 })).toBe(false);
    expect(isClose({ matchedTerms: [], bm25: 0, cosine: 0.29 })).toBe(false);
  });
  it('a matched word or a cosine of 0.3 and up is close', () => {
    expect(isClose({ matchedTerms: ['car'], bm25: 1.4, cosine: 0.1 })).toBe(true);
    expect(isClose({ matchedTerms: [], bm25: 0, cosine: 0.3 })).toBe(true);
    expect(isClose({ matchedTerms: [], bm25: 0, cosine: Number.NaN })).toBe(false);
  });
});

describe('spaceWords', () => {
  it('names a space in plain words, an unknown id as itself', () => {
    expect(spaceWords('E12')).toBe('similar wording');
    expect(spaceWords('E8')).toBe('same feeling');
    expect(spaceWords('E99')).toBe('E99');
  });
});

describe('formatDate (the one date format)', () => {
  const may2 = Date.UTC(2026, 4, 2, 8, 15); // 2026-05-02 08:15 UTC
  it('is the locale\'s medium date with its short time', () => {
    expect(formatDate(may2, { locale: 'en-GB', timeZone: 'UTC' })).toBe('2 May 2026, 08:15');
    // en-US puts a narrow no-break space (U+202F) before AM
    expect(formatDate(may2, { locale: 'en-US', timeZone: 'UTC' }).replace(/\u202f/g, ' ')).toBe('May 2, 2026, 8:15 AM');
    expect(formatDate(may2, { locale: 'de-DE', timeZone: 'UTC' })).toBe('02.05.2026, 08:15');
  });
  it('follows the time zone it is given (08:15 UTC is 10:15 in Berlin in May)', () => {
    expect(formatDate(may2, { locale: 'en-GB', timeZone: 'Europe/Berlin' })).toBe('2 May 2026, 10:15');
  });
  it('says "unknown date" for a missing or impossible time', () => {
    expect(formatDate(null)).toBe('unknown date');
    expect(formatDate(Number.NaN)).toBe('unknown date');
    expect(formatDate(8.64e15 + 1)).toBe('unknown date'); // past the last Date
  });
  it('gives every old caller the same format', () => {
    expect(formatWhen(may2)).toBe(formatDate(may2));
  });
  it('has an ISO form for <time dateTime>', () => {
    expect(isoDateTime(may2)).toBe('2026-05-02T08:15:00.000Z');
    expect(isoDateTime(Number.POSITIVE_INFINITY)).toBe('');
  });
  it('takes when a memory happened from validFrom, else its capture time', () => {
    expect(happenedAt({ createdAt: 2000, validFrom: 1000 })).toBe(1000);
    expect(happenedAt({ createdAt: 2000 })).toBe(2000);
  });
});

describe('farWords', () => {
  it('counts the far results in plain words: one, or many', () => {
    expect(farWords(1)).toBe('Show the far one anyway');
    expect(farWords(3)).toBe('Show the 3 far ones anyway');
    expect(farWords(1200)).toBe('Show the 1,200 far ones anyway');
  });
});
