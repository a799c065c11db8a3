import { describe, expect, it } from 'vitest';
import type { LexicalResources } from '../features/resources';
import { checkModelEndpoint, isLoopbackHost } from './endpoint';
import { feedbackTerms, OfflineTransformer, related } from './offline';
import { cleanVariants } from './transformer';

// 4 words in a 2-d space: holiday ~ vacation (cos 1), trip at 45 degrees, paris orthogonal
const words = ['holiday', 'vacation', 'trip', 'paris'];
const rows = [
  [127, 0],
  [127, 0],
  [90, 90],
  [0, 127],
];
const res = {
  vectors: { words, index: new Map(words.map((w, i) => [w, i])), dim: 2, data: Int8Array.from(rows.flat()) },
  vader: new Map(),
  afinn: new Map(),
  synonyms: new Map<string, [string, number][]>([
    ['holiday', [['vacation', 0.6], ['leave', 0.6], ['day_off', 0.6], ['time', 0.3]]],
    ['go', [['travel', 0.6]]], // "go" is shorter than 3 letters: never reworded
  ]),
} as unknown as LexicalResources;

describe('offline query transformer', () => {
  it('feedback terms: tf / |d| / (rank + 1), query words and stopwords out', () => {
    // doc0: lisbon x2, trip, friends (4 content words; "with" is a stopword); doc1: lisbon, beach (2)
    // lisbon: 2/4 + 1/2/2 = 0.75; trip 1/4, friends 1/4, beach 1/2/2 = 1/4: ties alphabetical
    expect(feedbackTerms('where did I go on holiday', ['Lisbon trip with Lisbon friends', 'Lisbon beach'], 3)).toEqual(['lisbon', 'beach', 'friends']);
    expect(feedbackTerms('lisbon', ['Lisbon trip'], 3)).toEqual(['trip']); // the query's own word is left out
    expect(feedbackTerms('holiday', [])).toEqual([]);
  });

  it('WordNet relations above the weight, no multi-word entries, most related first', () => {
    expect(related(res, 'holiday', 0.5, 2)).toEqual(['leave', 'vacation']);
    expect(related(res, 'holiday', 0.3, 5)).toEqual(['leave', 'vacation', 'time']);
  });

  it('variants: synonyms, then feedback, then vector neighbours; deterministic, never the query', () => {
    const t = new OfflineTransformer(res);
    const v = t.variantsSync('where did I go on holiday', 3, ['Lisbon trip']);
    expect(v).toEqual([
      'where did I go on holiday leave vacation',
      'where did I go on holiday lisbon trip',
      // neighbours of "holiday" with cos >= 0.6: vacation (1.0), trip (0.707)
      'where did I go on holiday vacation trip',
    ]);
    expect(t.variantsSync('where did I go on holiday', 3, ['Lisbon trip'])).toEqual(v);
    expect(t.variantsSync('where did I go on holiday', 1, [])).toEqual(['where did I go on holiday leave vacation']);
    expect(t.variantsSync('xyzzy', 3, [])).toEqual([]); // nothing to reword: no variant rather than a copy
    expect(t.variantsSync('holiday', 0, [])).toEqual([]);
  });

  it('the offline provider writes no hypothetical answer', async () => {
    expect(await new OfflineTransformer(res).hypothetical()).toBeNull();
  });

  it('cleanVariants drops blanks, the query and duplicates, caps length and count', () => {
    expect(cleanVariants('Q one', ['q ONE', '  a  b ', 'A B', '', 'c'], 5)).toEqual(['a b', 'c']);
    expect(cleanVariants('q', ['x'.repeat(400)], 1)[0].length).toBe(300);
  });
});

describe('model endpoint', () => {
  it('accepts the loopback hosts the CSP allows, normalised', () => {
    expect(checkModelEndpoint({ baseUrl: ' http://LOCALHOST:11434/v1/ ', model: ' llama3.2 ', apiKey: ' ' })).toEqual({ baseUrl: 'http://localhost:11434/v1', model: 'llama3.2' });
    expect(checkModelEndpoint({ baseUrl: 'http://127.0.0.1:8080', model: 'm', apiKey: 'k' })).toEqual({ baseUrl: 'http://127.0.0.1:8080', model: 'm', apiKey: 'k' });
    expect(['localhost', '127.0.0.1'].map(isLoopbackHost)).toEqual([true, true]);
    expect(['127.0.0.2', '10.0.0.1', 'localhost.evil.com', 'example.com', '0.0.0.0'].map(isLoopbackHost)).toEqual([false, false, false, false, false]);
  });

  it.each([
    ['http://192.168.1.20:11434/v1', 'Only a language model running on this computer can be used (localhost or 127.0.0.1); "192.168.1.20" is another machine, and your memories would leave this device.'],
    // the CSP cannot name an IPv6 literal, so [::1] would pass here and fail as a blocked request
    ['https://[::1]:1234/v1', 'Use http://localhost with the same port instead of [::1]'],
    ['https://api.openai.com/v1', '"api.openai.com" is another machine'],
    ['http://localhost.evil.com/v1', '"localhost.evil.com" is another machine'],
    ['http://user:pw@localhost/v1', 'Put the key in the key field, not in the address.'],
    ['ftp://localhost/v1', 'The address must start with http:// or https://'],
    ['localhost:11434', 'The address must start with http:// or https://'],
    ['http://localhost/v1?x=1', 'must not carry a query'],
    ['', 'Enter the address of the language model'],
  ])('refuses %s with a message saying why', (baseUrl, message) => {
    expect(() => checkModelEndpoint({ baseUrl, model: 'm' })).toThrow(message);
  });

  it('needs a model name', () => {
    expect(() => checkModelEndpoint({ baseUrl: 'http://localhost:11434/v1', model: ' ' })).toThrow('Enter the model name');
  });
});
