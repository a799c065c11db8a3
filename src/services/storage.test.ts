import { describe, expect, it } from 'vitest';
import { requestPersistence, storageInfo } from './storage';
import { explainHit } from './explain';

describe('storage', () => {
  it('reports usage and quota when the browser offers them', async () => {
    const sm = { estimate: async () => ({ usage: 1024, quota: 4096 }), persisted: async () => false };
    expect(await storageInfo(sm)).toEqual({ supported: true, usage: 1024, quota: 4096, persisted: false });
    expect(await storageInfo({})).toEqual({ supported: false, usage: null, quota: null, persisted: null });
  });

  it('asks for persistence only when not already persisted', async () => {
    let asked = 0;
    const sm = (already: boolean) => ({ persisted: async () => already, persist: async () => (asked++, true) });
    expect(await requestPersistence(sm(true))).toBe(true);
    expect(asked).toBe(0);
    expect(await requestPersistence(sm(false))).toBe(true);
    expect(asked).toBe(1);
    expect(await requestPersistence({})).toBe(false);
  });
});

describe('explainHit', () => {
  const hit = (lexical: number, semantic: number, terms: string[], cosine: number) => ({
    id: 'a',
    score: lexical + semantic,
    mode: 'standard' as const,
    why: { lexical, semantic, bm25: 1, cosine, matchedTerms: terms },
  });
  it('names the words and the share of each signal', () => {
    // 0.3 / (0.3 + 0.1) = 75% keywords, 25% meaning
    expect(explainHit(hit(0.3, 0.1, ['dog', 'river'], 0.42))).toBe('words: dog, river · 75% keywords, 25% meaning · similarity 0.42');
    expect(explainHit(hit(0.5, 0, ['dog'], 0))).toBe('words: dog · keywords only');
    expect(explainHit(hit(0, 0.5, [], 0.8))).toBe('meaning only · similarity 0.80');
    expect(explainHit(hit(0, 0, [], 0))).toBe('weak match');
  });
});
