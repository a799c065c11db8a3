import { describe, expect, it } from 'vitest';
import { analyze, analyzeWithSurface, tokenize } from './tokenize';
import { isStopword } from './stopwords';

describe('tokenize', () => {
  it('lowercases and splits on punctuation and whitespace', () => {
    expect(tokenize('Hey Mel! Good to see-you.')).toEqual(['hey', 'mel', 'good', 'to', 'see', 'you']);
  });

  it('drops a possessive and removes other apostrophes (straight and curly)', () => {
    expect(tokenize("Caroline's dog, don't, I’m, Melanie’s")).toEqual(['caroline', 'dog', 'dont', 'im', 'melanie']);
  });

  it('keeps numbers, with decimals and thousands separators', () => {
    expect(tokenize('In 2023 it cost 3.5 or 1,000 dollars.')).toEqual(['in', '2023', 'it', 'cost', '3.5', 'or', '1000', 'dollars']);
  });

  it('is unicode-aware', () => {
    expect(tokenize('Café in 東京, ÉCOLE naïve')).toEqual(['café', 'in', '東京', 'école', 'naïve']);
  });

  it('folds full-width forms (NFKC)', () => {
    expect(tokenize('ＡＢＣ１２３')).toEqual(['abc123']);
  });

  it('returns [] for empty or punctuation-only text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize('  ?! -- ...')).toEqual([]);
  });
});

describe('analyze', () => {
  it('drops stopwords and stems', () => {
    expect(analyze('When did Caroline go to the LGBTQ support groups?')).toEqual(['carolin', 'go', 'lgbtq', 'support', 'group']);
  });

  it('can keep stopwords and skip stemming', () => {
    expect(analyze('the groups', { stopwords: false, stem: false })).toEqual(['the', 'groups']);
  });

  it('keeps the surface form beside the term', () => {
    expect(analyzeWithSurface('Paintings!')).toEqual([{ term: 'paint', surface: 'paintings' }]);
  });

  it('treats contractions as stopwords', () => {
    expect(isStopword('dont')).toBe(true);
    expect(analyze("I don't know")).toEqual(['know']);
  });
});
